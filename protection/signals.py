"""What protection tells the apps above it (they connect; protection imports none of them)."""

from django.dispatch import Signal

#: A player's money play ends now (a break or self-exclusion taken), sent inside that
#: transaction with ``user_id`` and ``reason``: games releases their seats (``games.apps``).
money_play_stopped = Signal()
