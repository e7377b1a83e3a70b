"""How many mails one address, and one client, may ask for in an hour: password resets and
address confirmations (``MAILS_PER_HOUR_PER_ADDRESS``, ``MAILS_PER_HOUR_PER_CLIENT``).

Every request is counted, whether or not its address belongs to an account, so a refusal
says nothing about the address. The client is the address the trusted proxies saw
(``accounts.client_ip``), never a header the client wrote. Counted in the database, so every
server process shares the count.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.addresses import digest
from accounts.models import MailRequest

WINDOW = timedelta(hours=1)

#: What a player reads when refused.
MESSAGE = "Too many e-mails asked for from here or for this address: try again in an hour."


def allow(kind: str, address: str, client: str, *, now: datetime | None = None) -> bool:
    """Count a request for a ``kind`` mail to ``address`` from ``client``; False (and nothing
    counted) when the address or the client has had its hour's share already."""
    now = now or timezone.now()
    since = now - WINDOW
    key = digest(address)
    per_address = int(getattr(settings, "MAILS_PER_HOUR_PER_ADDRESS", 3))
    per_client = int(getattr(settings, "MAILS_PER_HOUR_PER_CLIENT", 10))
    with transaction.atomic():
        MailRequest.objects.filter(at__lt=since).delete()
        recent = MailRequest.objects.filter(kind=kind, at__gte=since)
        if recent.filter(address_digest=key).count() >= per_address:
            return False
        if recent.filter(client=client[:64]).count() >= per_client:
            return False
        MailRequest.objects.create(kind=kind, address_digest=key, client=client[:64], at=now)
    return True
