"""21-card tables through the service layer (R-21-*, R-MONEY-3): scripted deals from fixed
seeds, settled in money through the wallet, with exact amounts per seat.

Money in these tests: point value 100 paise (₹1 a point), so a seat holds 200 x 100 = 20000
(R-21-8), and the rake is 10% of each winner's gain (R-MONEY-3).
"""

from __future__ import annotations

import pytest

from games import services
from games.engine import table as engine
from games.errors import GameError
from games.models import Deal, DealHand, TableEvent
from games.views_state import table_view
from tests.tables.support import (
    Clock,
    check_after_game,
    check_so_far,
    declare,
    draw_discard,
    hand_of,
    in_turn_order,
    pass_deadline,
    play_deal,
    rig,
    scripted,
    seat_all,
    show,
    state,
    template,
)
from tests.wallet.support import fund, wallet
from wallet.ledger import balance_of, house_spec

pytestmark = pytest.mark.django_db

MONEY = 1_000_000
HOLD = 20_000


@pytest.fixture(autouse=True)
def seeds(monkeypatch, settings):
    return scripted(monkeypatch, settings)


def table21(users, clock, seats=None):
    tmpl = template(
        name="21 card", variant="points21", seats=seats or len(users), entry_fee=0, point_value=100
    )
    return seat_all(tmpl, users, clock, money=MONEY)


def net_of(table, number=1):
    deal = Deal.objects.get(table=table, number=number)
    return {int(p["player"]): p["net"] for p in deal.result["players"]}


def leave_all(table, users, clock):
    for user in users:
        if state(table).player(str(user.pk)).status is not engine.Status.LEFT:
            services.leave(table.pk, user, at=clock())


# The first test's hands, with 5H cut: every 5 is a joker, 5H the value joker, 6H the upper
# and 4H the lower joker (R-21-2).
DECLARER = "AS 2S 3S 7D 8D 9D TC JC QC KH KS KD 8C 8S 8H QS QH QD 2D 3D 6H"
DECLARATION = "AS 2S 3S | 7D 8D 9D | TC JC QC | KH KS KD | 8C 8S 8H | QS QH QD | 2D 3D 6H"
MARRIED = "5H 6H 4H 9H TH JH 2C 4C 7C 9C KC 2D 4D 7D JD 3S 7S 9S JS AH 3H"
LOWER = "4H 2S 3S 4S 6S 2C 3C 6C 7C 2H 3H 7H 8H 3D 4D 6D 8D AS AD 9C 2D"


