"""Helpers for the table tests: templates, a clock, scripted turns, and the after-game checks."""

from __future__ import annotations

from typing import Any

from games import services
from games.engine import table as engine
from games.models import Table, TableEvent, TableTemplate
from tests.wallet.support import fund, pool
from wallet.reconcile import reconcile

PRIVATE_TYPES = {"dealt", "drew_card", "grouping_saved", "wrong_show_reason"}


class Clock:
    """Server time in ms for the scripted tests: each tick moves one second on."""

    def __init__(self, start: int = 1_700_000_000_000) -> None:
        self.ms = start

    def __call__(self, step: int = 1000) -> int:
        self.ms += step
        return self.ms


def template(**fields: Any) -> TableTemplate:
    values: dict[str, Any] = {
        "name": "101 pool, 3 seats",
        "variant": "pool101",
        "currency": "INR",
        "seats": 3,
        "entry_fee": 2500,
        "rake_percent": 10,
    }
    values.update(fields)
    return TableTemplate.objects.create(**values)


def state(table: Table) -> engine.TableState:
    table.refresh_from_db()
    return engine.TableState.from_json(table.state)


def seat_all(tmpl: TableTemplate, users: list[Any], clock: Clock, money: int = 1_000_000) -> Table:
    for user in users:
        if tmpl.currency == "INR":
            fund(user, money)
    table = None
    for user in users:
        table = services.play_now(user, tmpl, at=clock())
    assert table is not None
    return table


def turn_player(table: Table) -> str:
    deal = state(table).deal
    assert deal is not None
    return deal.seats[deal.turn].player


def wrong_show(table: Table, user: Any, clock: Clock) -> None:
    services.act(table.pk, user, {"type": "draw", "source": "closed"}, at=clock())
    hand = _hand(table, user)
    services.act(table.pk, user, {"type": "finish", "card": hand[0]}, at=clock())
    services.act(table.pk, user, {"type": "declare", "groups": [hand[1:]]}, at=clock())


def play_turn(table: Table, user: Any, clock: Clock) -> None:
    services.act(table.pk, user, {"type": "draw", "source": "closed"}, at=clock())
    services.act(table.pk, user, {"type": "discard", "card": _hand(table, user)[-1]}, at=clock())


def _hand(table: Table, user: Any) -> list[str]:
    deal = state(table).deal
    assert deal is not None
    return [card.code for card in deal.seats[deal.seat_of(str(user.pk))].hand]


def play_deal(table: Table, users: list[Any], plan: dict[Any, str], clock: Clock) -> engine.TableState:
    """Play one deal: each turn player does their planned action (wrong, drop or play)."""
    by_name = {str(user.pk): user for user in users}
    actions = {str(user.pk): action for user, action in plan.items()}
    number = state(table).deal_number
    for _ in range(200):
        now = state(table)
        if now.deal_number != number or now.phase is not engine.Phase.PLAYING:
            return now
        name = turn_player(table)
        action = actions.get(name, "play")
        if action == "wrong":
            wrong_show(table, by_name[name], clock)
        elif action == "drop":
            services.act(table.pk, by_name[name], {"type": "drop"}, at=clock())
        else:
            play_turn(table, by_name[name], clock)
    raise AssertionError("the deal did not end")


def pass_deadline(table: Table, clock: Clock) -> bool:
    now = state(table)
    deadline = now.deadline_ms
    assert deadline is not None, "the table waits for no deadline"
    clock.ms = max(clock.ms, deadline)
    return services.expire(table.pk, table.version, at=clock(1))


def check_after_game(table: Table, users: list[Any]) -> None:
    """The wallet reconciles, the pool is empty, and no player saw another's cards."""
    assert reconcile() == []
    assert pool(table.pool_ref) == 0
    check_privacy(table, users)


def check_privacy(table: Table, users: list[Any]) -> None:
    for event in TableEvent.objects.filter(table=table):
        if event.type in PRIVATE_TYPES:
            assert event.user_id is not None, f"{event.type} v{event.version} is public"
        if event.user_id is None:
            assert "hand" not in event.data or event.type == "deal_over", event
    for user in users:
        for event in services_events(table, user):
            if event.get("type") in PRIVATE_TYPES:
                assert TableEvent.objects.get(table=table, version=event["v"]).user_id == user.pk


def services_events(table: Table, user: Any) -> list[dict[str, Any]]:
    from games.views_state import events_for

    return events_for(table, user, 0)
