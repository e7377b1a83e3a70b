"""The exact solver (R-SHOW-5) against known answers and the exhaustive reference.

The known answers in hands13.jsonl / hands21.jsonl come from ``tests/engine/reference.py``
(see make_data.py); they check R-SHOW-2, R-DECL-2, R-21-3 and R-21-4 on whole hands.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.engine import bench
from games.engine.cards import PRINTED_JOKER, Card, CardError, Jokers, format_cards, parse_cards, shoe
from games.engine.melds import GroupKind, classify, evaluate
from games.engine.solver import Solution, solve
from games.engine.variants import DEALS, POINTS13, POINTS21, POOL61, POOL101, POOL201, Variant, variant_named
from tests.engine.reference import candidate_groups, reference_solve

DATA = Path(__file__).parent / "data"
HANDS13 = [json.loads(line) for line in (DATA / "hands13.jsonl").read_text().splitlines()]
HANDS21 = [json.loads(line) for line in (DATA / "hands21.jsonl").read_text().splitlines()]
CHUNK = 50

SHOE2 = shoe(2)
SHOE3 = shoe(3)


def jokers_for(variant: Variant, cut: str | Card) -> Jokers:
    card = Card.parse(cut) if isinstance(cut, str) else cut
    return Jokers.from_cut(card, value_cards=variant.is_points21)


def check(variant: Variant, jokers: Jokers, hand: list[Card], packs: int | None = None) -> Solution:
    """Solve, and check the arrangement scores exactly the solver's score (R-SHOW-5)."""
    solution = solve(variant, jokers, hand, packs=packs)
    verdict = evaluate(variant, jokers, hand, solution.groups, packs=packs)
    assert verdict.score == solution.score, (format_cards(hand), solution, verdict)
    assert verdict.valid == solution.can_declare, (format_cards(hand), solution, verdict)
    return solution


def check_lines(lines: list[dict]) -> None:
    wrong = []
    for line in lines:
        variant = variant_named(line["variant"])
        jokers = jokers_for(variant, line["cut"])
        solution = check(variant, jokers, parse_cards(line["hand"]), packs=line.get("packs"))
        if (solution.score, solution.can_declare) != (line["score"], line["can_declare"]):
            wrong.append((line, solution))
    assert wrong == []


# ---- known answers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("start", range(0, len(HANDS13), CHUNK))
def test_hands13_file__R_SHOW_2__R_DECL_2(start):
    check_lines(HANDS13[start : start + CHUNK])


@pytest.mark.parametrize("start", range(0, len(HANDS21), CHUNK))
def test_hands21_file__R_21_3__R_21_4(start):
    check_lines(HANDS21[start : start + CHUNK])


def test_known_answer_files_are_big_and_varied():
    assert len(HANDS13) >= 2000
    assert len(HANDS21) >= 300
    assert sum(line["can_declare"] for line in HANDS13) >= 100
    assert sum(line["can_declare"] for line in HANDS21) >= 30
    assert {line["variant"] for line in HANDS13} == {"pool101", "pool201", "pool61"}
    assert sum(line["cut"] == "PJ" for line in HANDS13) >= 100
    assert len({line["score"] for line in HANDS13}) >= 60


# ---- against the reference, live ---------------------------------------------------------------------


@st.composite
def deals13(draw: st.DrawFn) -> tuple[Variant, Jokers, list[Card]]:
    picks = draw(st.lists(st.integers(0, len(SHOE2) - 1), min_size=14, max_size=14, unique=True))
    variant = draw(st.sampled_from([POOL101, POOL201, POOL61, POINTS13, DEALS]))
    hand = [SHOE2[i] for i in picks[:13]]
    return variant, jokers_for(variant, SHOE2[picks[13]]), hand


@st.composite
def joker_rich_deals13(draw: st.DrawFn) -> tuple[Variant, Jokers, list[Card]]:
    """Hands from a few neighbouring ranks, with the cut taken from a rank in the hand."""
    low = draw(st.integers(1, 9))
    pool = [card for card in SHOE2 if card.is_printed_joker or low <= card.rank <= low + 4]
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=13, max_size=13, unique=True))
    hand = [pool[i] for i in picks]
    cut = draw(st.sampled_from([*hand, PRINTED_JOKER]))
    return POOL101, jokers_for(POOL101, cut), hand


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals13())
def test_solver_matches_reference_on_random_hands__R_SHOW_5(deal):
    variant, jokers, hand = deal
    solution = check(variant, jokers, hand)
    assert (solution.score, solution.can_declare) == reference_solve(variant, jokers, hand)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(joker_rich_deals13())
def test_solver_matches_reference_on_joker_rich_hands__R_SHOW_5(deal):
    variant, jokers, hand = deal
    solution = check(variant, jokers, hand)
    assert (solution.score, solution.can_declare) == reference_solve(variant, jokers, hand)