def test_it_settles_a_declaration_with_value_cards_through_the_wallet__R_21_1_R_21_2_R_21_3_R_21_5_R_21_6_R_21_7_R_21_8_R_MONEY_3(  # noqa: E501
    alice, bob, carol
):
    """3 packs, 21 cards each (R-21-1). The second player declares three pure sequences, three
    sets and an impure sequence whose joker is the upper 6H (R-21-2, R-21-3 a); the first player
    has had a turn and loses the hand's 105 points; the third never had a turn: a deal show,
    97 // 2 = 48 (R-21-6). Value cards (R-21-5): the declarer's upper 6H = 10, the marriage
    5H 6H 4H = 100, the lower 4H = 10. Totals (R-21-7):
    declarer 48 + 105 + (10 + 10) - (100 + 10) = +63; married -48 + 2 x 100 - 2 x 10 = +132;
    lower -105 + 2 x 10 - (10 + 100) = -195. Money: points x 100 paise, less 10% rake on each
    gain (R-MONEY-3)."""
    clock = Clock()
    users = [alice, bob, carol]
    table = table21(users, clock)
    assert [wallet(u) for u in users] == [MONEY - HOLD] * 3  # R-21-8: 200 points held
    started = TableEvent.objects.get(table=table, type="deal_started").data
    assert (started["packs"], started["hand_size"]) == (3, 21)
    assert all(len(hand_of(table, u)) == 21 for u in users)
    lower, declarer, married = in_turn_order(table, users)
    rig(table, {declarer: DECLARER, married: MARRIED, lower: LOWER}, cut="5H", closed_top=["TD", "9C"])

    draw_discard(table, lower, clock)
    declare(table, declarer, "9C", DECLARATION, clock)
    show(table, married, "9H TH JH", clock)
    show(table, lower, "", clock)

    deal = Deal.objects.get(table=table, number=1)
    result = {int(p["player"]): p for p in deal.result["players"]}
    assert result[declarer.pk]["outcome"] == "won"
    assert (result[married.pk]["outcome"], result[married.pk]["score"]) == ("deal_show", 48)
    assert (result[lower.pk]["outcome"], result[lower.pk]["score"]) == ("lost_show", 105)
    assert {uid: p["value"] for uid, p in result.items()} == {declarer.pk: 10, married.pk: 100, lower.pk: 10}
    assert net_of(table) == {declarer.pk: 63, married.pk: 132, lower.pk: -195}
    assert {(h.user_id, h.net) for h in DealHand.objects.filter(deal=deal)} == set(net_of(table).items())
    now = state(table)
    assert now.player(str(declarer.pk)).held == HOLD + 6300 - 630
    assert now.player(str(married.pk)).held == HOLD + 13200 - 1320
    assert now.player(str(lower.pk)).held == HOLD - 19500

    leave_all(table, users, clock)
    assert wallet(declarer) == MONEY + 5670
    assert wallet(married) == MONEY + 11880
    assert wallet(lower) == MONEY - 19500
    assert balance_of(house_spec(table.table_ref)) == 630 + 1320
    check_after_game(table, users)


def test_it_caps_a_loss_at_200_points__R_21_7_R_21_4_R_21_2(alice, bob):
    """The cut is a printed joker: every Ace is wild, AS the value joker, 2S upper and KS lower
    (R-21-2); the winner holds all three, a marriage worth 100, and uses them as jokers. The
    loser has no pure sequence: every card counts, 140 points capped at 120 (R-21-4). The loss
    120 + 100 = 220 is capped at 200 (R-21-7), cut off what the loser owes the winner."""
    clock = Clock()
    users = [alice, bob]
    table = table21(users, clock)
    loser, winner = in_turn_order(table, users)
    rig(
        table,
        {
            winner: "3H 4H 5H 6C 7C 8C 9D TD JD QS QH QD JS JH AS 6D 7D 2S 9S TS KS",
            loser: "KH KD KC QC TH TC 9H 9C 8H 8D 7H 7S 6H 6S 4D 4S 3D 3C 2H 2D 2C",
        },
        cut="PJ",
        closed_top=["5C", "4C"],
    )
    draw_discard(table, loser, clock)
    declare(
        table,
        winner,
        "4C",
        "3H 4H 5H | 6C 7C 8C | 9D TD JD | QS QH QD | JS JH AS | 6D 7D 2S | 9S TS KS",
        clock,
    )
    show(table, loser, "", clock)
    deal = Deal.objects.get(table=table, number=1)
    result = {int(p["player"]): p for p in deal.result["players"]}
    assert (result[loser.pk]["score"], result[winner.pk]["value"]) == (120, 100)
    assert net_of(table) == {winner.pk: 200, loser.pk: -200}
    assert deal.result["transfers"] == [{"payer": str(loser.pk), "payee": str(winner.pk), "points": 200}]
    leave_all(table, users, clock)
    assert wallet(winner) == MONEY + 20000 - 2000
    assert wallet(loser) == MONEY - 20000
    check_after_game(table, users)


