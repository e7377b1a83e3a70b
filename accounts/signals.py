"""What accounts tells the rest of the site. Accounts imports no other app of the project
(the layers go one way); apps above it listen here."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.dispatch import Signal

#: Sent once a new player's account is saved at sign-up, with ``user``. The wallet answers it
#: with the welcome practice chips (wallet.apps).
player_signed_up = Signal()

#: Sent when a signed-up player asks, on their profile, to live in another region, with
#: ``user`` and ``region`` (a valid ISO 3166-2 code). Player protection answers
#: (``protection.regions.asked``): the change applies at once, after the cooling-off period, or
#: after a staff review, and the answer is the sentence that tells the player which. Accounts
#: never changes a signed-up player's region itself.
region_change_asked = Signal()

#: Sent by the profile page with ``user``: player protection answers with the sentence saying
#: what still waits on the player's region (a cooling-off period, a staff review), or None.
region_change_waiting = Signal()


def ask_region_change(user: Any, region: str) -> str:
    """What player protection did with ``user``'s request to live in ``region``, in words."""
    answers = [answer for _, answer in region_change_asked.send(sender=type(user), user=user, region=region)]
    words = [str(answer) for answer in answers if answer]
    if not words:
        raise ImproperlyConfigured("nothing answers a change of region: player protection is not installed")
    return " ".join(words)


def region_waiting(user: Any) -> str | None:
    """What still waits on ``user``'s region, in words, or None."""
    answers = region_change_waiting.send(sender=type(user), user=user)
    return " ".join(str(answer) for _, answer in answers if answer) or None