@settings(max_examples=120, deadline=None)
@given(st.lists(st.integers(0, len(SHOE3) - 1), min_size=22, max_size=22, unique=True))
def test_21_card_arrangement_scores_its_score__R_SHOW_5(picks):
    hand = [SHOE3[i] for i in picks[:21]]
    solution = check(POINTS21, jokers_for(POINTS21, SHOE3[picks[21]]), hand)
    assert 0 <= solution.score <= 120


def brute_force(variant: Variant, jokers: Jokers, hand: list[Card]) -> tuple[int, bool]:
    """Every collection of disjoint valid groups, each judged by ``evaluate``: tiny hands only.
    A group may be chosen again while the hand holds its cards twice (two packs: A♠ 2♠ 3♠ and
    A♠ 2♠ 3♠ are two pure sequences)."""
    groups = [group for group, _ in candidate_groups(variant, jokers, hand)]
    best, declares = variant.full_count + 1, False

    def walk(start: int, left: Counter[Card], chosen: list[tuple[Card, ...]]) -> None:
        nonlocal best, declares
        verdict = evaluate(variant, jokers, hand, chosen)
        best, declares = min(best, verdict.score), declares or verdict.valid
        for i in range(start, len(groups)):
            need = Counter(groups[i])
            if all(left[card] >= n for card, n in need.items()):
                walk(i, left - need, [*chosen, groups[i]])

    walk(0, Counter(hand), [])
    return best, declares


@st.composite
def small_hands(draw: st.DrawFn) -> tuple[Variant, Jokers, list[Card]]:
    variant = draw(st.sampled_from([POOL101, POINTS21]))
    cards = SHOE3 if variant.is_points21 else SHOE2
    low = draw(st.integers(1, 10))
    pool = [card for card in cards if card.is_printed_joker or low <= card.rank <= low + 3]
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=6, max_size=8, unique=True))
    hand = [pool[i] for i in picks]
    cut = draw(st.sampled_from([*hand, PRINTED_JOKER, Card(low, 0)]))
    return variant, jokers_for(variant, cut), hand


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands())
# Found by Hypothesis in CI: the same pure sequence twice, from two packs (aces are jokers too).
@example((POOL101, jokers_for(POOL101, "AS"), parse_cards("AS AS 2S 3S 2S 3S")))
def test_reference_and_solver_match_brute_force_on_small_hands__R_SHOW_5(deal):
    """The reference itself is checked against plain enumeration scored by ``evaluate``."""
    variant, jokers, hand = deal
    expected = brute_force(variant, jokers, hand)
    assert reference_solve(variant, jokers, hand) == expected
    solution = solve(variant, jokers, hand)
    assert (solution.score, solution.can_declare) == expected


# ---- rules through the solver --------------------------------------------------------------------------


def test_auto_arrange_gives_groups_achieving_the_lowest_score__R_SHOW_5():
    hand = parse_cards("4H 5H 6H 7H 7S 7D 8D 9D JD QD KD 2C 3C")
    solution = check(POOL101, jokers_for(POOL101, "TC"), hand)
    # The three 7s look like a set, but 7H and 7D do better in runs: only 7S 2C 3C are left.
    assert solution == Solution(
        score=7 + 2 + 3,
        can_declare=False,
        groups=(
            tuple(parse_cards("4H 5H 6H 7H")),
            tuple(parse_cards("7D 8D 9D")),
            tuple(parse_cards("JD QD KD")),
        ),
    )


def test_declarable_hand_is_found_with_a_valid_arrangement__R_SHOW_5__R_DECL_2():
    hand = parse_cards("AH 2H 3H 9S 9C PJ KC KD KS 5C 5D 5H 5S")
    solution = check(POOL101, jokers_for(POOL101, "9D"), hand)
    assert solution.score == 0
    assert solution.can_declare
    assert sorted(card for group in solution.groups for card in group) == sorted(hand)


def test_solver_never_applies_itself_to_the_hand__R_SHOW_5():
    hand = parse_cards("4H 5H 6H 7H 7S 7D 8D 9D JD QD KD 2C 3C")
    before = list(hand)
    solve(POOL101, jokers_for(POOL101, "TC"), hand)
    assert hand == before


def test_printed_joker_cut_lets_aces_be_plain_in_a_pure_sequence__R_DEAL_3():
    hand = parse_cards("AS 2S 3S 7C 8C AD KD KH KS 4D 5D 9D QH")
    solution = check(POOL101, jokers_for(POOL101, "PJ"), hand)
    # AS 2S 3S is the only pure sequence, with AS as a plain Ace; 7C 8C AD; K K K.
    assert solution.score == 4 + 5 + 9 + 10
    assert tuple(parse_cards("AS 2S 3S")) in solution.groups


