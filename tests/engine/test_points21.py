"""21-card points rummy: packs, value cards and deal settlement (R-21-1, R-21-5..7)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import Card, CardError, Jokers, parse_cards, shoe
from games.engine.points21 import (
    PlayerResult,
    Settlement,
    SettlementError,
    Transfer,
    ValueCards,
    settle,
    value_cards,
)
from games.engine.pool import deal_show_score
from games.engine.variants import POINTS21, POOL101

SETTLEMENTS = Path(__file__).parent / "data" / "settlements.jsonl"
CUT_4S = Jokers.from_cut(Card.parse("4S"), value_cards=True)  # value 4S, upper 5S, lower 3S


def settlement_records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SETTLEMENTS.read_text().splitlines() if line.strip()]


# R-21-1


def test_three_packs_of_21_cards__R_21_1() -> None:
    assert len(shoe(POINTS21.default_packs)) == 159
    assert POINTS21.hand_size == 21
    assert POINTS21.elimination is None
    assert (POINTS21.first_drop, POINTS21.middle_drop, POINTS21.wrong_show, POINTS21.full_count) == (
        30,
        70,
        120,
        120,
    )
    assert POINTS21.max_loss == 200


# R-21-5


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("", 0),
        ("5S", 10),  # one upper
        ("5S 5S", 30),  # two upper (seed example)
        ("5S 5S 5S", 50),
        ("5S 3S", 20),  # upper + lower (seed example)
        ("5S 5S 3S", 40),  # two upper + one lower (seed example)
        ("4S 4S 3S 3S", 60),  # two value jokers + two lower (seed example)
        ("4S 5S 3S", 100),  # a marriage (seed example)
        ("4S 4S 5S 3S", 110),  # a marriage and a value joker
        ("4S 4S 5S 5S 3S 3S", 300),  # two marriages
        ("4S 4S 4S 5S 5S 5S 3S 3S 3S", 500),  # three marriages
        ("4S 4S 4S 5S 5S 3S", 140),  # a marriage (100), two more value jokers (30), one more upper (10)
        ("4H 4D 5H 3C PJ 6S 2S", 0),  # wild jokers, but not the value cards
    ],
)
def test_value_card_points__R_21_5(cards: str, points: int) -> None:
    hand = parse_cards(cards) + parse_cards("9D TD JD")
    assert value_cards(hand, CUT_4S).points == points


def test_value_cards_counts_and_marriages__R_21_5() -> None:
    counted = value_cards(parse_cards("4S 4S 5S 5S 5S 3S 9H"), CUT_4S)
    assert counted == ValueCards(value_jokers=2, uppers=3, lowers=1)
    assert counted.marriages == 1
    assert counted.points == 100 + 10 + 30  # marriage; 1 value joker left; 2 uppers left


def test_value_cards_of_printed_joker_cut_and_ace_cut__R_21_2_R_21_5() -> None:
    printed = Jokers.from_cut(Card.PRINTED_JOKER, value_cards=True)
    assert value_cards(parse_cards("AS 2S KS AH"), printed) == ValueCards(1, 1, 1)
    ace = Jokers.from_cut(Card.parse("AD"), value_cards=True)
    assert value_cards(parse_cards("AD 2D KD KD"), ace).points == 100 + 10


def test_value_cards_need_21_card_jokers_and_3_packs__R_21_5() -> None:
    with pytest.raises(ValueError, match="no value cards"):
        value_cards(parse_cards("4S"), Jokers.from_cut(Card.parse("4S")))
    with pytest.raises(CardError, match="0 to 3 copies"):
        value_cards(parse_cards("5S 5S 5S 5S"), CUT_4S)


# R-21-6


def test_deal_show_half_at_least_2_at_most_60__R_21_6() -> None:
    assert [deal_show_score(POINTS21, s) for s in (0, 1, 2, 3, 50, 119, 120)] == [0, 1, 2, 2, 25, 59, 60]


# R-21-7


@pytest.mark.parametrize("record", settlement_records(), ids=lambda r: r["name"][:60])
def test_settlement_known_answers__R_21_5_R_21_7(record: dict[str, Any]) -> None:
    settlement = settle([PlayerResult(**player) for player in record["players"]])
    assert list(settlement.net) == record["net"]
    assert [[t.payer, t.payee, t.points] for t in settlement.transfers] == record["transfers"]
    assert sum(settlement.net) == 0


def test_seed_example_five_players__R_21_7() -> None:
    settlement = settle(
        [PlayerResult(winner=True), PlayerResult(loss=5), PlayerResult(loss=15), PlayerResult(loss=25),
         PlayerResult(loss=35)]
    )  # fmt: skip
    assert settlement.net == (80, -5, -15, -25, -35)
    assert settlement.net[0] * 300 == 24000  # at Rs 3 a point, in paise
    assert settlement.transfers[0] == Transfer(payer=1, payee=0, points=5)


def test_cap_cuts_what_is_owed_to_the_winner_first__R_21_7() -> None:
    """Loser owes 120 to the winner and 100 value to seat 2: the 20 over the cap comes off the 120."""
    settlement = settle([PlayerResult(winner=True), PlayerResult(loss=120), PlayerResult(loss=10, value=100)])
    assert settlement == Settlement(
        net=(10, -200, 190),
        transfers=(Transfer(0, 2, 90), Transfer(1, 0, 100), Transfer(1, 2, 100)),
    )


def test_cap_then_cuts_value_payments_in_seat_order__R_21_7() -> None:
    """Owes 60 to the winner, 300 to seat 2 and 100 to seat 3: 260 over the cap; 60 comes off
    the winner's share, the other 200 off seat 2 (first in seat order), none off seat 3."""
    players = [
        PlayerResult(winner=True),
        PlayerResult(loss=60),
        PlayerResult(loss=10, value=300),
        PlayerResult(loss=20, value=100),
    ]
    transfers = {(t.payer, t.payee): t.points for t in settle(players).transfers}
    assert (1, 0) not in transfers
    assert transfers[1, 2] == 100
    assert transfers[1, 3] == 100


