"""python manage.py simulate --games N [--variant ...] [--seed S]: whole games end to end, with
the ledger's invariants checked as they go; exit 1 on any violation (games/simulate.py)."""

from __future__ import annotations

import random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.simulate import CHEATS, VARIANTS, simulate


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
        for cheat in CHEATS:  # the apps above add theirs (fair play: --cheat-shared-device N)
            parser.add_argument(cheat.flag, type=int, default=0, metavar="N", help=cheat.help)

    def handle(self, *args: Any, **options: Any) -> None:
        games = options["games"]
        if games < 1:
            raise CommandError("--games must be 1 or more")
        seed = options["seed"] if options["seed"] is not None else random.SystemRandom().randrange(10**6)
        log = self.stderr.write if options["verbose_log"] else (lambda line: None)
        cheats = {cheat.flag: options[cheat.flag.lstrip("-").replace("-", "_")] for cheat in CHEATS}
        if any(count < 0 for count in cheats.values()):
            raise CommandError("a cheat's count is 0 or more")
        summary = simulate(games, options["variant"], seed, log=log, cheats=cheats)
        for line in summary.lines():
            self.stdout.write(line)
        if summary.violations:
            raise CommandError(f"{len(summary.violations)} invariant(s) violated")
