"""``manage.py simulate --cheat-shared-device N``: N pairs of simulated players log in from one
device (recorded through ``fairplay.signals``, as a real log-in is), and the simulator shows what
fair play does about it: each pair strongly linked with a "linked accounts" case; play now seats
the two at different money tables; a join of the other's money table refused
(``linked_account``); practice tables open to both together. At the end, no money table of the
run has ever seated two strongly linked players at once.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from fairplay import links, signals
from fairplay.models import Case, Link
from games import seating, services
from games.errors import GameError
from games.models import Seat, Table, TableTemplate
from games.simulate import FEES, Cheat, Simulator
from wallet.models import Currency

FLAG = "--cheat-shared-device"


def _device(simulator: Simulator, index: int) -> str:
    """A device id of the cookie's shape, derived from the run (the same for a seed)."""
    digest = hashlib.sha256(f"{simulator.run_tag}:shared-device:{index}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _template(simulator: Simulator, currency: str) -> TableTemplate:
    return TableTemplate.objects.create(
        name=f"{simulator.run_tag} shared device 101 pool {currency}",
        variant="pool101",
        currency=currency,
        seats=3,
        entry_fee=FEES[0],
        active=True,
    )


def play(simulator: Simulator, pairs: int) -> None:
    money = _template(simulator, Currency.INR)
    practice = _template(simulator, Currency.CHIPS)
    events = simulator.summary.events
    for index in range(pairs):
        pair = [simulator.new_player(), simulator.new_player()]
        device = _device(simulator, index)
        for user in pair:
            signals.record("login", user.pk, device=device, agent="simulator")
        low, high = sorted(user.pk for user in pair)
        link = Link.objects.filter(low_id=low, high_id=high).first()
        simulator.check(
            link is not None and link.strength == links.STRONG and "device" in link.reasons,
            f"players {low} and {high} share a device but are not strongly linked",
        )
        events["shared device links"] += link is not None
        case = Case.objects.filter(key=links.case_key(low, high), kind="linked_accounts").first()
        simulator.check(case is not None, f"no linked-accounts case for players {low} and {high}")
        events["shared device cases"] += case is not None
        _seat_apart(simulator, pair, money)
        _seat_together(simulator, pair, practice)
    _check_no_money_table_seated_a_linked_pair(simulator)
    for template in (money, practice):
        template.active = False
        template.save(update_fields=["active"])
    simulator.check_ledger()


def _seat_apart(simulator: Simulator, pair: list[Any], template: TableTemplate) -> None:
    first, second = pair
    for user in pair:
        simulator.fund(user, Currency.INR, template.entry_fee)
    at_first = services.play_now(first, template, at=simulator.tick())
    at_second = services.play_now(second, template, at=simulator.tick())
    simulator.check(
        at_first.pk != at_second.pk, f"play now seated a linked pair at money table {at_first.pk}"
    )
    simulator.summary.events["shared device kept apart"] += at_first.pk != at_second.pk
    try:
        services.join(at_first.pk, second, at=simulator.tick())
    except GameError as error:
        simulator.check(error.code == "linked_account", f"a linked join refused as {error.code}")
        simulator.summary.events["shared device joins refused"] += 1
    else:
        simulator.violation(f"a linked player joined money table {at_first.pk} beside their other account")
    for user, table in ((first, at_first), (second, at_second)):
        services.leave(table.pk, user, at=simulator.tick())


def _seat_together(simulator: Simulator, pair: list[Any], template: TableTemplate) -> None:
    first, second = pair
    for user in pair:
        simulator.fund(user, Currency.CHIPS, template.entry_fee)
    at_first = services.play_now(first, template, at=simulator.tick())
    at_second = services.play_now(second, template, at=simulator.tick())
    simulator.check(at_first.pk == at_second.pk, "a linked pair was kept apart at a practice table")
    simulator.summary.events["shared device together at practice"] += at_first.pk == at_second.pk
    for user in pair:
        services.leave(at_first.pk if user is first else at_second.pk, user, at=simulator.tick())


def _check_no_money_table_seated_a_linked_pair(simulator: Simulator) -> None:
    """Over every seat of the run's money tables (open or closed), no two strongly linked players
    were seated at one table at the same time."""
    money_tables = Table.objects.filter(
        template__name__startswith=simulator.run_tag, template__currency=Currency.INR
    ).values_list("pk", flat=True)
    seats = Seat.objects.filter(table_id__in=list(money_tables)).values_list(
        "table_id", "user_id", "joined_at", "left_at"
    )
    by_table: dict[int, list[tuple[int, Any, Any]]] = {}
    for table_id, user_id, joined, left in seats:
        by_table.setdefault(table_id, []).append((user_id, joined, left))
    together = 0
    for table_id, rows in by_table.items():
        for pair in seating.pairs_apart([user_id for user_id, _, _ in rows]):
            a, b = ([r for r in rows if r[0] == uid] for uid in sorted(pair))
            if any(_overlap(x, y) for x in a for y in b):
                together += 1
                simulator.violation(
                    f"money table {table_id} seated the linked players {sorted(pair)} together"
                )
    simulator.check(together == 0, "linked players seated together at a money table")


def _overlap(x: tuple[int, Any, Any], y: tuple[int, Any, Any]) -> bool:
    (_, joined_x, left_x), (_, joined_y, left_y) = x, y
    return (left_x is None or left_x > joined_y) and (left_y is None or left_y > joined_x)


CHEAT = Cheat(
    flag=FLAG,
    help="N pairs of players sharing one device: fair play links them and keeps them apart at money tables",
    play=play,
)
