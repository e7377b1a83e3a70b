"""A self-exclusion ends money play for the person, not only for the account that took it
(R-PROT-3): fair play answers ``protection.signals.money_play_stopped`` (connected in
``FairPlayConfig.ready``, after the games' own answer) by releasing the seats of every account
strongly linked to a self-excluded one, as the games release the player's own
(``games.breaks``), inside the same transaction. A break stays its own account's."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from fairplay.links import strongly_linked
from games import breaks
from protection import exclusions
from protection.models import ExclusionKind


def stop_linked_money_play(sender: Any, *, user_id: int, reason: str, **kwargs: Any) -> None:
    found = exclusions.current(user_id, now=timezone.now())
    if found is None or found.kind != ExclusionKind.SELF_EXCLUSION:
        return
    for other in strongly_linked(user_id):
        breaks.stop_money_play(sender, user_id=other, reason="an account linked to yours excluded itself")
