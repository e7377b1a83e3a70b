"""Groups and their readings (R-MELD-1..8), the jokers of a deal (R-DEAL-2, R-DEAL-3, R-21-2), R-CARD-2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine.cards import Card, CardError, Jokers, parse_cards, points
from games.engine.melds import GroupKind, classify, evaluate, is_marriage_run, why
from games.engine.variants import POINTS21, POOL61, POOL101, POOL201, Variant, variant_named

DATA = Path(__file__).parent / "data"
GROUPINGS = [json.loads(line) for line in (DATA / "groupings.jsonl").read_text().splitlines()]


def jokers_for(variant: Variant, cut: str) -> Jokers:
    return Jokers.from_cut(Card.parse(cut), value_cards=variant.is_points21)


def kind(variant: Variant, cut: str, group: str) -> GroupKind | None:
    return classify(variant, jokers_for(variant, cut), parse_cards(group))


def reason(variant: Variant, cut: str, group: str) -> str:
    return why(variant, jokers_for(variant, cut), parse_cards(group))


# ---- known answers ----------------------------------------------------------------------------


@pytest.mark.parametrize("line", GROUPINGS, ids=[f"{n}:{line['rules']}" for n, line in enumerate(GROUPINGS)])
def test_groupings_file_kinds(line):
    """Every group of groupings.jsonl reads as its hand-worked kind (rules cited per line)."""
    variant = variant_named(line["variant"])
    jokers = jokers_for(variant, line["cut"])
    found = [classify(variant, jokers, parse_cards(group)) for group in line["groups"]]
    assert [k.value if k else None for k in found] == line["kinds"]
    for group, k in zip(line["groups"], found, strict=True):
        assert (why(variant, jokers, parse_cards(group)) == "") == (k is not None)


def test_groupings_file_covers_every_meld_rule():
    cited = " ".join(line["rules"] for line in GROUPINGS)
    for rule in [f"R-MELD-{n}" for n in range(1, 9)] + [
        "R-DECL-2",
        "R-SHOW-2",
        "R-SHOW-4",
        "R-21-3",
        "R-21-4",
    ]:
        assert rule in cited


# ---- R-MELD-1: sequences, Ace low or high ------------------------------------------------------


def test_ace_low_and_ace_high_sequences__R_MELD_1():
    assert kind(POOL101, "TC", "AH 2H 3H") is GroupKind.PURE_SEQUENCE
    assert kind(POOL101, "TC", "QH KH AH") is GroupKind.PURE_SEQUENCE
    assert kind(POOL101, "TC", "AH KH QH") is GroupKind.PURE_SEQUENCE  # order in the group is free
    assert kind(POOL101, "TC", "JD QD KD AD 2D") is None


def test_k_a_2_is_not_a_sequence__R_MELD_1():
    assert kind(POOL101, "TC", "KH AH 2H") is None
    assert reason(POOL101, "TC", "KH AH 2H") == "KH AH 2H: not a sequence: Ace is low or high, never both"
    # Not even with a joker to fill a gap.
    assert kind(POOL101, "TC", "QH KH AH 2H PJ") is None


def test_sequence_holds_at_most_13_cards__R_MELD_1():
    assert kind(POOL101, "TC", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD") is GroupKind.PURE_SEQUENCE
    assert kind(POOL101, "TC", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD") is GroupKind.PURE_SEQUENCE
    assert kind(POOL101, "3C", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD PJ") is None
    assert reason(POOL101, "3C", "AD 2D 4D 5D 6D 7D 8D 9D TD JD QD KD PJ PJ") == (
        "AD 2D 4D 5D 6D 7D 8D 9D TD JD QD KD PJ PJ: a sequence holds at most 13 cards"
    )


def test_sequence_needs_one_suit_running_ranks_and_three_cards__R_MELD_1():
    assert kind(POOL101, "TC", "5H 6H 7S") is None
    assert kind(POOL101, "TC", "5H 6H 8H") is None
    assert kind(POOL101, "TC", "5H 6H") is None
    assert kind(POOL101, "TC", "5H 5H 6H 7H") is None
    assert reason(POOL101, "TC", "5H 6H 8H") == "5H 6H 8H: not a sequence: the ranks are not consecutive"
    assert reason(POOL101, "TC", "5H 6H") == "5H 6H: a group needs at least 3 cards"
    assert reason(POOL101, "TC", "5H 6H 7S") == (
        "5H 6H 7S: neither a set (one rank, different suits) nor a sequence (one suit, running ranks)"
    )
    assert reason(POOL101, "TC", "5H 5H 6H 7H") == "5H 5H 6H 7H: 5H twice in a sequence"


# ---- R-MELD-2 / R-MELD-3 / R-MELD-4: jokers in sequences, purity --------------------------------


def test_jokers_stand_in_for_missing_cards__R_MELD_2():
    assert kind(POOL101, "9D", "5H 9C 7H") is GroupKind.SEQUENCE
    assert kind(POOL101, "3D", "5H 6H PJ") is GroupKind.SEQUENCE
    assert kind(POOL101, "3D", "5H PJ PJ 8H") is GroupKind.SEQUENCE
    assert kind(POOL101, "3D", "5H PJ 9H") is None
    assert (
        reason(POOL101, "3D", "5H PJ 9H")
        == "5H PJ 9H: not a sequence: the gaps need 3 joker(s) but the group has 1"
    )
    assert kind(POOL101, "3D", "QH KH PJ") is GroupKind.SEQUENCE  # Q K A or J Q K
    assert kind(POOL101, "3D", "KH 3S 3C") is GroupKind.SEQUENCE


def test_pure_sequence_has_no_stand_in__R_MELD_3():
    assert kind(POOL101, "3D", "5H 6H 7H") is GroupKind.PURE_SEQUENCE
    assert kind(POOL101, "3D", "5H 6H 7H 8H") is GroupKind.PURE_SEQUENCE
    assert kind(POOL101, "3D", "5H 6H 7H PJ") is GroupKind.SEQUENCE
    assert GroupKind.PURE_SEQUENCE.is_pure
    assert not GroupKind.SEQUENCE.is_pure
    assert GroupKind.SEQUENCE.is_sequence
    assert not GroupKind.SET.is_sequence


def test_pure_sequence_with_natural_wild__R_MELD_4():
    assert kind(POOL101, "6D", "5H 6H 7H") is GroupKind.PURE_SEQUENCE
    assert kind(POOL101, "6D", "5H 6S 7H") is GroupKind.SEQUENCE  # 6S stands in for 6H
    assert kind(POOL101, "6D", "4H 5H 6H 6H") is GroupKind.SEQUENCE  # one 6H as itself, one for 7H


def test_printed_joker_is_never_natural__R_MELD_4():
    assert kind(POOL101, "6D", "5H PJ 7H") is GroupKind.SEQUENCE
    assert kind(POINTS21, "PJ", "AS 2S 3S") is GroupKind.PURE_SEQUENCE  # the cut was a printed joker


# ---- R-MELD-5: sets ----------------------------------------------------------------------------


def test_set_of_one_rank_no_two_suits__R_MELD_5():
    assert kind(POOL101, "3D", "7S 7H 7D") is GroupKind.SET
    assert kind(POOL101, "3D", "7S 7H 7D 7C") is GroupKind.SET
    assert kind(POOL101, "3D", "7S 7H 7S") is None
    assert reason(POOL101, "3D", "7S 7H 7S") == "7S 7H 7S: two cards of one suit in a set"
    assert reason(POOL101, "3D", "8D 8H 8H") == "8D 8H 8H: two cards of one suit in a set"
    assert kind(POINTS21, "3D", "9S 9S 9H") is None


def test_jokers_fill_missing_suits_up_to_four__R_MELD_5():
    assert kind(POOL101, "3D", "7S 7H PJ") is GroupKind.SET
    assert kind(POOL101, "3D", "7S 7H PJ 3C") is GroupKind.SET
    assert kind(POOL101, "3D", "7S PJ 3C") is GroupKind.SEQUENCE  # best reading: 7S 8S 9S
    assert kind(POOL101, "3D", "7S 7H 7D 7C PJ") is None
    assert reason(POOL101, "3D", "7S 7H 7D 7C PJ") == "7S 7H 7D 7C PJ: a set holds at most 4 cards"
    assert kind(POOL101, "3D", "7S 7H 7D PJ 3C") is None


# ---- R-MELD-6: groups of jokers ----------------------------------------------------------------


def test_group_of_jokers_is_valid__R_MELD_6():
    # Three printed jokers (three packs) read as nothing but jokers: a set.
    assert kind(POOL201, "3D", "PJ PJ PJ") is GroupKind.JOKERS
    assert not GroupKind.JOKERS.is_sequence
    # Any size.
    assert kind(POOL101, "3D", "3S 3S 3H 3H 3D 3C 3C PJ PJ") is GroupKind.SEQUENCE
    many = "3S 3S 3S 3H 3H 3H 3D 3D 3C 3C 3C PJ PJ PJ"
    assert kind(POOL201, "3D", many) is GroupKind.JOKERS  # 14 cards: too long for a sequence


def test_wild_card_in_a_group_of_jokers_reads_as_a_sequence__R_MELD_6():
    assert kind(POOL101, "9D", "9H 9S PJ") is GroupKind.SEQUENCE
    assert kind(POOL101, "9D", "9H 9S 9C") is GroupKind.SEQUENCE
    assert kind(POOL101, "PJ", "AS AH AD") is GroupKind.SEQUENCE  # R-DEAL-3: Aces are wild


# ---- R-MELD-7: tunnela and dublee --------------------------------------------------------------


def test_tunnela_is_three_identical_cards__R_MELD_7():
    assert kind(POINTS21, "8C", "5H 5H 5H") is GroupKind.TUNNELA
    assert kind(POINTS21, "8C", "PJ PJ PJ") is GroupKind.TUNNELA
    assert kind(POINTS21, "8C", "8S 8S 8S") is GroupKind.TUNNELA  # wild cards as themselves
    assert GroupKind.TUNNELA.is_pure
    assert kind(POOL201, "8C", "5H 5H 5H") is None  # 13-card tables have no tunnela


def test_dublee_is_two_identical_cards__R_MELD_7():
    assert kind(POINTS21, "8C", "7H 7H") is GroupKind.DUBLEE
    assert kind(POINTS21, "8C", "PJ PJ") is GroupKind.DUBLEE
    assert kind(POOL101, "8C", "7H 7H") is None
    assert not GroupKind.DUBLEE.is_pure
    assert not GroupKind.DUBLEE.is_sequence


def test_jokers_never_complete_tunnela_or_dublee__R_MELD_7():
    assert kind(POINTS21, "QD", "6D 6D QD") is None
    assert reason(POINTS21, "QD", "6D 6D QD") == (
        "6D 6D QD: jokers never complete a tunnela, and a set has no two cards of one suit"
    )
    assert kind(POINTS21, "KD", "8D KD") is None
    assert reason(POINTS21, "KD", "8D KD") == "8D KD: jokers never complete a dublee"
    assert (
        reason(POINTS21, "KD", "8D 9D")
        == "8D 9D: two cards make a group only as a dublee of two identical cards"
    )


# ---- R-MELD-8: the marriage run ----------------------------------------------------------------


def test_lower_cut_upper_is_never_a_sequence__R_MELD_8():
    jokers = jokers_for(POINTS21, "4S")
    assert is_marriage_run(jokers, parse_cards("5S 3S 4S"))
    assert kind(POINTS21, "4S", "3S 4S 5S") is GroupKind.JOKERS  # still a valid group of jokers
    assert kind(POINTS21, "4S", "3S 4S 5S 6S") is GroupKind.PURE_SEQUENCE
    assert kind(POINTS21, "4S", "2S 3S 4S 5S") is GroupKind.PURE_SEQUENCE
    assert kind(POINTS21, "4S", "3S 4H 5S") is GroupKind.SEQUENCE  # 4H is wild, not the cut card
    assert kind(POOL101, "4S", "3S 4S 5S") is GroupKind.PURE_SEQUENCE  # 13-card tables: no rule
    # KS cut: lower QS, upper AS: Q K A of spades is the marriage run.
    assert kind(POINTS21, "KS", "QS KS AS") is GroupKind.JOKERS


# ---- R-CARD-2, R-DEAL-2, R-DEAL-3, R-21-2: points and jokers -------------------------------------


def test_card_points__R_CARD_2():
    jokers = jokers_for(POOL101, "5D")
    assert [points(card, jokers) for card in parse_cards("AS 2S 9H TC JD QS KH")] == [
        10,
        2,
        9,
        10,
        10,
        10,
        10,
    ]
    assert [points(card, jokers) for card in parse_cards("5S 5C PJ")] == [0, 0, 0]
    assert points(Card.parse("4S"), jokers_for(POINTS21, "5S")) == 0  # lower joker
    assert points(Card.parse("4H"), jokers_for(POINTS21, "5S")) == 4


def test_every_card_of_the_cut_rank_is_wild__R_DEAL_2():
    jokers = jokers_for(POOL101, "7H")
    assert all(jokers.is_wild(card) for card in parse_cards("7S 7H 7D 7C"))
    assert jokers.is_joker(Card.parse("PJ"))
    assert not jokers.is_wild(Card.parse("PJ"))
    assert not jokers.is_joker(Card.parse("8H"))
    assert not jokers.is_joker(Card.parse("6H"))


def test_printed_joker_cut_makes_aces_wild_yet_plain__R_DEAL_3():
    jokers = jokers_for(POOL101, "PJ")
    assert all(jokers.is_wild(card) for card in parse_cards("AS AH AD AC"))
    assert kind(POOL101, "PJ", "AS 2S 3S") is GroupKind.PURE_SEQUENCE
    assert kind(POOL101, "PJ", "QH KH AH") is GroupKind.PURE_SEQUENCE
    assert kind(POOL101, "PJ", "AS 5H 6H") is GroupKind.SEQUENCE


def test_21_card_jokers_upper_lower_and_value__R_21_2():
    jokers = jokers_for(POINTS21, "8H")
    assert (jokers.value_joker, jokers.upper, jokers.lower) == tuple(parse_cards("8H 9H 7H"))
    assert jokers.is_joker(Card.parse("9H"))
    assert jokers.is_joker(Card.parse("7H"))
    assert not jokers.is_joker(Card.parse("9S"))
    ace = jokers_for(POINTS21, "AD")
    assert (ace.upper, ace.lower) == tuple(parse_cards("2D KD"))
    printed = jokers_for(POINTS21, "PJ")
    assert (printed.value_joker, printed.upper, printed.lower) == tuple(parse_cards("AS 2S KS"))
    assert printed.is_joker(Card.parse("AH"))
    assert kind(POINTS21, "8H", "7H 8H 9H") is GroupKind.JOKERS  # marriage run (R-MELD-8)
    assert kind(POINTS21, "8H", "6H 7H 8H") is GroupKind.PURE_SEQUENCE


# ---- input errors -------------------------------------------------------------------------------


def test_grouping_a_card_not_in_hand_is_a_card_error__R_DECL_2():
    hand = parse_cards("AH 2H 3H 5S 6S 7S 9C 9D 9H KC KD KS 4D")
    jokers = jokers_for(POOL101, "TC")
    with pytest.raises(CardError, match="QS is grouped but is not in the hand"):
        evaluate(POOL101, jokers, hand, [parse_cards("QS KS AS")])
    with pytest.raises(CardError, match="AH is grouped 2 times but the hand holds it 1 time"):
        evaluate(POOL101, jokers, hand, [parse_cards("AH 2H 3H"), parse_cards("AH KD KS")])


def test_more_copies_than_the_packs_hold_is_a_card_error__R_CARD_3():
    hand = parse_cards("AH AH AH 5S 6S 7S 9C 9D 9H KC KD KS 4D")
    with pytest.raises(CardError, match="3 copies of AH"):
        evaluate(POOL101, jokers_for(POOL101, "TC"), hand, [])
    # A 13-card table with three packs may hold three.
    assert evaluate(POOL61, jokers_for(POOL61, "TC"), hand, [], packs=3).score == 60
