"""The command line, run as a subprocess: ``python -m games.engine evaluate|split``."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from games.engine.cards import Card, Jokers, parse_cards
from games.engine.variants import POINTS21, POOL101, Variant

ROOT = Path(__file__).resolve().parents[2]
SPLITS = Path(__file__).parent / "data" / "splits.jsonl"


def codes(text: str) -> list[str]:
    return text.split()


VALID_13 = codes("AH 2H 3H 4H 4S 5S 6S TD JD QD KC KS KH")
VALID_13_GROUPS = [["AH", "2H", "3H", "4H"], ["4S", "5S", "6S"], ["TD", "JD", "QD"], ["KC", "KS", "KH"]]
# 89 points and no joker when 7s are wild: no sequence, no set
NO_SEQUENCE_13 = codes("2S 4S 6S 8S TS QS 3H 5H 9H JH KH 4D 8D")
TUNNELAS_21 = codes("5H 5H 5H 6D 6D 6D 2S 2S 2S AH 3C 4S 7D JH QS KD 3D 4H 7C JS QC")


def run_cli(
    command: str, lines: list[str | bytes]
) -> tuple[list[dict[str, Any]], subprocess.CompletedProcess[bytes]]:
    stdin = b"".join((line if isinstance(line, bytes) else line.encode()) + b"\n" for line in lines)
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", command],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    return answers, done


def split_line(**fields: Any) -> str:
    request = {
        "variant": "pool101",
        "entry_fee": 2500,
        "prize_pool": 15000,
        "started": 4,
        "scores": [30, 70, 85],
    }
    request.update(fields)
    return json.dumps({k: v for k, v in request.items() if v is not None})


def test_help_lists_both_commands() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0
    assert "evaluate" in done.stdout
    assert "split" in done.stdout
    sub = subprocess.run(
        [sys.executable, "-m", "games.engine", "split", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert sub.returncode == 0
    assert '"payouts"' in sub.stdout


def test_split_known_answers_in_order__R_POOL_8_R_MONEY_1() -> None:
    records = [json.loads(line) for line in SPLITS.read_text().splitlines() if line.strip()]
    answers, done = run_cli("split", [json.dumps(record["input"]) for record in records])
    assert done.returncode == 0
    assert done.stderr == b""
    assert answers == [record["expected"] for record in records]
    for record, got in zip(records, answers, strict=True):
        assert sum(got["payouts"]) == record["input"]["prize_pool"]
        assert all(type(paise) is int for paise in got["payouts"])


def test_split_bad_lines_get_an_error_and_the_stream_goes_on__R_POOL_8() -> None:
    good = split_line()
    lines: list[str | bytes] = [
        good,
        "this is not json",
        "",
        "[1, 2, 3]",
        split_line(prize_pool=None),
        split_line(variant="pool999"),
        split_line(variant="points21"),
        split_line(entry_fee=25.5),
        split_line(entry_fee=True),
        split_line(scores=[30, 70, 101]),
        split_line(scores=[]),
        split_line(scores=["30"]),
        split_line(started=2),
        split_line(started=7),
        b"\xff\xfe{not utf-8",
        good,
    ]
    answers, done = run_cli("split", lines)
    assert done.returncode == 0
    assert done.stderr == b""
    assert len(answers) == len(lines)
    expected_ok = {
        "drops": [3, 1, 0],
        "manual_split": False,
        "auto_split": False,
        "payouts": [9167, 4167, 1666],
    }
    assert answers[0] == answers[-1] == expected_ok
    errors = [a.get("error", "") for a in answers[1:-1]]
    assert all(errors), answers
    assert errors[0].startswith("not JSON")
    assert errors[1] == "empty line: expected a JSON object"
    assert errors[2] == "each line must be a JSON object"
    assert errors[3] == "missing field 'prize_pool'"
    assert errors[4].startswith("unknown variant 'pool999'")
    assert errors[5] == "points21 is not a pool variant: only pool games split"
    assert errors[6] == "'entry_fee' must be an integer, not 25.5"
    assert errors[7] == "'entry_fee' must be an integer, not true"
    assert errors[8] == "score 101 has reached elimination at 101: not a remaining player"
    assert "non-empty list" in errors[9]
    assert "integer from 0 up" in errors[10]
    assert errors[11] == "3 scores but only 2 players started"
    assert errors[12] == "a pool game has 2 to 6 players, not 7"
    assert errors[13].startswith("not JSON")


def test_answers_are_flushed_line_by_line() -> None:
    """A caller may wait for each answer before sending the next line."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "games.engine", "split"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
        text=True,
    )
    watchdog = threading.Timer(30, proc.kill)  # a missing flush would block readline forever
    watchdog.start()
    try:
        assert proc.stdin is not None
        assert proc.stdout is not None
        for scores, payouts in (([30, 70, 85], [9167, 4167, 1666]), ([50, 50], [7500, 7500])):
            proc.stdin.write(split_line(scores=scores) + "\n")
            proc.stdin.flush()
            assert json.loads(proc.stdout.readline())["payouts"] == payouts
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    finally:
        watchdog.cancel()
        proc.kill()


def evaluate_line(hand: list[str], cut: str = "7H", variant: str = "pool101", **fields: Any) -> str:
    return json.dumps({"variant": variant, "cut": cut, "hand": hand, **fields})