def test_settle_refuses_impossible_results__R_21_7() -> None:
    with pytest.raises(SettlementError, match="exactly one winner, not 0"):
        settle([PlayerResult(loss=5), PlayerResult(loss=5)])
    with pytest.raises(SettlementError, match="exactly one winner, not 2"):
        settle([PlayerResult(winner=True), PlayerResult(winner=True)])
    with pytest.raises(SettlementError, match="at least 2 players"):
        settle([PlayerResult(winner=True)])
    with pytest.raises(SettlementError, match="neither drop nor lose"):
        settle([PlayerResult(winner=True, loss=3), PlayerResult(loss=5)])
    with pytest.raises(SettlementError, match="cannot be negative"):
        settle([PlayerResult(winner=True), PlayerResult(loss=-5)])
    with pytest.raises(SettlementError, match="pool101 has no deal settlement"):
        settle([PlayerResult(winner=True), PlayerResult(loss=5)], variant=POOL101)


def uncapped_totals(players: list[PlayerResult]) -> list[int]:
    """R-21-7 read literally, with no cap: points won + value received - value given."""
    active = [seat for seat, p in enumerate(players) if not p.dropped]
    totals = []
    for seat, player in enumerate(players):
        won = sum(p.loss for p in players) if player.winner else -player.loss
        if player.dropped:
            totals.append(won)
            continue
        others = [players[o].value for o in active if o != seat]
        totals.append(won + player.value * len(others) - sum(others))
    return totals


loss_scores = st.sampled_from([0, 2, 5, 17, 30, 44, 60, 70, 80, 99, 120])
value_points = st.sampled_from([0, 10, 20, 30, 40, 50, 60, 100, 110, 140, 300, 500])


@st.composite
def deal_results(draw: st.DrawFn) -> list[PlayerResult]:
    count = draw(st.integers(2, 6))
    winner = draw(st.integers(0, count - 1))
    players = []
    for seat in range(count):
        value = draw(value_points)
        if seat == winner:
            players.append(PlayerResult(winner=True, value=value))
        elif draw(st.booleans()) and draw(st.booleans()):
            players.append(PlayerResult(loss=draw(st.sampled_from([30, 70])), dropped=True, value=value))
        else:
            players.append(PlayerResult(loss=draw(loss_scores), value=value))
    return players


@settings(deadline=None, max_examples=400)
@given(players=deal_results())
def test_settlement_zero_sum_and_capped__R_21_7(players: list[PlayerResult]) -> None:
    settlement = settle(players)
    assert sum(settlement.net) == 0
    assert min(settlement.net) >= -200
    # the transfers are the net scores
    from_transfers = [0] * len(players)
    for t in settlement.transfers:
        assert t.points > 0
        assert t.payer != t.payee
        from_transfers[t.payer] -= t.points
        from_transfers[t.payee] += t.points
    assert from_transfers == list(settlement.net)
    uncapped = uncapped_totals(players)
    if min(uncapped) >= -200:
        assert list(settlement.net) == uncapped
    for seat, player in enumerate(players):
        # the cap only ever lifts a player to exactly -200; otherwise it can only cost them
        assert settlement.net[seat] <= uncapped[seat] or settlement.net[seat] == -200
        if player.dropped:
            # dropped players pay their drop score and nothing else (R-21-5, R-21-7)
            assert settlement.net[seat] == -player.loss
            assert {t.payee for t in settlement.transfers if t.payer == seat} <= {
                s for s, p in enumerate(players) if p.winner
            }
            assert all(t.payee != seat for t in settlement.transfers)
