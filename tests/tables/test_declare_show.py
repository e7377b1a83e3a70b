"""Declarations, shows and drops on 13-card tables through the service layer (R-DECL-1..3,
R-SHOW-1, R-SHOW-2, R-SHOW-4, R-SHOW-5, R-DROP-1..3), scripted from fixed seeds.

Every hand here is dealt with 7C cut: every 7 and the printed joker are jokers; no hand
below holds one.
"""

from __future__ import annotations

import pytest

from games import services
from games.engine.cards import parse_cards
from games.engine.melds import evaluate
from games.engine.solver import solve
from games.engine.variants import POOL101
from games.errors import GameError
from games.models import TableEvent
from games.views_state import arrangement, table_view
from tests.tables.support import (
    Clock,
    check_privacy,
    check_so_far,
    declare,
    draw_discard,
    grouping,
    hand_of,
    in_turn_order,
    pass_deadline,
    rig,
    scores,
    scripted,
    seat_all,
    show,
    state,
    template,
)

pytestmark = pytest.mark.django_db

DECLARER = "AS 2S 3S 4H 5H 6H 8D 9D TD JD KC KS KH"
DECLARATION = "AS 2S 3S | 4H 5H 6H | 8D 9D TD JD | KC KS KH"
NO_PURE = "KS QH JD 9C 8S 6D 5C 4S 3H 2D AH TC 9H"
"""No pure sequence: every card counts, 96, capped at 80."""
ONE_PURE = "3C 4C 5C QS QD QH 9S 8H 6S 4D 2H TS AD"
"""A pure sequence and a set but no second sequence: only the pure sequence is excluded: 79."""
TWO_SEQUENCES = "2C 3C 4C 9H TH JH 5S 5D 5H KD 8S 6C AC"
"""Two pure sequences and a set: every valid group is excluded, 34 of deadwood left."""


@pytest.fixture(autouse=True)
def seeds(monkeypatch, settings):
    return scripted(monkeypatch, settings)


def refused(code, call):
    with pytest.raises(GameError) as error:
        call()
    assert error.value.code == code, error.value.message


def test_it_scores_each_loser_by_their_groups_and_the_winner_0__R_DECL_2_R_SHOW_2_R_SHOW_4(players):
    """Four players; the three losers each had a turn before the fourth declared."""
    clock = Clock()
    users = players[:4]
    table = seat_all(template(seats=4), users, clock)
    no_pure, one_pure, two_seqs, declarer = in_turn_order(table, users)
    rig(
        table,
        {declarer: DECLARER, no_pure: NO_PURE, one_pure: ONE_PURE, two_seqs: TWO_SEQUENCES},
        cut="7C",
        closed_top=["QC", "QC", "JS", "2H"],
    )
    for user in (no_pure, one_pure, two_seqs):
        draw_discard(table, user, clock)
    declare(table, declarer, "2H", DECLARATION, clock)
    assert TableEvent.objects.filter(table=table, type="declared").count() == 1
    show(table, no_pure, "", clock)
    show(table, one_pure, "3C 4C 5C | QS QD QH", clock)
    show(table, two_seqs, "2C 3C 4C | 9H TH JH | 5S 5D 5H", clock)
    assert scores(table) == {
        str(declarer.pk): 0,
        str(no_pure.pk): 80,
        str(one_pure.pk): 79,
        str(two_seqs.pk): 34,
    }
    assert state(table).player(str(no_pure.pk)).score == 80
    check_privacy(table, users)


def test_it_makes_an_invalid_declaration_a_wrong_show_and_plays_on__R_DECL_2_R_DECL_3(alice, bob, carol):
    """One pure sequence and sets but no second sequence is not a declaration (R-DECL-2): a
    wrong show of 80; the finish card goes face up and the two others play the deal out."""
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    wrong, second, third = in_turn_order(table, users)
    rig(table, {wrong: "AS 2S 3S KC KS KH KD QC QS QH JC JS JH"}, cut="7C", closed_top=["4D"])
    declare(table, wrong, "4D", "AS 2S 3S | KC KS KH KD | QC QS QH | JC JS JH", clock)
    event = TableEvent.objects.get(table=table, type="wrong_show")
    assert event.data == {"player": str(wrong.pk), "score": 80, "card": "4D"}
    reason = TableEvent.objects.get(table=table, type="wrong_show_reason")
    assert reason.user_id == wrong.pk, "only the declarer is told why"
    now = state(table)
    assert now.deal.open_pile[-1].code == "4D"
    assert in_turn_order(table, users)[0] == second, "the deal goes on without the declarer"
    refused("out_of_deal", lambda: services.act(table.pk, wrong, {"type": "drop"}, at=clock()))
    draw_discard(table, second, clock)
    services.act(table.pk, third, {"type": "drop"}, at=clock())
    assert scores(table) == {str(wrong.pk): 80, str(second.pk): 0, str(third.pk): 20}
    check_privacy(table, users)


