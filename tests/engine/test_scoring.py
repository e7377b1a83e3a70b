"""Declarations and losing scores of a grouping (R-DECL-2, R-SHOW-2, R-SHOW-4, R-POOL-3, R-21-3, R-21-4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine.cards import Card, Jokers, parse_cards
from games.engine.melds import Evaluation, evaluate
from games.engine.variants import POINTS21, POOL61, POOL101, POOL201, Variant, variant_named

DATA = Path(__file__).parent / "data"
GROUPINGS = [json.loads(line) for line in (DATA / "groupings.jsonl").read_text().splitlines()]


def judge(variant: Variant, cut: str, groups: list[str], loose: str = "") -> Evaluation:
    """Evaluate ``groups`` of a hand made of the groups' cards and the ``loose`` cards."""
    parsed = [parse_cards(group) for group in groups]
    hand = [card for group in parsed for card in group] + parse_cards(loose)
    assert len(hand) == variant.hand_size
    jokers = Jokers.from_cut(Card.parse(cut), value_cards=variant.is_points21)
    return evaluate(variant, jokers, hand, parsed)


@pytest.mark.parametrize("line", GROUPINGS, ids=[f"{n}:{line['rules']}" for n, line in enumerate(GROUPINGS)])
def test_groupings_file(line):
    """Every hand-worked grouping of groupings.jsonl: validity, score and reason (rules cited per line)."""
    variant = variant_named(line["variant"])
    jokers = Jokers.from_cut(Card.parse(line["cut"]), value_cards=variant.is_points21)
    verdict = evaluate(
        variant,
        jokers,
        parse_cards(line["hand"]),
        [parse_cards(g) for g in line["groups"]],
        packs=line.get("packs"),
    )
    assert verdict == Evaluation(valid=line["valid"], score=line["score"], reason=line["reason"])


# ---- R-DECL-2 / R-SHOW-4: 13-card declarations ---------------------------------------------------


def test_valid_declaration_scores_zero__R_DECL_2__R_SHOW_4():
    verdict = judge(POOL101, "TC", ["AH 2H 3H", "5S 6S 7S", "9C 9D 9H 9S", "KC KD KS"])
    assert verdict == Evaluation(valid=True, score=0, reason="")


def test_declaration_needs_a_pure_sequence__R_DECL_2():
    verdict = judge(POOL101, "TC", ["AH 2H TD", "5S 6S TH", "9C 9D 9H 9S", "KC KD KS"])
    assert not verdict.valid
    assert verdict.reason == "no pure sequence"
    assert verdict.score == 80  # no pure sequence: every card counts, 119 capped


def test_declaration_needs_a_second_sequence__R_DECL_2():
    verdict = judge(POOL101, "TC", ["AH 2H 3H", "9C 9D 9H", "KC KD KS", "5C 5D 5H 5S"])
    assert not verdict.valid
    assert verdict.reason == "only one sequence; a declaration needs two"
    assert verdict.score == 77


def test_declaration_needs_every_card_and_joker_grouped__R_DECL_2():
    verdict = judge(POOL101, "TC", ["AH 2H 3H", "5S 6S 7S", "9C 9D 9H", "KC KD KS"], loose="PJ")
    assert not verdict.valid
    assert verdict.reason == "ungrouped cards: PJ; every card must be in a group"
    assert verdict.score == 0  # the losing score of that grouping: only a joker counts
    joker_inside = judge(POOL101, "TC", ["AH 2H 3H", "5S 6S 7S", "9C 9D 9H", "KC KD KS PJ"])
    assert joker_inside.valid


def test_second_sequence_of_jokers_only__R_DECL_2__R_MELD_6():
    assert judge(POOL101, "9D", ["AH 2H 3H", "9H 9S PJ", "KC KD KS", "5C 5D 5H 5S"]).valid


