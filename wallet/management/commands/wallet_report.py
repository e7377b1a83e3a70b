"""python manage.py wallet_report {statement,rake,payouts,held,daily}: a report as CSV on stdout."""

from __future__ import annotations

from dataclasses import fields
from datetime import date, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from wallet import reports
from wallet.models import Currency


class Command(BaseCommand):
    help = "Write a wallet report as CSV: a user's statement, rake per day, payouts per day, money held."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("report", choices=["statement", "rake", "payouts", "held", "daily"])
        parser.add_argument("--day", help="daily: the local day, YYYY-MM-DD (default: yesterday)")
        parser.add_argument("--user", help="username (statement)")
        parser.add_argument("--currency", default=Currency.INR, choices=Currency.values)

    def handle(self, *args: Any, **options: Any) -> None:
        currency = Currency(options["currency"])
        name = options["report"]
        rows: list[Any]
        row_type: type[Any]
        if name == "statement":
            if not options["user"]:
                raise CommandError("the statement needs --user USERNAME")
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"no user {options['user']!r}")
            rows, row_type = reports.statement(user.pk, currency), reports.StatementLine
        elif name == "daily":
            day = _day(options["day"])
            rows, row_type = reports.daily_summary(day, currency), reports.SummaryLine
        elif name == "rake":
            rows, row_type = reports.rake_by_day(currency), reports.RakeLine
        elif name == "payouts":
            rows, row_type = reports.payouts_by_day(currency), reports.PayoutLine
        else:
            rows, row_type = reports.held_in_play(currency), reports.HeldLine
        reports.write_csv(self.stdout, rows, header=[f.name for f in fields(row_type)])


def _day(text: str | None) -> date:
    if not text:
        return timezone.localdate() - timedelta(days=1)
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--day must be a date like 2026-03-01, not {text!r}") from None