def test_wild_card_as_itself_keeps_a_run_pure__R_MELD_4():
    hand = parse_cards("5H 6H 7H 9C TC QS QD 2S 2D 3H 8S KD KC")
    solution = check(POOL101, jokers_for(POOL101, "6D"), hand)
    assert solution.score == 86 - 5 - 7  # the only pure sequence; used as a joker, every card would count
    assert solution.groups == (tuple(parse_cards("5H 6H 7H")),)


def test_caps_by_variant__R_SHOW_2__R_POOL_3__R_PTS_2():
    hand = parse_cards("KS KH KD QC QS QH JD JC TH 9D 8C 6S 4H")  # 107 points, no pure sequence
    for variant, cap in ((POOL101, 80), (POOL201, 80), (POOL61, 60), (POINTS13, 80), (DEALS, 80)):
        assert reference_solve(variant, jokers_for(variant, "2C"), hand) == (cap, False)
        assert check(variant, jokers_for(variant, "2C"), hand).score == cap


def test_21_card_special_declarations__R_21_3():
    tunnelas = parse_cards("5H 5H 5H KD KD KD 2C 2C 2C AS 4H 6H 9D TD JD QC QD QH KS KH 3C")
    dublees = parse_cards("5H 5H KD KD 2C 2C 3S 3S 9H 9H JD JD QS QS AC AC 4D 6S 7C TH TC")
    jokers8 = parse_cards("8S 8S 8H 8D 8D 8C PJ 9C AS 2H 4D 5C 6S 7H 9H TD JS QH KC KD QS")
    for hand, kind in (
        (tunnelas, GroupKind.TUNNELA),
        (dublees, GroupKind.DUBLEE),
        (jokers8, GroupKind.SEQUENCE),
    ):
        solution = check(POINTS21, jokers_for(POINTS21, "8C"), hand)
        assert solution.can_declare
        assert solution.score == 0
        assert classify(POINTS21, jokers_for(POINTS21, "8C"), solution.groups[0]) is kind


def test_21_card_six_dublees_or_seven_jokers_lose_two__R_21_4():
    six = parse_cards("5H 5H KD KD 2C 2C 3S 3S 9H 9H JD JD AC 4D 6S 7C TH TC QS AD JS")
    seven = parse_cards("8S 8S 8H 8D 8C PJ 9C AS 2H 4D 5C 6S 7H 9H TD JS QH KC KD QS JC")
    for hand in (six, seven):
        solution = check(POINTS21, jokers_for(POINTS21, "8C"), hand)
        assert (solution.score, solution.can_declare) == (2, False)


def test_21_card_three_pure_sequences_declare__R_21_3():
    hand = parse_cards("AS 2S 3S 4H 5H 6H 9D TD JD QD KD QC QS QH KS KH 8H 2C 3C 4C 5C")
    solution = check(POINTS21, jokers_for(POINTS21, "8C"), hand)
    assert (solution.score, solution.can_declare) == (0, True)


def test_21_card_marriage_is_no_pure_sequence__R_MELD_8():
    # Two real pure runs and the marriage run 3S 4S 5S: only two pure sequences.
    hand = parse_cards("3S 4S 5S AH 2H 3H 6C 7C 8C KD KH KC QS QD QC 9D 9D 2C 2D TH JS")
    solution = check(POINTS21, jokers_for(POINTS21, "4S"), hand)
    assert (solution.score, solution.can_declare) == (138 - 15 - 21, False)
    with_six = parse_cards("3S 4S 5S 6S 7S 8S AH 2H 3H 9D TD JD KH KD KC QH QD QC 2C 2D 9S")
    assert check(POINTS21, jokers_for(POINTS21, "4S"), with_six).can_declare


def test_21_card_leftover_joker_with_no_group_to_take_it__R_21_3():
    hand = parse_cards("AD 2D 3D 4D 2S 3S 4S 5S AD 2D 3D 4D JS JH JD JC 8S 8H 8D 8C PJ")
    solution = check(POINTS21, jokers_for(POINTS21, "KC"), hand)
    assert (solution.score, solution.can_declare) == (0, False)
    assert PRINTED_JOKER not in [card for group in solution.groups for card in group]


def test_solver_refuses_impossible_hands__R_CARD_3():
    with pytest.raises(CardError, match="3 copies of AH"):
        solve(POOL101, jokers_for(POOL101, "TC"), parse_cards("AH AH AH 5S 6S 7S 9C 9D 9H KC KD KS 4D"))
    # Three packs may hold three AH: three runs A 2 3, a set of Kings, 4D left.
    three_packs = parse_cards("AH AH AH 2H 2H 2H 3H 3H 3H KC KD KS 4D")
    solution = check(POOL201, jokers_for(POOL201, "TC"), three_packs, packs=3)
    assert (solution.score, solution.can_declare) == (4, False)


def test_bench_prints_its_figures(capsys):
    bench.main(["--hands13", "5", "--hands21", "3"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("13 cards: 5 hands,")
    assert "median" in out[0]
    assert "p99" in out[0]
    assert out[1].startswith("21 cards: 3 hands,")
