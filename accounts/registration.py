"""Opening a player account: the one path the sign-up page and the API share.

The form (:class:`accounts.forms.SignUpForm`) holds every check (a free, non-confusable
username, an adult's date of birth, a good password); :func:`register` saves the account and
tells the rest of the site (:data:`accounts.signals.player_signed_up`: the wallet answers with
the welcome practice chips).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.forms import SignUpForm
from accounts.models import User
from accounts.signals import player_signed_up


def register(form: SignUpForm) -> User:
    """Save a valid sign-up form's new player, in one transaction with what the signal does.
    The password is hashed first, outside it: no pooled connection waits on the hashing
    (accounts.hashers)."""
    user: User = form.save(commit=False)
    with transaction.atomic():
        user.adult_confirmed_at = timezone.now()
        user.save()
        player_signed_up.send(sender=User, user=user)
    return user