def test_it_makes_a_declaration_not_sent_in_time_a_wrong_show__R_DECL_1(alice, bob):
    """The declarer put a card in the finish slot and sent no grouping within the show time and
    their extra time: a wrong show; with one player left, that player wins (R-DECL-3)."""
    clock = Clock()
    table = seat_all(template(seats=2), [alice, bob], clock)
    declarer, other = in_turn_order(table, [alice, bob])
    services.act(table.pk, declarer, {"type": "draw", "source": "closed"}, at=clock())
    services.act(table.pk, declarer, {"type": "finish", "card": hand_of(table, declarer)[0]}, at=clock())
    finished = state(table).deal.since_ms
    assert state(table).deadline_ms == finished + 30_000 + 30_000
    assert not services.expire(table.pk, table.version, at=finished + 59_999)
    assert pass_deadline(table, clock)
    assert scores(table) == {str(declarer.pk): 80, str(other.pk): 0}
    assert state(table).history[-1]["winner"] == str(other.pk)
    check_so_far(table, [alice, bob])


def test_it_scores_a_late_loser_on_their_saved_grouping__R_SHOW_1(alice, bob, carol):
    """After a valid declaration nobody shows in time: the player who had arranged their hand
    is scored on that arrangement (34); the one who never arranged gets the show-timeout 80."""
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    saver, never, declarer = in_turn_order(table, users)
    rig(table, {saver: TWO_SEQUENCES, declarer: DECLARER}, cut="7C", closed_top=["QC", "QC", "2H"])
    services.act(
        table.pk,
        saver,
        {"type": "save_grouping", "groups": grouping("2C 3C 4C | 9H TH JH | 5S 5D 5H")},
        at=clock(),
    )
    draw_discard(table, saver, clock)
    draw_discard(table, never, clock)
    declare(table, declarer, "2H", DECLARATION, clock)
    declared = state(table).deal.since_ms
    assert state(table).deadline_ms == declared + 30_000
    assert pass_deadline(table, clock)
    assert scores(table) == {str(declarer.pk): 0, str(saver.pk): 34, str(never.pk): 80}
    timed_out = TableEvent.objects.get(table=table, type="show_timed_out").data
    assert sorted(timed_out["players"]) == sorted([str(saver.pk), str(never.pk)])
    check_privacy(table, users)


def test_it_suggests_the_lowest_arrangement_only_when_asked__R_SHOW_5(alice, bob):
    clock = Clock()
    table = seat_all(template(seats=2), [alice, bob], clock)
    first, _other = in_turn_order(table, [alice, bob])
    rig(table, {first: TWO_SEQUENCES}, cut="7C")
    table.refresh_from_db()
    suggestion = arrangement(table, first)
    deal = state(table).deal
    hand = parse_cards(TWO_SEQUENCES.split())
    # Better than the 34 of the obvious groups: AC joins 2C 3C 4C.
    assert suggestion["score"] == solve(POOL101, deal.jokers, hand).score == 24
    groups = [parse_cards(group) for group in suggestion["groups"]]
    assert evaluate(POOL101, deal.jokers, hand, groups).score == 24
    assert table_view(table, first)["deal"]["saved_grouping"] is None, "never applied unasked"
    assert not TableEvent.objects.filter(table=table, type="grouping_saved").exists()
    with pytest.raises(GameError) as error:
        arrangement(table, None)
    assert error.value.code == "not_in_deal"
    check_so_far(table, [alice, bob])


def test_it_scores_first_and_middle_drops_only_on_ones_turn_before_drawing__R_DROP_1_R_DROP_2_R_DROP_3(
    alice, bob, carol
):
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    first, second, third = in_turn_order(table, users)
    refused("not_your_turn", lambda: services.act(table.pk, second, {"type": "drop"}, at=clock()))
    services.act(table.pk, first, {"type": "drop"}, at=clock())  # first drop
    draw_discard(table, second, clock)
    draw_discard(table, third, clock)
    services.act(table.pk, second, {"type": "draw", "source": "closed"}, at=clock())
    refused("drop_after_draw", lambda: services.act(table.pk, second, {"type": "drop"}, at=clock()))
    services.act(table.pk, second, {"type": "discard", "card": hand_of(table, second)[0]}, at=clock())
    draw_discard(table, third, clock)
    services.act(table.pk, second, {"type": "drop"}, at=clock())  # middle drop
    dropped = [e.data for e in TableEvent.objects.filter(table=table, type="dropped").order_by("version")]
    assert [(d["outcome"], d["score"]) for d in dropped] == [("first_drop", 20), ("middle_drop", 40)]
    assert scores(table) == {str(first.pk): 20, str(second.pk): 40, str(third.pk): 0}
    check_so_far(table, users)