def test_it_exchanges_value_cards_after_a_wrong_show__R_21_6_R_21_7(alice, bob):
    """A wrong show costs 120 and the wrong-showing player still exchanges value cards: they
    hold the upper joker (10), so they pay the winner 120 - 10 = 110 (R-21-6, R-21-7)."""
    clock = Clock()
    users = [alice, bob]
    table = table21(users, clock)
    wrong, other = in_turn_order(table, users)
    rig(
        table,
        {
            wrong: "6H 2S 3S 7D 8D 9D TC JC QC KH KS KD 8C 8S 8H QS QH QD 2D 3D 9S",
            other: "AS 4S 6S 7S 2C 3C 4C 6C 7C 9C 2H 3H 7H 8H 9H 4D 6D AD KC JD TD",
        },
        cut="5H",
        closed_top=["TH"],
    )
    declare(table, wrong, "TH", "6H 2S 3S 7D 8D 9D TC JC QC KH KS KD 8C 8S 8H QS QH QD 2D 3D 9S", clock)
    wrong_event = TableEvent.objects.get(table=table, type="wrong_show").data
    assert (wrong_event["player"], wrong_event["score"]) == (str(wrong.pk), 120)
    deal = Deal.objects.get(table=table, number=1)
    result = {int(p["player"]): p for p in deal.result["players"]}
    assert result[wrong.pk]["outcome"] == "wrong_show"
    assert (result[wrong.pk]["value"], result[other.pk]["value"]) == (10, 0)
    assert net_of(table) == {other.pk: 110, wrong.pk: -110}
    leave_all(table, users, clock)
    assert wallet(other) == MONEY + 11000 - 1100
    assert wallet(wrong) == MONEY - 11000
    check_after_game(table, users)


def test_it_leaves_a_dropped_player_out_of_the_value_exchange__R_21_6_R_21_7(alice, bob):
    """A middle drop costs 70 (R-21-6); the dropped player's marriage earns nothing (R-21-7)."""
    clock = Clock()
    users = [alice, bob]
    table = table21(users, clock)
    dropper, other = in_turn_order(table, users)
    rig(table, {dropper: MARRIED}, cut="5H")
    draw_discard(table, dropper, clock)
    draw_discard(table, other, clock)
    services.act(table.pk, dropper, {"type": "drop"}, at=clock())
    deal = Deal.objects.get(table=table, number=1)
    result = {int(p["player"]): p for p in deal.result["players"]}
    assert (result[dropper.pk]["outcome"], result[dropper.pk]["score"]) == ("middle_drop", 70)
    assert result[dropper.pk]["value"] is None
    assert net_of(table) == {other.pk: 70, dropper.pk: -70}
    leave_all(table, users, clock)
    assert wallet(other) == MONEY + 7000 - 700
    assert wallet(dropper) == MONEY - 7000
    check_after_game(table, users)


def test_it_counts_losing_hands_and_declares_three_tunnelas__R_21_3_R_21_4(alice, bob, carol):
    """Three tunnelas declare, the rest ungrouped (R-21-3 b). A loser with three pure sequences
    has every valid group excluded: only the 68 points of deadwood count; a loser holding six
    dublees loses 2 (R-21-4, Decision). No value cards anywhere: 68 + 2 = 70 to the winner."""
    clock = Clock()
    users = [alice, bob, carol]
    table = table21(users, clock)
    pure, dublees, winner = in_turn_order(table, users)
    rig(
        table,
        {
            winner: "7S 7S 7S 8D 8D 8D KC KC KC 2S 4S 9H TH QD JC 3C 6C 9S AH AD KD",
            pure: "AS 2S 3S 9C TC JC 2D 3D 4D QH QS QC KH KD JH JD 8H 7C 6S 4C 3H",
            dublees: "2C 2C 3S 3S 4D 4D 9S 9S TH TH JS JS QD KS AC 7H 8S 8C 6C 9H 2H",
        },
        cut="5H",
        closed_top=["TS", "TS", "QS"],
    )
    draw_discard(table, pure, clock)
    draw_discard(table, dublees, clock)
    declare(table, winner, "QS", "7S 7S 7S | 8D 8D 8D | KC KC KC", clock)
    show(table, pure, "AS 2S 3S | 9C TC JC | 2D 3D 4D | QH QS QC", clock)
    show(table, dublees, "2C 2C | 3S 3S | 4D 4D | 9S 9S | TH TH | JS JS", clock)
    deal = Deal.objects.get(table=table, number=1)
    result = {int(p["player"]): p for p in deal.result["players"]}
    assert (result[pure.pk]["score"], result[dublees.pk]["score"]) == (68, 2)
    assert net_of(table) == {winner.pk: 70, pure.pk: -68, dublees.pk: -2}
    leave_all(table, users, clock)
    assert [wallet(u) for u in (winner, pure, dublees)] == [MONEY + 6300, MONEY - 6800, MONEY - 200]
    check_after_game(table, users)


