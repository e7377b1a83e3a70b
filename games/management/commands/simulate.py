"""python manage.py simulate --games N [--variant ...] [--seed S]: whole games end to end, with
the ledger's invariants checked as they go; exit 1 on any violation (games/simulate.py)."""

from __future__ import annotations

import random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.planted import TooManyCheaters
from games.simulate import VARIANTS, simulate

#: The planted cheats (games/planted.py), each a flag: how many pairs, or bots.
CHEATS = {
    "soft_play": "plant N pairs that drop when only the partner is left in the deal",
    "chip_dump": "plant N pairs where one loses the full count to the other when alone together",
    "feed": "plant N pairs where one discards what the other needs, and the other takes it",
    "regular_bot": "plant N bots that act at a fixed pace",
}


class Command(BaseCommand):
    help = (
        "Play whole games end to end (pool 101/201/61 and 21-card, money and practice) through the "
        "same services, ledger and deadlines as live play, on a simulated clock; print a summary; "
        "exit 1 on any broken invariant. Deterministic for a seed on a fresh SQLite database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, required=True, help="games of each variant")
        parser.add_argument("--variant", choices=[*VARIANTS, "all"], default="all")
        parser.add_argument("--seed", type=int, default=None, help="default: a random seed, printed")
        parser.add_argument("--verbose-log", action="store_true", help="print each violation as it comes")
        parser.add_argument("--players", type=int, default=24, help="simulated players (default 24)")
        for kind, words in CHEATS.items():
            parser.add_argument(
                f"--cheat-{kind.replace('_', '-')}", type=int, default=0, metavar="N", help=words
            )

    def handle(self, *args: Any, **options: Any) -> None:
        games = options["games"]
        if games < 1:
            raise CommandError("--games must be 1 or more")
        seed = options["seed"] if options["seed"] is not None else random.SystemRandom().randrange(10**6)
        log = self.stderr.write if options["verbose_log"] else (lambda line: None)
        cheats = {kind: options[f"cheat_{kind}"] for kind in CHEATS}
        if any(n < 0 for n in cheats.values()):
            raise CommandError("a --cheat-... count must be 0 or more")
        try:
            summary = simulate(
                games, options["variant"], seed, log=log, players=options["players"], cheats=cheats
            )
        except TooManyCheaters as error:
            raise CommandError(str(error)) from None
        for line in summary.lines():
            self.stdout.write(line)
        if summary.violations:
            raise CommandError(f"{len(summary.violations)} invariant(s) violated")
