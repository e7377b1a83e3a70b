"""python manage.py fairplay_proof --games N [--variant V] --seed S --players P --cheat-...: the
detectors measured against planted cheats (fairplay/proof.py). Run it on an empty database."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from fairplay import proof
from games.planted import FLAGS as CHEATS
from games.planted import TooManyCheaters
from games.simulate import VARIANTS


class Command(BaseCommand):
    help = (
        "Simulate with planted cheating pairs and bots among honest players, scan the log with "
        "the default thresholds, and print per kind: planted, found, false positives, precision, recall."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, required=True, help="games of each variant")
        parser.add_argument("--variant", choices=[*VARIANTS, "all"], default="all")
        parser.add_argument("--seed", type=int, required=True)
        parser.add_argument("--players", type=int, default=240)
        for kind, words in CHEATS.items():
            parser.add_argument(
                f"--cheat-{kind.replace('_', '-')}", type=int, default=0, metavar="N", help=words
            )

    def handle(self, *args: Any, **options: Any) -> None:
        cheats = {kind: options[f"cheat_{kind}"] for kind in CHEATS}
        if options["games"] < 1 or any(n < 0 for n in cheats.values()):
            raise CommandError("--games must be 1 or more and every --cheat-... count 0 or more")
        try:
            result = proof.run(
                options["games"],
                options["variant"],
                options["seed"],
                players=options["players"],
                cheats=cheats,
            )
        except TooManyCheaters as error:
            raise CommandError(str(error)) from None
        for line in result.summary.lines():
            self.stdout.write(line)
        for line in result.report.lines():
            self.stdout.write(line)
        for line in result.lines():
            self.stdout.write(line)
