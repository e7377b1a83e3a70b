"""What accounts tells the rest of the site. Accounts imports no other app of the project
(the layers go one way); apps above it listen here."""

from __future__ import annotations

from django.dispatch import Signal

#: Sent once a new player's account is saved at sign-up, with ``user``. The wallet answers it
#: with the welcome practice chips (wallet.apps).
player_signed_up = Signal()
