"""python manage.py simulate --games N [--variant ...] [--seed S]: whole games end to end, with
the ledger's invariants checked as they go; exit 1 on any violation (games/simulate.py).
``--tournaments N``: whole tournaments, run by the app that registered them in
``games.simulate.runs`` (the tournaments, from their ``AppConfig.ready``). ``--players N`` and
``--cheat-...`` plant colluding pairs and scripted bots among the honest players (docs/FAIRPLAY.md)."""

from __future__ import annotations

import random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.planted import FLAGS as PLANTED
from games.planted import TooManyCheaters
from games.simulate import CHEATS, VARIANTS, runs, simulate


class Command(BaseCommand):
    help = (
        "Play whole games end to end (pool 101/201/61 and 21-card, money and practice) through the "
        "same services, ledger and deadlines as live play, on a simulated clock; print a summary; "
        "exit 1 on any broken invariant. Deterministic for a seed on a fresh SQLite database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=None, help="games of each variant")
        for name in sorted(runs):
            parser.add_argument(f"--{name}", type=int, default=None, help=f"whole {name}, played to the end")
        parser.add_argument("--variant", choices=[*VARIANTS, "all"], default="all")
        parser.add_argument("--seed", type=int, default=None, help="default: a random seed, printed")
        parser.add_argument("--verbose-log", action="store_true", help="print each violation as it comes")
        parser.add_argument("--players", type=int, default=24, help="simulated players (default 24)")
        for kind, words in PLANTED.items():
            parser.add_argument(
                f"--cheat-{kind.replace('_', '-')}", type=int, default=0, metavar="N", help=words
            )
        for cheat in CHEATS:  # the apps above add theirs (fair play: --cheat-shared-device N)
            parser.add_argument(cheat.flag, type=int, default=0, metavar="N", help=cheat.help)

    def handle(self, *args: Any, **options: Any) -> None:
        games = options["games"]
        wanted: dict[str, int] = {name: int(options[name]) for name in runs if options.get(name) is not None}
        if games is None and not wanted:
            raise CommandError(
                f"say how many: --games N{''.join(f' or --{name} N' for name in sorted(runs))}"
            )
        if any(count < 1 for count in [*wanted.values(), *([games] if games is not None else [])]):
            raise CommandError("each count must be 1 or more")
        seed = options["seed"] if options["seed"] is not None else random.SystemRandom().randrange(10**6)
        log = self.stderr.write if options["verbose_log"] else (lambda line: None)
        planted = {kind: options[f"cheat_{kind}"] for kind in PLANTED}
        cheats = {cheat.flag: options[cheat.flag.lstrip("-").replace("-", "_")] for cheat in CHEATS}
        if any(count < 0 for count in [*planted.values(), *cheats.values()]):
            raise CommandError("a --cheat-... count must be 0 or more")
        violations = 0
        if games is not None:
            try:
                summary = simulate(
                    games,
                    options["variant"],
                    seed,
                    log=log,
                    players=options["players"],
                    planted=planted,
                    cheats=cheats,
                )
            except TooManyCheaters as error:
                raise CommandError(str(error)) from None
            for line in summary.lines():
                self.stdout.write(line)
            violations += len(summary.violations)
        for name, count in wanted.items():
            lines, broken = runs[name](count, seed, log)
            for line in lines:
                self.stdout.write(line)
            violations += broken
        if violations:
            raise CommandError(f"{violations} invariant(s) violated")