def test_empty_groups_are_ignored__R_DECL_2():
    verdict = judge(POOL101, "TC", ["AH 2H 3H", "", "5S 6S 7S", "9C 9D 9H 9S", "KC KD KS"])
    assert verdict.valid


# ---- R-SHOW-2 / R-POOL-3: 13-card losing scores ---------------------------------------------------


def test_no_pure_sequence_every_card_counts__R_SHOW_2():
    verdict = judge(POOL101, "3D", ["5S 6S PJ", "9C 9D 9H"], loose="2C 2D 4H 7C 8S 8D 4C")
    assert verdict.score == 5 + 6 + 27 + 2 + 2 + 4 + 7 + 8 + 8 + 4


def test_pure_without_second_sequence_excludes_only_the_pure__R_SHOW_2():
    verdict = judge(POOL101, "3D", ["5S 6S 7S", "9C 9D 9H"], loose="2C 2D 4H 7C 8S 8D PJ")
    assert verdict.score == 27 + 2 + 2 + 4 + 7 + 8 + 8


def test_two_sequences_exclude_every_valid_group__R_SHOW_2():
    verdict = judge(POOL101, "3D", ["5S 6S 7S", "8C 8D PJ", "QC KC 3H"], loose="2C 2D 4H 7C")
    assert verdict.score == 2 + 2 + 4 + 7
    invalid_group = judge(POOL101, "3D", ["5S 6S 7S", "8C 8D 9C", "QC KC 3H"], loose="2C 2D 4H 7C")
    assert invalid_group.score == 2 + 2 + 4 + 7 + 8 + 8 + 9
    assert invalid_group.reason.startswith("8C 8D 9C: neither a set")


def test_score_is_capped_at_the_full_count__R_SHOW_2__R_POOL_3():
    high = ["5S 6S PJ", "9C 9D 9H"]
    loose = "KC KD KH QS QD JH JC"
    assert judge(POOL101, "3D", high, loose).score == 80
    assert judge(POOL201, "3D", high, loose).score == 80
    assert judge(POOL61, "3D", high, loose).score == 60


# ---- R-21-3: 21-card declarations -------------------------------------------------------------------

RUNS_21 = ["AS 2S 3S", "4H 5H 6H", "9D TD JD QD KD", "QC QS QH", "KS KH 8H", "2C 3C 4C 5C"]


def test_three_pure_and_the_rest_grouped__R_21_3():
    assert judge(POINTS21, "8C", RUNS_21) == Evaluation(valid=True, score=0, reason="")


def test_three_pure_with_a_card_left_out_is_not_a_declaration__R_21_3():
    verdict = judge(POINTS21, "8C", [*RUNS_21[:4], "KS KS", RUNS_21[5]], loose="8H")
    assert not verdict.valid
    assert verdict.score == 20  # a dublee is not a group for the count (R-21-4)


def test_two_pure_are_not_enough__R_21_3():
    verdict = judge(
        POINTS21, "8C", ["AS 2S 3S", "4H 5H 6H", "9D TD PJ QD KD", "QC QS QH", "KS KH 8H", "2C 3C 4C 7C"]
    )
    assert not verdict.valid
    assert "only 2 pure sequences (tunnelas count); a declaration needs three" in verdict.reason


def test_three_tunnelas_need_nothing_else__R_21_3():
    verdict = judge(
        POINTS21, "8C", ["5H 5H 5H", "KD KD KD", "2C 2C 2C"], loose="AS 4H 6H 9D TD JD QC QD QH KS KH 3C"
    )
    assert verdict == Evaluation(valid=True, score=0, reason="")


def test_eight_dublees_need_nothing_else__R_21_3():
    dublees = ["5H 5H", "KD KD", "2C 2C", "3S 3S", "9H 9H", "JD JD", "QS QS", "AC AC"]
    assert judge(POINTS21, "8C", dublees, loose="4D 6S 7C TH TC").valid
    assert not judge(POINTS21, "8C", dublees[:7], loose="AC AC 4D 6S 7C TH TC").valid


