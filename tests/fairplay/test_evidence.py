"""A case's evidence in words for the risk desk: each figure beside its baseline, money the
Indian way, shares as percentages; anything malformed left out rather than shown wrong."""

from __future__ import annotations

from fairplay import evidence


def test_each_figure_reads_as_a_sentence_with_its_baseline_and_how_far_from_usual():
    found = evidence.figures(
        {
            "figures": [
                {"name": "win_rate", "value": 0.62, "baseline": 0.18, "unit": "share"},
                {"name": "chips_passed", "value": 1_25_000_50, "baseline": 10_000_00, "unit": "paise"},
                {"name": "hands_seen", "value": 12, "baseline": 4, "words": "Hands seen together"},
                {"name": "new_thing", "value": 3.5, "baseline": 0},
            ]
        }
    )
    assert [f.sentence for f in found] == [
        "Share of deals won against this opponent: 62 %, where 18 % is usual (3.4× usual)",
        "Money passed to one player: ₹1,25,000.50, where ₹10,000.00 is usual (12.5× usual)",
        "Hands seen together: 12, where 4 is usual (3.0× usual)",
        "New thing: 3.50, where 0 is usual",
    ]


def test_malformed_evidence_is_left_out():
    bad = {
        "figures": [
            {"name": "x", "value": "12", "baseline": 1},
            {"name": "y", "value": True, "baseline": 1},
            "z",
        ],
        "counts": {"deals": "40", "tables": 3, "flag": True},
        "deals": [5, "6", 5, True, 7],
        "links": [
            {"users": [1], "reasons": []},
            {"users": [1, 2, 3]},
            {"users": [4, 2], "reasons": ["address", "odd_one"]},
        ],
    }
    assert evidence.figures(bad) == []
    assert evidence.counts(bad) == [("Tables", "3")]
    assert evidence.deal_ids(bad) == [5, 7]
    assert evidence.links(bad) == [evidence.Link((4, 2), ("Same internet address", "Odd one"))]
    assert evidence.figures({}) == []
    assert evidence.deal_ids({"deals": None}) == []


def test_a_score_reads_as_times_usual():
    assert evidence.times_usual(7.2) == "7.2× usual"
    assert evidence.times_usual(3.04) == "3.0× usual"
    assert evidence.times_usual(0) == "no score"
