"""Identity checks (KYC, R-PROT-7): a player is verified before any withdrawal.

The player submits a document's type and number; a provider (:class:`KycProvider`) checks it
and answers with its reference. Only the type, the number's last four characters, a keyed hash
of the number (``protection.fingerprint``) and that reference are kept: the number itself is
never stored, logged or shown. The sandbox provider (on with ``PAYMENTS_SANDBOX``) leaves each
check pending for a staff review in the back office, where the reviewer may not be the player.

One verified identity per person: a provider's yes for a document already verified on another
account does not verify it; the check stays pending, held for a staff review
(``held_for_review``). The apps above hear of each submitted document through :data:`submitted`
(fair play links the accounts and opens a case), after the submission commits.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from hotpath.statements import Prepared
from protection.fingerprint import document_hash
from protection.history import record
from protection.models import DocumentType, KycStatus, Verification
from protection.players import lock, uid
from protection.refusal import ProtectionError, Refusal


class KycProvider(Protocol):
    """An identity-check service: takes a document, answers with its own reference."""

    name: str

    def check(self, user_id: int, document_type: str, number: str) -> str:
        """Start the check of ``number``; return the provider's reference. The number must
        not be kept by the caller."""
        ...


class SandboxKyc:
    """For development and the demo: no real service; staff decide every check by hand."""

    name = "sandbox"

    def check(self, user_id: int, document_type: str, number: str) -> str:
        return f"sandbox-kyc-{uuid.uuid4().hex}"


def get_provider() -> KycProvider:
    name = getattr(settings, "KYC_PROVIDER", "sandbox")
    if name == "sandbox":
        if not getattr(settings, "PAYMENTS_SANDBOX", settings.DEBUG):
            raise ProtectionError(
                Refusal("kyc_unavailable", "Identity checks are not available yet: no provider is set up.")
            )
        return SandboxKyc()
    raise ProtectionError(Refusal("kyc_unavailable", f"Unknown identity provider {name!r}."))


_NUMBER = re.compile(r"^[A-Z0-9]{6,20}$")

#: Called after a submission commits with the player's id and the document's keyed hash;
#: registered by the apps above from their ``AppConfig.ready`` (fair play).
submitted: list[Callable[[int, str], None]] = []


def of(user: Any) -> Verification:
    """The player's verification row (unverified until they submit)."""
    found = Verification.objects.filter(user_id=uid(user)).first()
    return found or Verification(user_id=uid(user), status=KycStatus.UNVERIFIED)


#: A player's verification status (no row: unverified), for :func:`verified_by`.
STATUS = Prepared(lambda user_id: Verification.objects.filter(user_id=user_id).values_list("status"), arity=1)


def verified(user: Any) -> bool:
    return verified_by(STATUS.rows(uid(user)))


def verified_by(rows: Iterable[Sequence[Any]]) -> bool:
    """Whether the rows of :data:`STATUS` say the player is verified."""
    return any(status == KycStatus.VERIFIED for (status,) in rows)


def status_words(user: Any) -> str:
    return str(KycStatus(of(user).status).label)


def submit(
    user: Any, document_type: str, number: str, *, provider: KycProvider | None = None
) -> Verification:
    """The player sends a document for checking: pending until a decision."""
    if document_type not in DocumentType.values:
        raise ProtectionError(Refusal("bad_document", "Choose one of the documents offered."))
    number = re.sub(r"[\s-]", "", str(number or "")).upper()
    if not _NUMBER.match(number):
        raise ProtectionError(
            Refusal("bad_document", "Enter the document's number: 6 to 20 letters and digits.")
        )
    provider = provider or get_provider()
    with transaction.atomic():
        lock(user)
        current = of(user)
        if current.status in (KycStatus.PENDING, KycStatus.VERIFIED):
            raise ProtectionError(
                Refusal(
                    "kyc_not_open", f"Your identity is already {KycStatus(current.status).label.lower()}."
                )
            )
        reference = provider.check(uid(user), document_type, number)
        current.status = KycStatus.PENDING
        current.document_type = document_type
        current.last_four = number[-4:]
        current.document_hash = document_hash(document_type, number)
        current.held_for_review = False
        current.provider = provider.name
        current.provider_ref = reference
        current.submitted_at = timezone.now()
        current.decided_at = None
        current.decided_by = None
        current.reason = ""
        current.save()
        record(
            user, "kyc_submitted", document_type=document_type, last_four=number[-4:], provider_ref=reference
        )
        user_id, hashed = uid(user), current.document_hash
        transaction.on_commit(lambda: [hook(user_id, hashed) for hook in list(submitted)])
    return current


def verified_elsewhere(user_id: int, hashed: str) -> list[int]:
    """The other accounts on which the document with keyed hash ``hashed`` is verified."""
    if not hashed:
        return []
    return list(
        Verification.objects.filter(document_hash=hashed, status=KycStatus.VERIFIED)
        .exclude(user_id=user_id)
        .order_by("user_id")
        .values_list("user_id", flat=True)
    )


def decide(user: Any, verified_: bool, *, by: Any, reason: str) -> Verification:
    """A reviewer's (or the provider's, ``by=None``) decision on a pending check. The reviewer
    may not be the player; staff permissions are the back office's to check. The provider's yes
    for a document verified on another account leaves the check pending, held for a reviewer."""
    if by is not None and uid(by) == uid(user):
        raise ProtectionError(Refusal("own_kyc", "You cannot review your own identity check."))
    with transaction.atomic():
        lock(user)
        current = Verification.objects.select_for_update().filter(user_id=uid(user)).first()
        if current is None or current.status != KycStatus.PENDING:
            raise ProtectionError(
                Refusal("kyc_not_pending", "This identity check is not waiting for a decision.")
            )
        if verified_ and by is None and verified_elsewhere(uid(user), current.document_hash):
            current.held_for_review = True
            current.save(update_fields=["held_for_review"])
            record(user, "kyc_held", reason="the same document is verified on another account")
            return current
        current.status = KycStatus.VERIFIED if verified_ else KycStatus.REJECTED
        current.held_for_review = False
        current.decided_at = timezone.now()
        current.decided_by_id = None if by is None else uid(by)
        current.reason = "" if verified_ else reason
        current.save()
        record(user, f"kyc_{current.status}", by=by, reason=reason)
    return current
