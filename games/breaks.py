"""A break or self-exclusion ends the player's money play at once (R-PROT-2, R-PROT-3).

Games answers ``protection.signals.money_play_stopped`` (connected in ``GamesConfig.ready``),
inside the transaction that took the break: a seat at a money table that has not started is
left (the entry fee or seat hold back in the wallet, as for any leave before the start); a
running pool or deals game plays to its end, as its rules and the other players' prize pool need;
at a running points table the player is stood up after the current deal.
"""

from __future__ import annotations

from typing import Any

from games import services
from games.engine.variants import variant_named
from games.models import Seat, TableStatus
from wallet.models import Currency


def stop_money_play(sender: Any, *, user_id: int, reason: str, **kwargs: Any) -> None:
    seats = (
        Seat.objects.filter(user_id=user_id, left_at__isnull=True)
        .exclude(table__template__currency=Currency.CHIPS)
        .exclude(table__status__in=[TableStatus.FINISHED, TableStatus.CANCELLED])
        .select_related("table__template")
        .order_by("table_id")
    )
    for seat in seats:
        table = seat.table
        if table.status in (TableStatus.WAITING, TableStatus.STARTING):
            services.leave(table.pk, user_id)
        elif variant_named(table.template.variant).is_points:
            services.leave_after_deal(table.pk, user_id, True)
