"""Confirming an e-mail address: a signed link mailed at sign-up and at each change of address.

The link carries the account's id and a digest of the address it was sent to, signed with the
site's key and good for :data:`MAX_AGE`; it confirms that address only while it is still the
account's. Confirming an address another account has confirmed is refused, at sign-up, at a
change on the profile, and here when the link is followed; two accounts following their links
at once are kept apart by the database (``one_account_per_confirmed_email``).
"""

from __future__ import annotations

from datetime import timedelta

from django.core import signing
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from accounts import addresses, mail, throttle
from accounts.models import User

SALT = "accounts.confirmation"
MAX_AGE = timedelta(days=3)


class ConfirmationError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _digest(address: str) -> str:
    return addresses.digest(address)[:32]


def token_for(user: User) -> str:
    return signing.dumps({"u": user.pk, "a": _digest(user.email)}, salt=SALT)


def send_link(user: User, origin: str, client: str) -> bool:
    """Mail ``user`` the link that confirms their address (after the current transaction
    commits); False when the throttles refuse (nothing is sent)."""
    if not user.email or not throttle.allow("confirm", user.email, client):
        return False
    to, link = user.email, origin + reverse("accounts:confirm_email", args=[token_for(user)])
    context = {"user": user, "link": link, "days": MAX_AGE.days}
    mail.send_later(lambda: mail.send(to, "confirm_email", context))
    return True


def account_of(token: str) -> tuple[User, str]:
    """The account and address digest a link names; raises :class:`ConfirmationError`."""
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise ConfirmationError(
            "link_expired", "This link has expired. Send yourself a new one from your profile."
        ) from None
    except signing.BadSignature:
        raise ConfirmationError(
            "bad_link", "This link is not one we sent. Copy the whole link from the e-mail."
        ) from None
    user = User.objects.filter(pk=data.get("u")).first()
    if user is None or not user.email or _digest(user.email) != data.get("a"):
        raise ConfirmationError(
            "address_changed",
            "This link is for an address that is no longer on the account. Use the latest e-mail.",
        )
    return user, str(data["a"])


def confirm(token: str) -> User:
    """Confirm the address the link was sent to, if the account still has it and no other
    account has confirmed it; raises :class:`ConfirmationError` with a code and words."""
    user, digest = account_of(token)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if not user.email or _digest(user.email) != digest:
            raise ConfirmationError(
                "address_changed",
                "This link is for an address that is no longer on the account. Use the latest e-mail.",
            )
        if user.email_verified_at is not None:
            return user  # followed twice
        if addresses.confirmed_elsewhere(user.email, user):
            raise ConfirmationError("address_taken", addresses.TAKEN)
        user.email_verified_at = timezone.now()
        try:
            with transaction.atomic():
                user.save(update_fields=["email_verified_at"])
        except IntegrityError:  # another account confirmed it since the check: the index holds
            raise ConfirmationError("address_taken", addresses.TAKEN) from None
    return user
