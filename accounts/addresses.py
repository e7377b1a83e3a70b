"""E-mail addresses: one spelling per address, and one account per confirmed address.

An address is stored normalised (:func:`normalise`: NFKC, trimmed, lower case), so that
"Nisha@Example.com" and "nisha@example.com" are one address. Any number of accounts may hold an
address nobody has confirmed; once one account confirms it (``User.email_verified_at``), no
other may confirm or take it: the database holds that (a unique index on the address where
confirmed), and the forms refuse it before it gets there.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from typing import Any

from django.conf import settings


def normalise(address: str) -> str:
    return unicodedata.normalize("NFKC", address or "").strip().lower()


def digest(address: str) -> str:
    """What stands for an address where it must not be read (a link, a throttle's count): an
    HMAC of it with the site's key, so that nobody without the key can test a guess."""
    return hmac.new(settings.SECRET_KEY.encode(), normalise(address).encode(), hashlib.sha256).hexdigest()


def confirmed_elsewhere(address: str, user: Any = None) -> bool:
    """Whether an account other than ``user`` has confirmed ``address``."""
    from accounts.models import User

    address = normalise(address)
    if not address:
        return False
    others = User.objects.filter(email=address, email_verified_at__isnull=False)
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    return others.exists()


#: What a player reads when an address is another account's.
TAKEN = (
    "This address is already confirmed on another account. Log in to that account (or reset "
    "its password), or use another address."
)
