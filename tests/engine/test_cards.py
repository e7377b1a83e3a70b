"""Cards, notation and packs (R-CARD-1, R-CARD-3)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.cards import (
    PRINTED_JOKER,
    Card,
    CardError,
    check_copies,
    format_cards,
    one_pack,
    parse_cards,
    shoe,
)
from games.engine.variants import DEALS, POINTS13, POINTS21, POOL61, POOL101, POOL201, variant_named

ALL_CODES = [r + s for r in "A23456789TJQK" for s in "SHDC"] + ["PJ"]


def test_notation_round_trips__R_CARD_1():
    for code in ALL_CODES:
        card = Card.parse(code)
        assert card.code == code
        assert str(card) == code
        assert eval(repr(card)) == card  # noqa: S307  (repr is pasteable Python)
    assert Card.parse("7H") == Card(7, 1)
    assert Card.parse("TS") == Card(10, 0)
    assert Card.parse("AC") == Card(1, 3)
    assert Card.parse("10d") == Card.parse("TD")
    assert Card.parse("pj") is PRINTED_JOKER
    assert PRINTED_JOKER.is_printed_joker
    assert not Card.parse("AS").is_printed_joker


@pytest.mark.parametrize("code", ["", "1H", "7X", "ZZ", "7HH", "J", "11S", "P J", "0S"])
def test_unknown_card_codes_are_refused_with_the_code__R_CARD_1(code):
    with pytest.raises(CardError, match="unknown card code"):
        Card.parse(code)


def test_non_string_card_code_is_a_card_error__R_CARD_1():
    with pytest.raises(CardError, match="must be a string"):
        Card.parse(7)  # type: ignore[arg-type]
    with pytest.raises(CardError, match="no such card"):
        Card(14, 0)


def test_a_pack_is_52_cards_and_a_printed_joker__R_CARD_1():
    pack = one_pack()
    assert len(pack) == 53
    assert len(set(pack)) == 53
    assert pack.count(PRINTED_JOKER) == 1
    assert Counter(card.suit for card in pack if not card.is_printed_joker) == {0: 13, 1: 13, 2: 13, 3: 13}


def test_shoes_have_106_and_159_cards__R_CARD_3():
    assert len(shoe(2)) == 106
    assert len(shoe(3)) == 159
    assert Counter(shoe(2))[Card.parse("7H")] == 2
    assert Counter(shoe(3))[PRINTED_JOKER] == 3
    with pytest.raises(CardError):
        shoe(0)


def test_identical_cards_from_different_packs_are_equal__R_CARD_3():
    first, second = (card for card in shoe(2) if card == Card.parse("QS"))
    assert first == second
    assert hash(first) == hash(second)


def test_more_copies_than_the_packs_hold_is_refused__R_CARD_3():
    check_copies(parse_cards("7H 7H 8S"), packs=2)
    with pytest.raises(CardError, match="3 copies of 7H but 2 pack"):
        check_copies(parse_cards("7H 7H 7H"), packs=2)


def test_pack_count_rules_per_player_count__R_CARD_3():
    POOL101.check_packs(1, players=2)
    POOL101.check_packs(2, players=6)
    with pytest.raises(ValueError, match="3 players need at least 2"):
        POOL101.check_packs(1, players=3)
    POINTS21.check_packs(3, players=6)
    with pytest.raises(ValueError, match="3 packs"):
        POINTS21.check_packs(2, players=2)
    assert (POOL101.default_packs, POINTS21.default_packs) == (2, 3)
    # R-PTS-1: one pack for two players, two for three to six; other variants keep theirs.
    assert [POINTS13.packs_for(n) for n in (2, 3, 6)] == [1, 2, 2]
    assert [POOL101.packs_for(n) for n in (2, 3)] == [2, 2]
    assert [DEALS.packs_for(n) for n in (2, 6)] == [2, 2]


def test_variant_table_numbers__R_POOL_3():
    assert [
        (v.elimination, v.first_drop, v.middle_drop, v.full_count, v.rejoin_limit)
        for v in (POOL101, POOL201, POOL61)
    ] == [
        (101, 20, 40, 80, 79),
        (201, 25, 50, 80, 174),
        (61, 15, 30, 60, 44),
    ]
    assert (POOL61.wrong_show, POOL61.show_timeout, POOL61.deal_show_max) == (60, 60, 30)
    assert variant_named("pool201") is POOL201
    with pytest.raises(ValueError, match="unknown variant 'pool99'"):
        variant_named("pool99")


@given(st.lists(st.sampled_from(ALL_CODES), max_size=30))
def test_format_and_parse_round_trip__R_CARD_1(codes):
    cards = parse_cards(codes)
    assert parse_cards(format_cards(cards)) == cards
