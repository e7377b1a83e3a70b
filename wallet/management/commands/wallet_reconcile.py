"""python manage.py wallet_reconcile: recompute every balance from the entries; exit 1 on any difference."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from wallet.reconcile import run


class Command(BaseCommand):
    help = "Recompute every balance from the ledger entries and check the invariants; exit 1 on a difference."

    def handle(self, *args: Any, **options: Any) -> None:
        result = run("command")
        problems = result.problems
        counts = ", ".join(f"{n} {name}" for name, n in result.figures.items())
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"ledger does not reconcile: {len(problems)} problem(s) over {counts}")
        self.stdout.write(f"ledger reconciles: {counts}")
