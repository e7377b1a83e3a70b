"""Command line: ``python -m games.engine evaluate|split``, JSON lines in, JSON lines out.

Every input line gets exactly one output line, in order, flushed at once; a line that cannot
be answered gets ``{"error": "..."}`` and the next line is read. The exit status is 0 at the
end of the input.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from games.engine import melds, solver
from games.engine.cards import Card, CardError, Jokers, check_copies, format_cards
from games.engine.pool import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    auto_split_due,
    drops_remaining,
    manual_split_allowed,
    split_payouts,
)
from games.engine.variants import Variant, variant_named

EVALUATE_HELP = """\
Score 13- or 21-card hands. Each input line is a JSON object:
  {"variant": "pool101"|"pool201"|"pool61"|"points21", "cut": "7H",
   "hand": ["AH", "2H", ...13 or 21 card codes...],
   "groups": [["AH", "2H", "3H"], ...],   (optional)
   "packs": 2}                              (optional, default: the variant's packs)
Without "groups" the best arrangement is found (R-SHOW-5):
  {"score": N, "can_declare": true|false, "groups": [["AH", "2H", "3H"], ...]}
With "groups" that grouping is judged as a declaration (R-DECL-2, R-21-3):
  {"valid": true|false, "score": N, "reason": "..."}
"""

SPLIT_HELP = """\
Split a pool (R-POOL-5..8). Each input line is a JSON object:
  {"variant": "pool101"|"pool201"|"pool61", "entry_fee": paise, "prize_pool": paise,
   "started": players at the start, "scores": [remaining players' totals, in seat order]}
("prize_pool" is the pool after rake.) Answer:
  {"drops": [...], "manual_split": bool, "auto_split": bool, "payouts": [...paise...]}
"""


class InputError(ValueError):
    """A request line that is not what the command reads."""


Request = dict[str, Any]
Answer = dict[str, Any]


def _field(request: Request, name: str) -> Any:
    if name not in request:
        raise InputError(f"missing field {name!r}")
    return request[name]


def _integer(request: Request, name: str, *, least: int = 0) -> int:
    value = _field(request, name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{name!r} must be an integer, not {json.dumps(value)}")
    if value < least:
        raise InputError(f"{name!r} must be at least {least}, not {value}")
    return value


def _card_list(value: Any, name: str) -> list[Card]:
    if not isinstance(value, list):
        raise InputError(f"{name} must be a list of card codes, not {json.dumps(value)}")
    return [Card.parse(code) for code in value]


def _variant(request: Request) -> Variant:
    name = _field(request, "variant")
    if not isinstance(name, str):
        raise InputError(f"'variant' must be a string, not {json.dumps(name)}")
    return variant_named(name)


def evaluate(request: Request) -> Answer:
    """Answer one ``evaluate`` line."""
    variant = _variant(request)
    cut_code = _field(request, "cut")
    cut = Card.parse(cut_code)
    hand = _card_list(_field(request, "hand"), "'hand'")
    if len(hand) != variant.hand_size:
        raise InputError(f"a {variant.name} hand has {variant.hand_size} cards, not {len(hand)}")
    packs = _integer(request, "packs", least=1) if "packs" in request else variant.default_packs
    check_copies([*hand, cut], packs)
    jokers = Jokers.from_cut(cut, value_cards=variant.is_points21)
    groups_given = request.get("groups")
    if groups_given is None:
        solution = solver.solve(variant, jokers, tuple(hand), packs=packs)
        return {
            "score": solution.score,
            "can_declare": solution.can_declare,
            "groups": [[card.code for card in group] for group in solution.groups],
        }
    if not isinstance(groups_given, list):
        raise InputError(f"'groups' must be a list of lists of card codes, not {json.dumps(groups_given)}")
    groups = [tuple(_card_list(group, "each group")) for group in groups_given]
    not_held = Counter(card for group in groups for card in group) - Counter(hand)
    if not_held:
        raise CardError(f"grouped but not in hand: {format_cards(sorted(not_held.elements()))}")
    result = melds.evaluate(variant, jokers, tuple(hand), tuple(groups), packs=packs)
    return {"valid": result.valid, "score": result.score, "reason": result.reason}


def split(request: Request) -> Answer:
    """Answer one ``split`` line."""
    variant = _variant(request)
    if variant.elimination is None:
        raise InputError(f"{variant.name} is not a pool variant: only pool games split")
    entry_fee = _integer(request, "entry_fee")
    prize_pool = _integer(request, "prize_pool")
    started = _integer(request, "started", least=MIN_PLAYERS)
    if started > MAX_PLAYERS:
        raise InputError(f"a pool game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {started}")
    scores = _field(request, "scores")
    if not isinstance(scores, list) or not scores:
        raise InputError(f"'scores' must be a non-empty list of integers, not {json.dumps(scores)}")
    if len(scores) > started:
        raise InputError(f"{len(scores)} scores but only {started} players started")
    for score in scores:
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise InputError(f"each score must be an integer from 0 up, not {json.dumps(score)}")
        if score >= variant.elimination:
            raise InputError(
                f"score {score} has reached elimination at {variant.elimination}: not a remaining player"
            )
    drops = [drops_remaining(variant, score) for score in scores]
    return {
        "drops": drops,
        "manual_split": manual_split_allowed(variant, entry_fee=entry_fee, started=started, drops_left=drops),
        "auto_split": auto_split_due(variant, entry_fee=entry_fee, started=started, drops_left=drops),
        "payouts": list(split_payouts(prize_pool=prize_pool, entry_fee=entry_fee, drops_left=drops)),
    }


COMMANDS: dict[str, tuple[Callable[[Request], Answer], str, str]] = {
    "evaluate": (evaluate, "score a hand: its best arrangement, or a given grouping", EVALUATE_HELP),
    "split": (split, "split a pool prize among the remaining players", SPLIT_HELP),
}


def answer(command: Callable[[Request], Answer], line: str) -> Answer:
    """The answer to one input line; never raises for bad input."""
    if not line.strip():
        return {"error": "empty line: expected a JSON object"}
    try:
        request = json.loads(line)
    except ValueError as error:
        return {"error": f"not JSON: {error}"}
    if not isinstance(request, dict):
        return {"error": "each line must be a JSON object"}
    try:
        return command(request)
    except (ValueError, TypeError) as error:  # CardError, InputError, PoolError are ValueErrors
        return {"error": str(error)}
    except Exception as error:  # a bug must not end the stream: report it on the line
        return {"error": f"internal error: {type(error).__name__}: {error}"}


def run(command: Callable[[Request], Answer], stdin: TextIO, stdout: TextIO) -> None:
    for line in iter(stdin.readline, ""):
        stdout.write(json.dumps(answer(command, line)) + "\n")
        stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine",
        description="Indian Rummy rules engine: JSON lines on stdin, one JSON answer line each on stdout.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{evaluate,split}")
    for name, (_, summary, help_text) in COMMANDS.items():
        commands.add_parser(
            name,
            help=summary,
            description=help_text,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
    args = parser.parse_args(argv)
    if isinstance(sys.stdin, io.TextIOWrapper):  # bad bytes become an error line, not a crash
        sys.stdin.reconfigure(errors="replace")
    try:
        run(COMMANDS[args.command][0], sys.stdin, sys.stdout)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
