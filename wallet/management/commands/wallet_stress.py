"""python manage.py wallet_stress --workers N --ops M: concurrent random money, then the auditor."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from wallet import stress


class Command(BaseCommand):
    help = (
        "Run random concurrent game money operations (writers: a process each, or threads of fewer, a "
        "connection each) against the configured database, then reconcile; print operations per "
        "second; exit 1 on any broken invariant. Creates stress-* users and accounts: run it on a "
        "scratch database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--workers", type=int, default=8, help="writers, one connection each (1 runs in this process)"
        )
        parser.add_argument(
            "--processes",
            type=int,
            default=0,
            help="processes the writers run in, as threads when fewer (default: one per writer)",
        )
        parser.add_argument("--ops", type=int, default=20000, help="operations in all, shared by the workers")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: Any, **options: Any) -> None:
        workers, total = options["workers"], options["ops"]
        if workers < 1 or total < workers:
            raise CommandError("need --workers >= 1 and --ops >= --workers")
        # Measure what production runs: DEBUG's query log (every SQL kept in memory) off.
        debug, settings.DEBUG = settings.DEBUG, False
        try:
            result = stress.run(
                workers, total, options["seed"], log=self.stdout.write, processes=options["processes"]
            )
        finally:
            settings.DEBUG = debug
        self.stdout.write(
            f"{result.ops} operations by {result.workers} workers in {result.seconds:.2f} s: "
            f"{result.ops_per_second:,.0f} ops/s"
        )
        self.stdout.write("done: " + ", ".join(f"{k} {v}" for k, v in sorted(result.done.items())))
        self.stdout.write("refused: " + ", ".join(f"{k} {v}" for k, v in sorted(result.refused.items())))
        if result.violations:
            for violation in result.violations[:50]:
                self.stderr.write(violation)
            raise CommandError(f"{len(result.violations)} violation(s)")
        self.stdout.write("no violations; the ledger reconciles")