def test_eight_jokers_in_one_group_need_nothing_else__R_21_3():
    loose = "AS 2H 4D 5C 6S 7H 9H TD JS QH KC KD QS"
    assert judge(POINTS21, "8C", ["8S 8S 8H 8D 8D 8C PJ 9C"], loose).valid
    split = judge(POINTS21, "8C", ["8S 8S 8H 8D", "8D 8C PJ 9C"], loose)
    assert not split.valid


# ---- R-21-4: 21-card losing scores -----------------------------------------------------------------


def test_21_no_pure_sequence_every_card_counts_capped__R_21_4():
    verdict = judge(
        POINTS21, "8C", ["AS 2S PJ", "QC QD QH"], loose="4H 5H 6S 9D TD JC KS KH 2C 3C 4D 5C 6D 7S 7D"
    )
    assert verdict.score == 120  # 140 capped


def test_21_one_or_two_pure_exclude_only_themselves__R_21_4():
    verdict = judge(
        POINTS21, "8C", ["AS 2S 3S", "4H 5H 6H", "QC QD QH"], loose="9D TS 2C 3C 4D 5C 6D 7S 7D 3H 3D KS"
    )
    assert verdict.score == 129 - 30
    one = judge(
        POINTS21, "8C", ["AS 2S 3S", "4H 5H 6H 7H", "QC QD QH"], loose="9D TS 2C 3C 4D 5C 6D 7S 7D 3H 3D"
    )
    assert one.score == 15 + 22 + 30 + 59 - 15 - 22


def test_21_three_pure_exclude_every_valid_group__R_21_4():
    groups = ["AS 2S 3S", "4H 5H 6H", "QC QD QH", "9D TD JD", "2C 3C PJ"]
    assert judge(POINTS21, "8C", groups, loose="KS KH 4D 5C 6D 7S").score == 4 + 5 + 6 + 7 + 10 + 10
    tunnela = ["AS 2S 3S", "4H 5H 6H", "QC QD QH", "9D 9D 9D", "2C 3C PJ"]
    assert judge(POINTS21, "8C", tunnela, loose="KS KH 4D 5C 6D 7S").score == 42


def test_six_dublees_or_seven_grouped_jokers_lose_two__R_21_4():
    six = ["5H 5H", "KD KD", "2C 2C", "3S 3S", "9H 9H", "JD JD"]
    assert judge(POINTS21, "8C", six, loose="AC 4D 6S 7C TH TC QS QS AD").score == 2
    five = judge(POINTS21, "8C", six[:5], loose="JD JD AC 4D 6S 7C TH TC QS QS AD")
    assert five.score == 120
    seven = judge(POINTS21, "8C", ["8S 8S 8H 8D 8D 8C 9C"], loose="AS 2H 4D 5C 6S 7H 9H TD JS QH KC KD QS PJ")
    assert seven.score == 2
    assert not seven.valid
    apart = judge(
        POINTS21, "8C", ["8S 8S 8H 8D", "8D 8C 9C"], loose="AS 2H 4D 5C 6S 7H 9H TD JS QH KC KD QS PJ"
    )
    assert apart.score == 103  # no pure sequence: every card counts


def test_six_dublees_never_raise_a_lower_score__R_21_4():
    runs = ["AS 2S 3S", "4H 5H 6H", "9D TD JD"]
    zero_dublees = ["PJ PJ", "8S 8S", "8H 8H", "8D 8D", "9C 9C", "7C 7C"]  # 8C cut: all jokers
    verdict = judge(POINTS21, "8C", runs + zero_dublees)
    assert verdict.score == 0
    assert not verdict.valid
    counting = judge(POINTS21, "8C", [*runs, "PJ PJ", "8S 8S", "8H 8H", "8D 8D", "9C 9C"], loose="KS KS")
    assert counting.score == 20
