"""Regenerate the known-answer files in ``tests/engine/data/`` (run from the repository root).

    .venv/bin/python -m tests.engine.make_data            # all three files
    .venv/bin/python -m tests.engine.make_data groupings  # only groupings.jsonl

``groupings.jsonl`` holds hand-worked cases: every example of RULES.md sections 5-7 and 10
and every scoring branch and cap. Their expected kinds, validity, scores and reasons are
written below by hand; this script refuses to write the file if ``evaluate`` disagrees.

``hands13.jsonl`` and ``hands21.jsonl`` hold random and hand-picked hands with their lowest
score and whether they can declare, computed by the exhaustive reference
(``tests/engine/reference.py``), never by the solver.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from games.engine.cards import Card, Jokers, parse_cards, shoe
from games.engine.melds import classify, evaluate
from games.engine.variants import variant_named
from tests.engine.reference import reference_solve

DATA = Path(__file__).parent / "data"

# --------------------------------------------------------------------------------------------
# Hand-worked groupings: (rule ids, variant, cut, groups, ungrouped cards, kinds, valid, score,
# reason or None, note). Kinds are GroupKind values, or None for an invalid group.

P, S, SET, JK, TU, DU = "pure sequence", "sequence", "set", "jokers", "tunnela", "dublee"


def case(**spec: Any) -> dict[str, Any]:
    """One hand-worked grouping (keyword arguments keep the fields named)."""
    return spec


GROUPINGS: list[dict[str, Any]] = [
    # ---- R-MELD-1: Ace low or high, never both.
    case(
        rules="R-MELD-1",
        variant="pool101",
        cut="TC",
        groups=["AH 2H 3H", "5S 6S 7S", "9C 9D 9H"],
        loose="4D 8S QD KC",
        kinds=[P, P, SET],
        valid=False,
        score=32,
        reason="ungrouped cards: 4D 8S QD KC; every card must be in a group",
        note="A 2 3 is a pure sequence; two sequences, so every group is excluded: 4+8+10+10",
    ),
    case(
        rules="R-MELD-1",
        variant="pool101",
        cut="TC",
        groups=["QH KH AH", "5S 6S 7S", "9C 9D 9H 9S"],
        loose="2D 3C 4D",
        kinds=[P, P, SET],
        valid=False,
        score=9,
        reason="ungrouped cards: 2D 3C 4D; every card must be in a group",
        note="Q K A is a pure sequence (Ace high)",
    ),
    case(
        rules="R-MELD-1",
        variant="pool101",
        cut="TC",
        groups=["KH AH 2H", "5S 6S 7S", "9C 9D 9H"],
        loose="4D 8S QD KC",
        kinds=[None, P, SET],
        valid=False,
        score=80,
        reason="KH AH 2H: not a sequence: Ace is low or high, never both; "
        "ungrouped cards: 4D 8S QD KC; every card must be in a group; "
        "only one sequence; a declaration needs two",
        note="K A 2 is not a sequence; "
        "one pure sequence only, so only it is excluded: 99 - 18 = 81, capped at 80",
    ),
    case(
        rules="R-MELD-1",
        variant="pool101",
        cut="TC",
        groups=["AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"],
        loose="",
        kinds=[P],
        valid=False,
        score=0,
        reason="only one sequence; a declaration needs two",
        note="A..K, 13 cards, is one pure sequence; everything grouped excluded? no: one sequence, "
        "so only the pure sequence is excluded, which is every card",
    ),
    case(
        rules="R-MELD-1",
        variant="pool101",
        cut="TC",
        groups=["2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"],
        loose="",
        kinds=[P],
        valid=False,
        score=0,
        reason="only one sequence; a declaration needs two",
        note="2..A with the Ace high is a 13-card pure sequence too",
    ),
    # ---- R-MELD-2: jokers stand in; such a sequence is impure.
    case(
        rules="R-MELD-2",
        variant="pool101",
        cut="9D",
        groups=["5H 9C 7H", "2S 3S 4S", "KC KD KH"],
        loose="AC AD 6C 8S",
        kinds=[S, P, SET],
        valid=False,
        score=34,
        reason="ungrouped cards: AD AC 6C 8S; every card must be in a group",
        note="5H 9C 7H is a sequence when 9s are wild; two sequences: 10+10+6+8",
    ),
    case(
        rules="R-MELD-2",
        variant="pool101",
        cut="3D",
        groups=["5H 6H PJ", "9S TS JS", "QC QD QH"],
        loose="2C 2D 7C 8S",
        kinds=[S, P, SET],
        valid=False,
        score=19,
        reason="ungrouped cards: 2D 2C 7C 8S; every card must be in a group",
        note="5H 6H PJ is a sequence; 2+2+7+8",
    ),
    case(
        rules="R-MELD-2",
        variant="pool101",
        cut="3D",
        groups=["5H 6H PJ", "QC QD QH"],
        loose="9S TS 2C 2D 7C 8S JS",
        kinds=[S, SET],
        valid=False,
        score=80,
        reason="ungrouped cards: 2D 2C 7C 8S 9S TS JS; every card must be in a group; no pure sequence",
        note="an impure sequence alone: no pure sequence, every card counts: 89, capped at 80",
    ),
    # ---- R-MELD-3 / R-MELD-4: purity, wild card as itself, printed joker never natural.
    case(
        rules="R-MELD-3 R-MELD-4",
        variant="pool101",
        cut="6D",
        groups=["5H 6H 7H", "9C TC PJ", "KS KD KC"],
        loose="2S 2D 3H 4C",
        kinds=[P, S, SET],
        valid=False,
        score=11,
        reason="ungrouped cards: 2S 2D 3H 4C; every card must be in a group",
        note="5H 6H 7H is pure when 6s are wild (R-MELD-4)",
    ),
    case(
        rules="R-MELD-3 R-MELD-4",
        variant="pool101",
        cut="6D",
        groups=["5H PJ 7H", "9C TC JC"],
        loose="2S 2D 3H 4C KS KD KC",
        kinds=[S, P],
        valid=False,
        score=41,
        reason="ungrouped cards: 2S 2D 3H 4C KS KD KC; every card must be in a group",
        note="the printed joker is never natural: 5H PJ 7H is impure, 9C TC JC pure: 2+2+3+4+30",
    ),
    case(
        rules="R-MELD-3",
        variant="pool101",
        cut="6D",
        groups=["5H 6S 7H", "9C TC JC"],
        loose="2S 2D 3H 4C KS KD KC",
        kinds=[S, P],
        valid=False,
        score=41,
        reason="ungrouped cards: 2S 2D 3H 4C KS KD KC; every card must be in a group",
        note="6S stands in for 6H: impure",
    ),
    # ---- R-MELD-5: sets.
    case(
        rules="R-MELD-5",
        variant="pool101",
        cut="3D",
        groups=["7S 7H 7S", "9C TC JC", "KS KD KC KH"],
        loose="2S 2D 4H",
        kinds=[None, P, SET],
        valid=False,
        score=69,
        reason="7S 7H 7S: two cards of one suit in a set; "
        "ungrouped cards: 2S 2D 4H; every card must be in a group; "
        "only one sequence; a declaration needs two",
        note="7S 7H 7S is invalid even with two packs; one pure sequence, so only it is excluded: 99 - 30",
    ),
    case(
        rules="R-MELD-5",
        variant="pool101",
        cut="3D",
        groups=["8D 8H 8H", "9C TC JC", "KS KD KC KH"],
        loose="2S 2D 4H",
        kinds=[None, P, SET],
        valid=False,
        score=72,
        reason="8D 8H 8H: two cards of one suit in a set; "
        "ungrouped cards: 2S 2D 4H; every card must be in a group; "
        "only one sequence; a declaration needs two",
    ),
    case(
        rules="R-MELD-5",
        variant="pool101",
        cut="3D",
        groups=["7S 7H PJ", "7D 7C 3S", "9C TC JC", "KS KD KC KH"],
        loose="",
        kinds=[SET, SET, P, SET],
        valid=False,
        score=14 + 14 + 40,
        reason="only one sequence; a declaration needs two",
        note="jokers fill missing suits (PJ, and the wild 3S)",
    ),
    case(
        rules="R-MELD-5",
        variant="pool101",
        cut="3D",
        groups=["7S 7H 7D 7C PJ", "9C TC JC", "KS KD KC"],
        loose="2S 2D",
        kinds=[None, P, SET],
        valid=False,
        score=62,
        reason="7S 7H 7D 7C PJ: a set holds at most 4 cards; "
        "ungrouped cards: 2S 2D; every card must be in a group; "
        "only one sequence; a declaration needs two",
        note="a set holds at most 4 cards: 28 + 30 + 4",
    ),
    # ---- R-MELD-6: all-joker groups.
    case(
        rules="R-MELD-6",
        variant="pool101",
        cut="9D",
        groups=["AH 2H 3H", "9H 9S PJ", "KC KD KS", "5C 5D 5H 5S"],
        loose="",
        kinds=[P, S, SET, SET],
        valid=True,
        score=0,
        reason="",
        note="9H 9S PJ with 9s wild reads 9H TH JH: the second sequence",
    ),
    case(
        rules="R-MELD-6",
        variant="pool201",
        cut="3D",
        packs=3,
        groups=["PJ PJ PJ", "AH 2H 3H", "KC KD KS"],
        loose="4S 5C 6D 8C",
        kinds=[JK, P, SET],
        valid=False,
        score=53,
        reason="ungrouped cards: 4S 5C 6D 8C; every card must be in a group; "
        "only one sequence; a declaration needs two",
        note="three printed jokers (3 packs) make a valid group that counts as a set, not a sequence: "
        "only the pure sequence (AH 2H and the wild 3H as itself) is excluded: 65 - 12",
    ),
    case(
        rules="R-MELD-6 R-MELD-8",
        variant="points21",
        cut="4S",
        groups=["3S 4S 5S", "AH 2H 3H", "6C 7C 8C", "9D TD JD"],
        loose="KS KH KD QH QD QC KC 2C 2D",
        kinds=[JK, P, P, P],
        valid=False,
        score=74,
        reason="ungrouped cards: 2D 2C QH QD QC KS KH KD KC; every card must be in a group",
        note="the marriage run is not a sequence but is a valid all-joker group; three pure sequences: "
        "every valid group excluded, 9 loose cards count 2+2+70",
    ),
    # ---- R-MELD-7: tunnela and dublee (21-card only).
    case(
        rules="R-MELD-7",
        variant="points21",
        cut="8C",
        groups=["5H 5H 5H", "PJ PJ PJ", "AS 2S 3S", "7D 7S 7H"],
        loose="KC KD 9C 9D TS JS QS TD JD",
        kinds=[TU, TU, P, SET],
        valid=False,
        score=79,
        reason="ungrouped cards: 9D 9C TS TD JS JD QS KD KC; every card must be in a group",
        note="tunnelas count as pure sequences: three pure, every valid group excluded; "
        "9C is the upper joker (0): 10+10+9+10*5",
    ),
    case(
        rules="R-MELD-7",
        variant="pool201",
        cut="8C",
        packs=3,
        groups=["5H 5H 5H", "AS 2S 3S"],
        loose="KC KD 9C 9D TS JS QS",
        kinds=[None, P],
        valid=False,
        score=80,
        reason="5H 5H 5H: two cards of one suit in a set; ungrouped cards: 9D 9C TS JS QS KD KC; "
        "every card must be in a group; only one sequence; a declaration needs two",
        note="no tunnela on 13-card tables; one pure sequence: 98 - 15 = 83, capped at 80",
    ),
    case(
        rules="R-MELD-7",
        variant="points21",
        cut="QD",
        groups=["6D 6D QD", "8D KD", "7H 7H", "PJ PJ", "AS 2S 3S", "4C 5C 6C"],
        loose="9H 9S TH TS JH JS",
        kinds=[None, None, DU, DU, P, P],
        valid=False,
        score=92,
        reason="6D 6D QD: jokers never complete a tunnela, and a set has no two cards of one suit; "
        "8D KD: jokers never complete a dublee; 7H 7H: a dublee completes a declaration only with 8 dublees; "
        "PJ PJ: a dublee completes a declaration only with 8 dublees; "
        "ungrouped cards: 9S 9H TS TH JS JH; every card must be in a group; "
        "only 2 pure sequences (tunnelas count); a declaration needs three, or three tunnelas, "
        "eight dublees or eight jokers in one group",
        note="QD cut: Qs wild, KD upper, JD lower. Two pure: only they are excluded; dublees count: "
        "12 + 8 + 14 + 58",
    ),
    # ---- R-MELD-8: the marriage run.
    case(
        rules="R-MELD-8",
        variant="points21",
        cut="4S",
        groups=["3S 4S 5S 6S", "AH 2H 3H", "6C 7C 8C"],
        loose="KS KH KD QH QD QC KC 2C 2D 9D TH",
        kinds=[P, P, P],
        valid=False,
        score=93,
        reason="ungrouped cards: 2D 2C 9D TH QH QD QC KS KH KD KC; every card must be in a group",
        note="with a fourth card the run of lower, cut and upper joker is a pure sequence; three pure: "
        "the 11 loose cards count 93",
    ),
    case(
        rules="R-MELD-8",
        variant="points21",
        cut="KS",
        groups=["QS KS AS", "AH 2H 3H", "6C 7C 8C"],
        loose="KH KD QH QD QC KC 2C 2D 9D 4H 5H 6H",
        kinds=[JK, P, P],
        valid=False,
        score=58,
        reason="ungrouped cards: 2D 2C 4H 5H 6H 9D QH QD QC KH KD KC; every card must be in a group; "
        "only 2 pure sequences (tunnelas count); a declaration needs three, or three tunnelas, "
        "eight dublees or eight jokers in one group",
        note="KS cut: Ks wild, QS lower, AS upper; Q K A of spades is the marriage run, never a sequence; "
        "two pure: 94 - 36",
    ),
    # ---- R-DEAL-3 / R-21-2: which cards are jokers.
    case(
        rules="R-DEAL-3",
        variant="pool101",
        cut="PJ",
        groups=["AS 2S 3S", "7C 8C AD", "KD KH KS", "4D 5D 6D"],
        loose="QH",
        kinds=[P, S, SET, P],
        valid=False,
        score=10,
        reason="ungrouped cards: QH; every card must be in a group",
        note="printed-joker cut: every Ace is wild (AD stands in for 9C) yet AS is a plain Ace in A 2 3",
    ),
    case(
        rules="R-21-2",
        variant="points21",
        cut="AD",
        groups=["5C 6C 2D", "9H 9S KD", "3S 4S 5S", "7H 8H 9H", "TC JC QC"],
        loose="4D 6D 8D 2S 3H 4H",
        kinds=[S, SET, P, P, P],
        valid=False,
        score=27,
        reason="ungrouped cards: 2S 3H 4H 4D 6D 8D; every card must be in a group",
        note="AD cut: Aces wild, 2D upper and KD lower joker stand in; three pure: 2+3+4+4+6+8",
    ),
    case(
        rules="R-21-2",
        variant="points21",
        cut="PJ",
        groups=["AS 2S 3S", "5H 6H 7H", "9C TC JC", "QD KS AD"],
        loose="4H 4C 8S 8D 2D 3C JH JS TS",
        kinds=[P, P, P, S],
        valid=False,
        score=59,
        reason="ungrouped cards: 2D 3C 4H 4C 8S 8D TS JS JH; every card must be in a group",
        note="printed-joker cut: AS value joker, 2S upper, KS lower, Aces wild; A 2 3 of spades is pure "
        "(each card as itself, not the marriage run K A 2)",
    ),
    # ---- R-DECL-2: 13-card declarations.
    case(
        rules="R-DECL-2 R-SHOW-4",
        variant="pool101",
        cut="TC",
        groups=["AH 2H 3H", "5S 6S 7S", "9C 9D 9H 9S", "KC KD KS"],
        loose="",
        kinds=[P, P, SET, SET],
        valid=True,
        score=0,
        reason="",
    ),
    case(
        rules="R-DECL-2",
        variant="pool101",
        cut="TC",
        groups=["AH 2H 3H", "5S TC 7S", "9C 9D 9H 9S", "KC KD TS"],
        loose="",
        kinds=[P, S, SET, SET],
        valid=True,
        score=0,
        reason="",
        note="wild Ts stand in for 6S and for the fourth King",
    ),
    case(
        rules="R-DECL-2",
        variant="pool101",
        cut="TC",
        groups=["AH 2H 3H", "9C 9D 9H", "KC KD KS", "5C 5D 5H 5S"],
        loose="",
        kinds=[P, SET, SET, SET],
        valid=False,
        score=77,
        reason="only one sequence; a declaration needs two",
        note="a pure sequence but no second: only it is excluded (R-SHOW-2)",
    ),
    case(
        rules="R-DECL-2",
        variant="pool101",
        cut="TC",
        groups=["AH 2H TD", "5S 6S TH", "9C 9D 9H 9S", "KC KD KS"],
        loose="",
        kinds=[S, S, SET, SET],
        valid=False,
        score=80,
        reason="no pure sequence",
        note="two impure sequences: no pure, every card counts: 119 capped at 80",
    ),
    case(
        rules="R-DECL-2",
        variant="pool101",
        cut="TC",
        groups=["AH 2H 3H", "5S 6S 7S", "9C 9D 9H 9S", "KC KD"],
        loose="PJ",
        kinds=[P, P, SET, None],
        valid=False,
        score=20,
        reason="KC KD: a group needs at least 3 cards; ungrouped cards: PJ; every card must be in a group",
        note="the joker must be inside a group",
    ),
    case(
        rules="R-DECL-2",
        variant="pool101",
        cut="TC",
        groups=["AH 2H 3H", "5S 6S 7S", "9C 9D 9H", "KC KD KS PJ"],
        loose="",
        kinds=[P, P, SET, SET],
        valid=True,
        score=0,
        reason="",
    ),
    # ---- R-SHOW-2: 13-card losing scores and the cap.
    case(
        rules="R-SHOW-2",
        variant="pool101",
        cut="3D",
        groups=["5S 6S PJ", "9C 9D 9H"],
        loose="2C 2D 4H 7C 8S 8D 4C",
        kinds=[S, SET],
        valid=False,
        score=5 + 6 + 27 + 2 + 2 + 4 + 7 + 8 + 8 + 4,
        reason="ungrouped cards: 2D 2C 4H 4C 7C 8S 8D; every card must be in a group; no pure sequence",
        note="no pure sequence: every card counts (73)",
    ),
    case(
        rules="R-SHOW-2",
        variant="pool101",
        cut="3D",
        groups=["5S 6S PJ", "9C 9D 9H"],
        loose="KC KD KH QS QD JH JC",
        kinds=[S, SET],
        valid=False,
        score=80,
        reason="ungrouped cards: JH JC QS QD KH KD KC; every card must be in a group; no pure sequence",
        note="every card counts: 108, capped at 80",
    ),
    case(
        rules="R-SHOW-2 R-POOL-3",
        variant="pool61",
        cut="3D",
        groups=["5S 6S PJ", "9C 9D 9H"],
        loose="KC KD KH QS QD JH JC",
        kinds=[S, SET],
        valid=False,
        score=60,
        reason="ungrouped cards: JH JC QS QD KH KD KC; every card must be in a group; no pure sequence",
        note="pool 61 caps at 60",
    ),
    case(
        rules="R-SHOW-2",
        variant="pool101",
        cut="3D",
        groups=["5S 6S 7S", "9C 9D 9H"],
        loose="2C 2D 4H 7C 8S 8D PJ",
        kinds=[P, SET],
        valid=False,
        score=27 + 2 + 2 + 4 + 7 + 8 + 8,
        reason="ungrouped cards: PJ 2D 2C 4H 7C 8S 8D; every card must be in a group; "
        "only one sequence; a declaration needs two",
        note="one pure sequence, no second: only the pure sequence is excluded (58)",
    ),
    case(
        rules="R-SHOW-2",
        variant="pool101",
        cut="3D",
        groups=["5S 6S 7S", "8C 8D PJ", "QC KC AC"],
        loose="2C 2D 4H 7C",
        kinds=[P, SET, P],
        valid=False,
        score=15,
        reason="ungrouped cards: 2D 2C 4H 7C; every card must be in a group",
        note="two pure sequences: every valid group excluded: 2+2+4+7",
    ),
    case(
        rules="R-SHOW-2",
        variant="pool101",
        cut="3D",
        groups=["5S 6S 7S", "8C 8D PJ", "QC KC 3H"],
        loose="2C 2D 4H 7C",
        kinds=[P, SET, S],
        valid=False,
        score=15,
        reason="ungrouped cards: 2D 2C 4H 7C; every card must be in a group",
        note="a pure and an impure sequence: every valid group excluded",
    ),
    case(
        rules="R-SHOW-2",
        variant="pool101",
        cut="3D",
        groups=[],
        loose="AS 2S 3S 5C 6C 7C 9H 9D 9S KH KD QH JH",
        kinds=[],
        valid=False,
        score=80,
        reason="ungrouped cards: AS 2S 3S 5C 6C 7C 9S 9H 9D JH QH KH KD; every card must be in a group; "
        "no pure sequence",
        note="nothing grouped: every card counts (the wild 3S too, at 0), 105 capped",
    ),
    # ---- R-21-3: 21-card declarations.
    case(
        rules="R-21-3",
        variant="points21",
        cut="8C",
        groups=["AS 2S 3S", "4H 5H 6H", "9D TD JD QD KD", "QC QS QH", "KS KH 8H", "2C 3C 4C 5C"],
        loose="",
        kinds=[P, P, P, SET, SET, P],
        valid=True,
        score=0,
        reason="",
        note="a) three or more pure sequences and every other card in valid groups",
    ),
    case(
        rules="R-21-3",
        variant="points21",
        cut="8C",
        groups=["AS 2S 3S", "4H 5H 6H", "9D TD JD QD KD", "QC QS QH", "KS KH", "2C 3C 4C 5C"],
        loose="8H",
        kinds=[P, P, P, SET, None, P],
        valid=False,
        score=20,
        reason="KS KH: two cards make a group only as a dublee of two identical cards; ungrouped cards: 8H; "
        "every card must be in a group",
        note="a) fails: a joker outside the groups, KS KH not a group (20 points count)",
    ),
    case(
        rules="R-21-3",
        variant="points21",
        cut="8C",
        groups=["AS 2S 3S", "4H 5H 6H", "9D TD JD QD KD", "QC QS QH", "KS KS", "2C 3C 4C 5C"],
        loose="8H",
        kinds=[P, P, P, SET, DU, P],
        valid=False,
        score=20,
        reason="KS KS: a dublee completes a declaration only with 8 dublees; ungrouped cards: 8H; "
        "every card must be in a group",
        note="a dublee is not a group for the count: KS KS counts 20",
    ),
    case(
        rules="R-21-3",
        variant="points21",
        cut="8C",
        groups=["5H 5H 5H", "KD KD KD", "2C 2C 2C"],
        loose="AS 4H 6H 9D TD JD QC QD QH KS KH 3C",
        kinds=[TU, TU, TU],
        valid=True,
        score=0,
        reason="",
        note="b) three tunnelas; the rest need not be grouped",
    ),
    case(
        rules="R-21-3",
        variant="points21",
        cut="8C",
        groups=["5H 5H", "KD KD", "2C 2C", "3S 3S", "9H 9H", "JD JD", "QS QS", "AC AC"],
        loose="4D 6S 7C TH TC",
        kinds=[DU] * 8,
        valid=True,
        score=0,
        reason="",
        note="c) eight dublees; the rest need not be grouped",
    ),
    case(
        rules="R-21-3",
        variant="points21",
        cut="8C",
        groups=["8S 8S 8H 8D 8D 8C PJ 9C"],
        loose="AS 2H 4D 5C 6S 7H 9H TD JS QH KC KD QS",
        kinds=[S],
        valid=True,
        score=0,
        reason="",
        note="d) eight jokers in one group (8C cut: 8s wild, 9C upper)",
    ),
    case(
        rules="R-21-3",
        variant="points21",
        cut="8C",
        groups=["8S 8S 8H 8D 8D 8C 9C"],
        loose="AS 2H 4D 5C 6S 7H 9H TD JS QH KC KD QS PJ",
        kinds=[S],
        valid=False,
        score=2,
        reason="ungrouped cards: PJ AS 2H 4D 5C 6S 7H 9H TD JS QS QH KD KC; every card must be in a group; "
        "no pure sequence (tunnelas count); a declaration needs three, or three tunnelas, "
        "eight dublees or eight jokers in one group",
        note="seven jokers in one group: not a declaration, but the loser scores at most 2 (R-21-4)",
    ),
    # ---- R-21-4: 21-card losing scores.
    case(
        rules="R-21-4",
        variant="points21",
        cut="8C",
        groups=["AS 2S PJ", "QC QD QH"],
        loose="4H 5H 6S 9D TD JC KS KH 2C 3C 4D 5C 6D 7S 7D",
        kinds=[S, SET],
        valid=False,
        score=120,
        reason="ungrouped cards: 2C 3C 4H 4D 5H 5C 6S 6D 7S 7D 9D TD JC KS KH; "
        "every card must be in a group; "
        "no pure sequence (tunnelas count); a declaration needs three, or three tunnelas, "
        "eight dublees or eight jokers in one group",
        note="no pure sequence: every card counts; 140 capped at 120",
    ),
    case(
        rules="R-21-4",
        variant="points21",
        cut="8C",
        groups=["AS 2S 3S", "4H 5H 6H", "QC QD QH"],
        loose="9D TS JC KS KH QS JD JH TC TD 9H 9S",
        kinds=[P, P, SET],
        valid=False,
        score=120,
        reason="ungrouped cards: 9S 9H 9D TS TD TC JH JD JC QS KS KH; every card must be in a group; "
        "only 2 pure sequences (tunnelas count); a declaration needs three, or three tunnelas, "
        "eight dublees or eight jokers in one group",
        note="two pure: only they are excluded (QQQ counts): 177 - 30 = 147, capped at 120",
    ),
    case(
        rules="R-21-4",
        variant="points21",
        cut="8C",
        groups=["AS 2S 3S", "4H 5H 6H", "QC QD QH"],
        loose="9D TS 2C 3C 4D 5C 6D 7S 7D 3H 3D KS",
        kinds=[P, P, SET],
        valid=False,
        score=99,
        reason="ungrouped cards: 2C 3H 3D 3C 4D 5C 6D 7S 7D 9D TS KS; every card must be in a group; "
        "only 2 pure sequences (tunnelas count); a declaration needs three, or three tunnelas, "
        "eight dublees or eight jokers in one group",
        note="two pure: only they are excluded: 129 - 30 = 99",
    ),
    case(
        rules="R-21-4",
        variant="points21",
        cut="8C",
        groups=["AS 2S 3S", "4H 5H 6H", "QC QD QH", "9D TD JD", "2C 3C PJ"],
        loose="KS KH 4D 5C 6D 7S",
        kinds=[P, P, SET, P, S],
        valid=False,
        score=42,
        reason="ungrouped cards: 4D 5C 6D 7S KS KH; every card must be in a group",
        note="three pure: every valid group excluded: 4+5+6+7+10+10",
    ),
    case(
        rules="R-21-4",
        variant="points21",
        cut="8C",
        groups=["5H 5H", "KD KD", "2C 2C", "3S 3S", "9H 9H", "JD JD"],
        loose="AC 4D 6S 7C TH TC QS QS AD",
        kinds=[DU] * 6,
        valid=False,
        score=2,
        reason="5H 5H: a dublee completes a declaration only with 8 dublees; "
        "KD KD: a dublee completes a declaration only with 8 dublees; "
        "2C 2C: a dublee completes a declaration only with 8 dublees; "
        "3S 3S: a dublee completes a declaration only with 8 dublees; "
        "9H 9H: a dublee completes a declaration only with 8 dublees; "
        "JD JD: a dublee completes a declaration only with 8 dublees; "
        "ungrouped cards: AD AC 4D 6S 7C TH TC QS QS; every card must be in a group; "
        "no pure sequence (tunnelas count); a declaration needs three, or three tunnelas, "
        "eight dublees or eight jokers in one group",
        note="six dublees each grouped as a pair: the loser scores 2 (Decision R-21-4)",
    ),
    case(
        rules="R-21-4",
        variant="points21",
        cut="8C",
        groups=["5H 5H", "KD KD", "2C 2C", "3S 3S", "9H 9H"],
        loose="JD JD AC 4D 6S 7C TH TC QS QS AD",
        kinds=[DU] * 5,
        valid=False,
        score=120,
        reason="5H 5H: a dublee completes a declaration only with 8 dublees; "
        "KD KD: a dublee completes a declaration only with 8 dublees; "
        "2C 2C: a dublee completes a declaration only with 8 dublees; "
        "3S 3S: a dublee completes a declaration only with 8 dublees; "
        "9H 9H: a dublee completes a declaration only with 8 dublees; "
        "ungrouped cards: AD AC 4D 6S 7C TH TC JD JD QS QS; every card must be in a group; "
        "no pure sequence (tunnelas count); a declaration needs three, or three tunnelas, "
        "eight dublees or eight jokers in one group",
        note="five dublees grouped (the sixth pair left loose) "
        "do not trigger the Decision: 170 capped at 120",
    ),
]


def _entry(spec: dict[str, Any]) -> dict[str, Any]:
    variant = variant_named(spec["variant"])
    jokers = Jokers.from_cut(Card.parse(spec["cut"]), value_cards=variant.is_points21)
    groups = [parse_cards(group) for group in spec["groups"]]
    hand = [card for group in groups for card in group] + parse_cards(spec["loose"])
    packs = spec.get("packs", variant.default_packs)
    if len(hand) != variant.hand_size:
        raise SystemExit(f"{spec['rules']} {spec['groups']}: {len(hand)} cards, not {variant.hand_size}")
    kinds = [classify(variant, jokers, group) for group in groups]
    found = [kind.value if kind else None for kind in kinds]
    verdict = evaluate(variant, jokers, hand, groups, packs=packs)
    expected = (spec["kinds"], spec["valid"], spec["score"], spec["reason"])
    if (found, verdict.valid, verdict.score, verdict.reason) != expected:
        PROBLEMS.append(
            f"hand-worked case disagrees with evaluate: {spec}\n  kinds {found}\n  verdict {verdict}"
        )
    line = {
        "rules": spec["rules"],
        "variant": spec["variant"],
        "cut": spec["cut"],
        "hand": [card.code for card in hand],
        "groups": [[card.code for card in group] for group in groups],
        "kinds": spec["kinds"],
        "valid": spec["valid"],
        "score": spec["score"],
        "reason": spec["reason"],
    }
    if "packs" in spec:
        line["packs"] = spec["packs"]
    if "note" in spec:
        line["note"] = spec["note"]
    return line


PROBLEMS: list[str] = []


def write_groupings() -> None:
    lines = [_entry(spec) for spec in GROUPINGS]
    if PROBLEMS:
        raise SystemExit("\n".join(PROBLEMS))
    _write("groupings.jsonl", lines)


# --------------------------------------------------------------------------------------------
# Hands with answers from the reference.


def _deal(rng: random.Random, size: int, packs: int, cut: str | None = None) -> tuple[list[Card], Card]:
    cards = list(shoe(packs))
    rng.shuffle(cards)
    if cut is not None:
        wanted = Card.parse(cut)
        cards.remove(wanted)
        return cards[:size], wanted
    return cards[:size], cards[size]


def _built(rng: random.Random, size: int, packs: int, points21: bool) -> tuple[list[Card], Card]:
    """A hand built from runs, sets, identical cards and jokers, so declarations come up often."""
    cards = list(shoe(packs))
    rng.shuffle(cards)
    cut = cards.pop()
    jokers = Jokers.from_cut(cut, value_cards=points21)
    left = Counter(cards)
    joker_cards = sorted(card for card in left if jokers.is_joker(card))
    hand: list[Card] = []

    def take(card: Card) -> None:
        if left[card] > 0 and len(hand) < size:
            left[card] -= 1
            hand.append(card)

    while len(hand) < size:
        roll = rng.random()
        if roll < 0.35:
            suit, length = rng.randrange(4), rng.randint(3, 6)
            first = rng.randint(1, 15 - length)
            for rank in range(first, first + length):
                if joker_cards and rng.random() < 0.15:
                    take(rng.choice(joker_cards))
                else:
                    take(Card(1 if rank == 14 else rank, suit))
        elif roll < 0.55:
            rank = rng.randint(1, 13)
            for suit in rng.sample(range(4), rng.randint(2, 4)):
                take(Card(rank, suit))
        elif roll < 0.65 and points21:
            card = Card(rng.randint(1, 13), rng.randrange(4))
            for _ in range(rng.randint(2, 3)):
                take(card)
        elif roll < 0.8 and joker_cards:
            take(rng.choice(joker_cards))
        else:
            take(rng.choice([card for card, count in left.items() if count]))
    return hand, cut


def _joker_heavy(
    rng: random.Random, size: int, packs: int, points21: bool, count: int
) -> tuple[list[Card], Card]:
    cards = list(shoe(packs))
    rng.shuffle(cards)
    cut = cards.pop()
    jokers = Jokers.from_cut(cut, value_cards=points21)
    joker_cards = [card for card in cards if jokers.is_joker(card)]
    naturals = [card for card in cards if not jokers.is_joker(card)]
    count = min(count, len(joker_cards))
    return joker_cards[:count] + naturals[: size - count], cut


# Hand-picked hard or telling hands: (variant, cut, hand, packs or None, note).
PICKED13: list[tuple[str, str, str, int | None, str]] = [
    (
        "pool101",
        "9D",
        "AH 2H 3H 9S 9C PJ KC KD KS 5C 5D 5H 5S",
        None,
        "second sequence made only of jokers (R-MELD-6)",
    ),
    (
        "pool101",
        "9D",
        "AH 2H 3H PJ PJ KC KD KS 5C 5D 5H 5S 7D",
        None,
        "two printed jokers are not a sequence",
    ),
    (
        "pool101",
        "PJ",
        "AS 2S 3S AH AD PJ 7C 8C 9C KD KH KS 4D",
        None,
        "printed-joker cut: Aces plain in A 2 3 (R-DEAL-3)",
    ),
    (
        "pool101",
        "PJ",
        "AS AH AD AC 7C 8C 9C KD KH KS 4D 5D 6D",
        None,
        "printed-joker cut: four Aces, all jokers",
    ),
    (
        "pool101",
        "6D",
        "5H 6H 7H 9C TC JC QC KS KD 2S 3S 4S 8D",
        None,
        "wild 6H natural in a pure sequence (R-MELD-4)",
    ),
    ("pool101", "6D", "5H 6H 7H 9C 9D 9S QC QD 2S 3S 4S 8D 8H", None, "the wild 6H: natural or joker"),
    ("pool101", "TC", "QH KH AH 2H 3H 5S 6S 7S 9C 9D 9H 9S 4D", None, "Q K A and A 2 3 need two Aces"),
    ("pool101", "TC", "KH AH 2H 5S 6S 7S 9C 9D 9H 9S KD KS 3C", None, "K A 2 is not a sequence (R-MELD-1)"),
    ("pool101", "TC", "4H 5H 6H 7H 7S 7D 8D 9D JD QD KD 2C 3C", None, "7H in the run or in the set"),
    (
        "pool101",
        "2C",
        "4H 5H 6H 7H 8H 9H TH JH QH KH AH 3S 4S",
        None,
        "a long pure run: split for a second sequence",
    ),
    ("pool101", "9D", "9S 9S 9H 9H 9D 9C 9C PJ PJ 2H 3H 4H 5H", None, "nine jokers and one pure run"),
    ("pool101", "9D", "9S 9S 9H 9H 9D 9C 9C PJ PJ 2H 3H 4H KD", None, "nine jokers and a pure run of three"),
    ("pool101", "3D", "KS KH KD KC QS QH QD QC JS JH JD JC AS", None, "sets only: no pure sequence, capped"),
    ("pool61", "3D", "KS KH KD KC QS QH QD QC JS JH JD JC AS", None, "sets only, pool 61: capped at 60"),
    ("pool101", "3D", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", None, "a whole suit: two pure sequences"),
    ("pool101", "5D", "AS AS 2S 2S 3S 3S 4S 4S 6S 6S 7S 7S 8S", None, "two packs: twin runs"),
    ("pool201", "5D", "AS AS AS 2S 2S 2S 3S 3S 3S KD KD KD QC", 3, "three packs, 13 cards: three runs A 2 3"),
    ("pool201", "5D", "7S 7S 7S 7H 7H 7H 8D 9D TD JC JC JC 2H", 3, "three packs: identical cards are no set"),
    (
        "pool101",
        "QC",
        "QS QH PJ PJ AS 2S 3S 5D 6D 7D 9H 9C 9S",
        None,
        "jokers: one group of four or two sequences",
    ),
    ("pool101", "8S", "AS 2S 4S 5S 7H 9H JH KD KC 3C 6C PJ 8D", None, "many two-card near-melds, two jokers"),
]

PICKED21: list[tuple[str, str, str, int | None, str]] = [
    (
        "points21",
        "8C",
        "5H 5H 5H KD KD KD 2C 2C 2C AS 4H 6H 9D TD JD QC QD QH KS KH 3C",
        None,
        "three tunnelas (b)",
    ),
    (
        "points21",
        "8C",
        "5H 5H KD KD 2C 2C 3S 3S 9H 9H JD JD QS QS AC AC 4D 6S 7C TH TC",
        None,
        "eight dublees (c)",
    ),
    (
        "points21",
        "8C",
        "8S 8S 8H 8D 8D 8C PJ 9C AS 2H 4D 5C 6S 7H 9H TD JS QH KC KD QS",
        None,
        "eight jokers (d)",
    ),
    (
        "points21",
        "8C",
        "5H 5H KD KD 2C 2C 3S 3S 9H 9H JD JD AC 4D 6S 7C TH TC QS AD JS",
        None,
        "six dublees: loses 2",
    ),
    (
        "points21",
        "8C",
        "8S 8S 8H 8D 8C PJ 9C AS 2H 4D 5C 6S 7H 9H TD JS QH KC KD QS JC",
        None,
        "seven jokers: loses 2",
    ),
    (
        "points21",
        "4S",
        "3S 4S 5S AH 2H 3H 6C 7C 8C 9D TD JD KS KH KD QH QD QC 2C 2D 9S",
        None,
        "marriage cards as jokers",
    ),
    (
        "points21",
        "4S",
        "3S 4S 5S 6S 7S 8S AH 2H 3H 9D TD JD KH KD KC QH QD QC 2C 2D 9S",
        None,
        "six-card pure run holding the marriage",
    ),
    (
        "points21",
        "4S",
        "3S 4S 5S AH 2H 3H 6C 7C 8C 9D TD JD KH KD KC QH QD QC 2C 2D TS",
        None,
        "marriage run as a group of jokers",
    ),
    (
        "points21",
        "KS",
        "QS KS AS AH 2H 3H 6C 7C 8C 9D TD JD KH KD KC QH QD QC 2C 2D 5D",
        None,
        "Q K A marriage run (KS cut)",
    ),
    (
        "points21",
        "AS",
        "KS AS 2S 3S 4S 6H 7H 8H 9D TD JD QC QD QH KH KD KC 5C 5D 5H 7C",
        None,
        "Ace cut: 2S upper, KS lower",
    ),
    (
        "points21",
        "PJ",
        "AS AH 2S KS 3S 4S 6H 7H 8H 9D TD JD QC QD QH KH KD KC 5C 5D PJ",
        None,
        "printed-joker cut on 21 cards",
    ),
    (
        "points21",
        "9D",
        "3H 4H 5H 6H 7H 2C 3C 4C 5C KS KD KH KC QS QH QD QC 6S 7S 8S PJ",
        None,
        "one joker, runs 5+4+3: split the 5",
    ),
    (
        "points21",
        "KC",
        "AD 2D 3D 4D 2S 3S 4S 5S AD 2D 3D 4D JS JH JD JC 8S 8H 8D 8C PJ",
        None,
        "one joker, runs of 4 and 4-sets: score 0, no declaration",
    ),
    (
        "points21",
        "9D",
        "3H 4H 5H 2C 3C 4C 6S 7S 8S KS KD KH KC QS QH QD QC JS JH JD PJ",
        None,
        "one joker and a 3-set to take it",
    ),
    (
        "points21",
        "7D",
        "2S 3S 4S 2H 3H 4H 2C 3C 4C KD KD KD 9S 9H 9D 9C QS QH QD QC PJ",
        None,
        "a tunnela and three runs: a spare run takes the joker",
    ),
    (
        "points21",
        "7D",
        "2S 3S 4S 2H 3H 4H 2C 3C 4C KD KD 9S 9H 9D 9C QS QH QD QC PJ JH",
        None,
        "a joker and no group to take it",
    ),
    (
        "points21",
        "8C",
        "PJ PJ PJ AS 2S 3S 4H 5H 6H 9D TD JD QC QD QH KS KH KD 2C 3C 4C",
        None,
        "three printed jokers: a tunnela",
    ),
    (
        "points21",
        "8C",
        "8S 8S 8S AS 2S 3S 4H 5H 6H 9D TD JD QC QD QH KS KH KD 2C 3C 4C",
        None,
        "three wild 8S: a tunnela",
    ),
]


_SOLVED = itertools.count(1)


def _line(
    variant_name: str, cut: Card, hand: list[Card], packs: int | None, note: str | None
) -> dict[str, Any]:
    done = next(_SOLVED)
    if done % 100 == 0:
        print(f"  {done} hands", flush=True)
    variant = variant_named(variant_name)
    jokers = Jokers.from_cut(cut, value_cards=variant.is_points21)
    score, can_declare = reference_solve(variant, jokers, hand)
    line: dict[str, Any] = {
        "variant": variant_name,
        "cut": cut.code,
        "hand": [card.code for card in hand],
        "score": score,
        "can_declare": can_declare,
    }
    if packs is not None:
        line["packs"] = packs
    if note:
        line["note"] = note
    return line


def write_hands13() -> None:
    rng = random.Random(1313)
    lines = []
    for name, cut, hand, packs, note in PICKED13:
        lines.append(_line(name, Card.parse(cut), parse_cards(hand), packs, note))
    names = ["pool101", "pool201", "pool61"]
    for i in range(1200):
        hand, cut = _deal(rng, 13, 2)
        lines.append(_line(names[i % 3], cut, hand, None, None))
    for i in range(300):
        hand, cut = _deal(rng, 13, 2, cut="PJ")
        lines.append(_line(names[i % 3], cut, hand, None, "printed-joker cut"))
    for i in range(400):
        hand, cut = _built(rng, 13, 2, False)
        lines.append(_line(names[i % 3], cut, hand, None, "built from melds"))
    for i in range(150):
        hand, cut = _joker_heavy(rng, 13, 2, False, 3 + i % 7)
        lines.append(_line(names[i % 3], cut, hand, None, "many jokers"))
    for _ in range(60):
        hand, cut = _built(rng, 13, 3, True)  # identical triples come up with three packs
        lines.append(_line("pool201", cut, hand, 3, "three packs"))
    _write("hands13.jsonl", lines)


def write_hands21() -> None:
    rng = random.Random(2121)
    lines = []
    for name, cut, hand, packs, note in PICKED21:
        lines.append(_line(name, Card.parse(cut), parse_cards(hand), packs, note))
    for _ in range(250):
        hand, cut = _deal(rng, 21, 3)
        lines.append(_line("points21", cut, hand, None, None))
    for _ in range(30):
        hand, cut = _deal(rng, 21, 3, cut="PJ")
        lines.append(_line("points21", cut, hand, None, "printed-joker cut"))
    for _ in range(80):
        hand, cut = _built(rng, 21, 3, True)
        lines.append(_line("points21", cut, hand, None, "built from melds"))
    for i in range(20):
        hand, cut = _joker_heavy(rng, 21, 3, True, 3 + i % 5)
        lines.append(_line("points21", cut, hand, None, "many jokers"))
    _write("hands21.jsonl", lines)


def _write(name: str, lines: list[dict[str, Any]]) -> None:
    DATA.mkdir(exist_ok=True)
    with (DATA / name).open("w") as out:
        for line in lines:
            out.write(json.dumps(line) + "\n")
    print(f"wrote {len(lines)} lines to {DATA / name}")


def main(argv: list[str]) -> None:
    wanted = set(argv) or {"groupings", "hands13", "hands21"}
    for name, writer in (
        ("groupings", write_groupings),
        ("hands13", write_hands13),
        ("hands21", write_hands21),
    ):
        if name in wanted:
            started = time.perf_counter()
            writer()
            print(f"  {name}: {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
