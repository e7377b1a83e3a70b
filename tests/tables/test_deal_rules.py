"""Deal rules seen through the table: missed moves, deal show, auto drop and I'm back, privacy."""

from __future__ import annotations

import pytest

from games import services
from games.engine import table as engine
from games.engine.cards import parse_cards
from games.engine.pool import deal_show_score
from games.engine.variants import POOL101
from games.errors import GameError
from games.models import Deal, Table, TableEvent
from games.views_state import events_for, table_view
from tests.tables.support import (
    Clock,
    check_privacy,
    check_so_far,
    declare,
    in_turn_order,
    pass_deadline,
    play_deal,
    play_turn,
    rig,
    scores,
    scripted,
    seat_all,
    show,
    state,
    template,
    turn_player,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def seeds(monkeypatch, settings):
    return scripted(monkeypatch, settings)


def test_it_drops_a_player_after_three_missed_moves__R_TURN_6(alice, bob):
    clock = Clock()
    users = {str(alice.pk): alice, str(bob.pk): bob}
    table = seat_all(template(seats=2), [alice, bob], clock)
    sleeper = turn_player(table)
    other = next(u for n, u in users.items() if n != sleeper)
    for missed in range(3):
        assert turn_player(table) == sleeper
        assert pass_deadline(table, clock)
        if missed < 2:
            play_turn(table, other, clock)
    now = state(table)
    assert now.player(sleeper).score == POOL101.missed_moves_drop
    assert now.history[-1]["winner"] == str(other.pk)
    check_so_far(table, list(users.values()))


def test_it_refuses_a_timeout_before_the_deadline_and_a_stale_one(alice, bob):
    clock = Clock()
    table = seat_all(template(seats=2), [alice, bob], clock)
    version = Table.objects.get(pk=table.pk).version
    assert not services.expire(table.pk, version, at=clock())  # not due
    assert pass_deadline(table, clock)
    assert not services.expire(table.pk, version, at=clock.ms + 10**9)  # stale version
    check_so_far(table, [alice, bob])


def test_it_halves_the_score_of_a_loser_who_never_had_a_turn__R_SHOW_3(alice, bob, carol):
    """The first player declares at once: both others are on a deal show. Their hands score 80
    (96 capped) and 34: half, rounded down, is 40 (the most a deal show costs) and 17."""
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    declarer, capped, grouped = in_turn_order(table, users)
    rig(
        table,
        {
            declarer: "AS 2S 3S 4H 5H 6H 8D 9D TD JD KC KS KH",
            capped: "KS QH JD 9C 8S 6D 5C 4S 3H 2D AH TC 9H",
            grouped: "2C 3C 4C 9H TH JH 5S 5D 5H KD 8S 6C AC",
        },
        cut="7C",
        closed_top=["2H"],
    )
    declare(table, declarer, "2H", "AS 2S 3S | 4H 5H 6H | 8D 9D TD JD | KC KS KH", clock)
    show(table, capped, "", clock)
    show(table, grouped, "2C 3C 4C | 9H TH JH | 5S 5D 5H", clock)
    assert scores(table) == {str(declarer.pk): 0, str(capped.pk): 40, str(grouped.pk): 17}
    outcomes = {p["player"]: p["outcome"] for p in Deal.objects.get(table=table, number=1).result["players"]}
    assert outcomes[str(capped.pk)] == outcomes[str(grouped.pk)] == "deal_show"
    assert deal_show_score(POOL101, 80) == 40
    check_privacy(table, users)


def test_it_auto_drops_until_im_back__R_DROP_4(alice, bob, carol):
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    services.set_auto_drop(table.pk, alice, at=clock())
    play_deal(table, users, {bob: "wrong", carol: "drop"}, clock)  # alice plays this deal as usual
    pass_deadline(table, clock)
    dropped = TableEvent.objects.filter(table=table, type="dropped", data__player=str(alice.pk))
    assert [e.data["auto"] for e in dropped] == [True]
    assert state(table).deal.seats[state(table).deal.seat_of(str(alice.pk))].outcome.value == "first_drop"
    services.im_back(table.pk, alice, at=clock())  # takes effect from the next deal
    play_deal(table, users, {bob: "drop"}, clock)
    pass_deadline(table, clock)
    deal = state(table).deal
    assert deal.seats[deal.seat_of(str(alice.pk))].in_deal
    assert state(table).player(str(alice.pk)).score == 20
    check_so_far(table, users)


def test_it_shows_a_player_only_their_own_cards(alice, bob):
    clock = Clock()
    table = seat_all(template(seats=2), [alice, bob], clock)
    table.refresh_from_db()
    view = table_view(table, alice)
    deal = state(table).deal
    assert view["deal"]["hand"] == [c.code for c in deal.seats[deal.seat_of(str(alice.pk))].hand]
    bob_cards = {c.code for c in deal.seats[deal.seat_of(str(bob.pk))].hand}
    assert "closed_pile" not in view["deal"]
    events = events_for(table, alice, 0)
    assert [e["v"] for e in events] == list(range(1, table.version + 1))
    for event in events:
        if event.get("type") == "dealt":
            assert set(event["data"]["hand"]) != bob_cards
    hidden = [e for e in events if set(e) == {"v"}]
    assert hidden, "bob's private deal event keeps its version with no content"
    with pytest.raises(GameError) as error:
        services.act(
            table.pk, alice if turn_player(table) != str(alice.pk) else bob, {"type": "drop"}, at=clock()
        )
    assert error.value.code == "not_your_turn"
    parse_cards(view["deal"]["hand"])
    assert engine.Phase(view["phase"]) is engine.Phase.PLAYING
    check_so_far(table, [alice, bob])


def test_it_records_a_deal_that_ends_as_it_starts_on_auto_drop__R_DROP_4(alice, bob):
    """With two players and one on auto drop, the next deal starts and ends in one write."""
    clock = Clock()
    users = [alice, bob]
    table = seat_all(template(seats=2), users, clock)
    services.set_auto_drop(table.pk, alice, at=clock())
    play_deal(table, users, {bob: "drop"}, clock)  # alice plays this deal as usual
    pass_deadline(table, clock)  # the next deal: alice is dropped at once, bob wins it
    table.refresh_from_db()
    finished = Deal.objects.filter(table=table, finished_at__isnull=False).order_by("number")
    assert finished.count() == 2
    last = finished.last()
    outcomes = {hand.user_id: (hand.outcome, hand.score) for hand in last.hands.all()}
    assert outcomes[alice.pk] == ("first_drop", 20)
    assert outcomes[bob.pk][1] == 0
    check_so_far(table, users)