def test_evaluate_bad_lines_get_an_error__R_CARD_1() -> None:
    lines: list[str | bytes] = [
        evaluate_line(VALID_13[:12]),
        evaluate_line(VALID_13, cut="1X"),
        evaluate_line([*VALID_13[:12], "ZZ"]),
        evaluate_line(VALID_13, groups=[["AH", "2H", "3H"], ["9C", "9D", "9S"]]),
        evaluate_line(VALID_13, groups=[["AH", "2H", "3H"], ["AH", "2H", "3H"]]),
        evaluate_line(VALID_13, variant="pool7"),
        evaluate_line(["AH", "AH", "AH", *VALID_13[3:]]),
        evaluate_line(VALID_13, groups="AH 2H 3H"),
        json.dumps({"variant": "pool101", "hand": VALID_13}),
        evaluate_line(VALID_13, variant="points21"),
    ]
    answers, done = run_cli("evaluate", lines)
    assert done.returncode == 0
    assert done.stderr == b""
    errors = [a.get("error", "") for a in answers]
    assert len(errors) == len(lines)
    assert errors[0] == "a pool101 hand has 13 cards, not 12"
    assert errors[1].startswith("unknown card code '1X'")
    assert errors[2].startswith("unknown card code 'ZZ'")
    assert errors[3] == "grouped but not in hand: 9S 9D 9C"
    assert errors[4] == "grouped but not in hand: AH 2H 3H"
    assert errors[5].startswith("unknown variant 'pool7'")
    assert errors[6] == "3 copies of AH but 2 pack(s) hold only 2"
    assert errors[7] == "'groups' must be a list of lists of card codes, not \"AH 2H 3H\""
    assert errors[8] == "missing field 'cut'"
    assert errors[9] == "a points21 hand has 21 cards, not 13"


def test_evaluate_best_arrangement__R_SHOW_5_R_DECL_2_R_SHOW_2() -> None:
    answers, done = run_cli("evaluate", [evaluate_line(VALID_13), evaluate_line(NO_SEQUENCE_13)])
    assert done.returncode == 0
    assert done.stderr == b""
    valid, hopeless = answers
    assert valid["score"] == 0
    assert valid["can_declare"] is True
    assert sorted(code for group in valid["groups"] for code in group) == sorted(VALID_13)
    assert hopeless["score"] == 80  # 89 points, capped at the full count
    assert hopeless["can_declare"] is False


def test_evaluate_given_grouping__R_DECL_2_R_SHOW_2() -> None:
    lines: list[str | bytes] = [
        evaluate_line(VALID_13, groups=VALID_13_GROUPS),
        evaluate_line(NO_SEQUENCE_13, groups=[["2S", "4S", "6S"], ["8S", "TS", "QS"]]),
    ]
    answers, done = run_cli("evaluate", lines)
    assert done.returncode == 0
    assert done.stderr == b""
    valid, wrong = answers
    assert valid == {"valid": True, "score": 0, "reason": ""}
    assert wrong["valid"] is False
    assert wrong["score"] == 80
    assert wrong["reason"]


def test_evaluate_21_cards_three_tunnelas__R_21_3() -> None:
    groups = [["5H", "5H", "5H"], ["6D", "6D", "6D"], ["2S", "2S", "2S"]]
    lines: list[str | bytes] = [
        evaluate_line(TUNNELAS_21, cut="9C", variant="points21"),
        evaluate_line(TUNNELAS_21, cut="9C", variant="points21", groups=groups),
    ]
    answers, done = run_cli("evaluate", lines)
    assert done.stderr == b""
    best, given = answers
    assert best["can_declare"] is True
    assert given["valid"] is True
    assert given["reason"] == ""


def test_evaluate_passes_parsed_cards_and_jokers_to_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process, with stand-ins for melds.evaluate and solver.solve: what the CLI hands the
    engine and how it writes the engine's answer (independent of the scoring itself)."""
    from games.engine import __main__ as cli
    from games.engine import melds, solver

    calls: list[tuple[Any, ...]] = []

    def fake_solve(variant: Variant, jokers: Jokers, hand: tuple[Card, ...], *, packs: int) -> Any:
        calls.append((variant, jokers, hand, packs))
        return SimpleNamespace(score=7, can_declare=False, groups=((Card.parse("AH"), Card.parse("2H")),))

    def fake_evaluate(variant: Variant, jokers: Jokers, hand: Any, groups: Any, *, packs: int) -> Any:
        calls.append((variant, jokers, tuple(hand), tuple(tuple(g) for g in groups), packs))
        return SimpleNamespace(valid=False, score=11, reason="no pure sequence")

    monkeypatch.setattr(solver, "solve", fake_solve, raising=False)
    monkeypatch.setattr(melds, "evaluate", fake_evaluate, raising=False)

    assert cli.answer(cli.evaluate, evaluate_line(VALID_13, cut="PJ")) == {
        "score": 7,
        "can_declare": False,
        "groups": [["AH", "2H"]],
    }
    variant, jokers, hand, packs = calls[-1]
    assert (variant, packs) == (POOL101, 2)
    assert jokers == Jokers.from_cut(Card.PRINTED_JOKER)
    assert hand == tuple(parse_cards(VALID_13))

    groups = [["AH", "3c", "4S"]]
    answer = cli.answer(cli.evaluate, evaluate_line(TUNNELAS_21, cut="9C", variant="points21", groups=groups))
    assert answer == {"valid": False, "score": 11, "reason": "no pure sequence"}
    variant, jokers, hand, given, packs = calls[-1]
    assert (variant, packs) == (POINTS21, 3)
    assert jokers == Jokers.from_cut(Card.parse("9C"), value_cards=True)  # R-21-2 value cards on
    assert len(hand) == 21
    assert given == (tuple(parse_cards("AH 3C 4S")),)

    cli.answer(cli.evaluate, evaluate_line(["AH", "AH", "AH", *VALID_13[3:]], packs=3))
    assert calls[-1][3] == 3  # a 13-card table may use 3 packs (R-CARD-3)