def test_it_seats_a_player_who_joins_mid_deal_for_the_next_deal__R_21_1_R_21_8_R_TOSS_1(alice, bob, carol):
    """A player joining while a deal runs has 200 points held at once (R-21-8), sees no hand,
    cannot act, and is dealt 21 cards in the next deal, which starts with a new toss (R-TOSS-1)."""
    clock = Clock()
    table = table21([alice, bob], clock, seats=3)
    pass_deadline(table, clock)  # the start countdown
    fund(carol, MONEY)
    services.join(table.pk, carol, at=clock())
    now = state(table)
    assert now.phase is engine.Phase.PLAYING
    assert now.player(str(carol.pk)).status is engine.Status.SEATED
    assert str(carol.pk) not in now.deal.players
    assert wallet(carol) == MONEY - HOLD
    table.refresh_from_db()
    assert "hand" not in table_view(table, carol)["deal"]
    with pytest.raises(GameError) as error:
        services.act(table.pk, carol, {"type": "drop"}, at=clock())
    assert error.value.code == "not_in_deal"
    dropper, stayer = in_turn_order(table, [alice, bob])
    services.act(table.pk, dropper, {"type": "drop"}, at=clock())  # first drop: 30 points
    assert TableEvent.objects.filter(table=table, type="toss").count() == 1
    pass_deadline(table, clock)  # the pause: the dropper's seat is topped up (R-21-9)
    now = state(table)
    assert now.player(str(dropper.pk)).status is engine.Status.IN
    assert now.player(str(dropper.pk)).held == HOLD
    assert now.phase is engine.Phase.PLAYING
    assert set(now.deal.players) == {str(stayer.pk), str(carol.pk), str(dropper.pk)}
    assert TableEvent.objects.filter(table=table, type="toss").count() == 2
    assert len(hand_of(table, carol)) == 21
    assert wallet(dropper) == MONEY - HOLD - 3000
    check_so_far(table, [alice, bob, carol])


def test_it_settles_each_deal_and_releases_seats__R_21_7_R_21_8_R_MONEY_3(alice, bob):
    clock = Clock()
    tmpl = template(name="21 card", variant="points21", seats=2, entry_fee=0, point_value=10)
    table = seat_all(tmpl, [alice, bob], clock, money=100_000)
    assert wallet(alice) == wallet(bob) == 100_000 - 2000  # 200 points x 10 paise held
    now = play_deal(table, [alice, bob], {alice: "drop", bob: "play"}, clock)
    assert now.phase is engine.Phase.BETWEEN
    result = state(table).deal.result
    assert result is not None
    assert result.winner == str(bob.pk)
    # alice paid her first drop (30 points = 300 paise); bob's gain less 10% rake.
    assert now.player(str(alice.pk)).held == 1700
    assert now.player(str(bob.pk)).held == 2270
    pass_deadline(table, clock)  # alice's seat is below 200 points: topped up (R-21-9)
    now = state(table)
    assert now.player(str(alice.pk)).held == 2000
    assert wallet(alice) == 100_000 - 2000 - 300
    assert now.deal_number == 2, "the next deal starts at once"
    first, second = in_turn_order(table, [alice, bob])
    services.act(table.pk, first, {"type": "drop"}, at=clock())
    for user in (alice, bob):
        services.leave(table.pk, user, at=clock())
    before = {alice.pk: 100_000 - 300, bob.pk: 100_000 + 270}
    assert wallet(first) == before[first.pk] - 300
    assert wallet(second) == before[second.pk] + 270
    check_after_game(table, [alice, bob])
