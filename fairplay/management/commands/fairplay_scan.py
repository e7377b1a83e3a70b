"""python manage.py fairplay_scan (--days N | --since WHEN [--until WHEN]) [--dry-run]: run the
detectors over a window of the tables' log and open or update the risk desk's cases
(fairplay/scan.py); print what was read, found and how long it took."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from fairplay.scan import scan


def moment(text: str) -> datetime:
    """An ISO date (midnight UTC) or date and time (UTC unless it says)."""
    when = parse_datetime(text)
    if when is None:
        day = parse_date(text)
        if day is None:
            raise CommandError(f"{text!r} is not a date (2030-01-01) or a date and time (2030-01-01T12:00)")
        when = datetime(day.year, day.month, day.day)
    return when if timezone.is_aware(when) else when.replace(tzinfo=UTC)


class Command(BaseCommand):
    help = (
        "Run the fair-play detectors (co-seating, soft play, chip dumping, discard feeding, wins "
        "against one opponent, bot timing) over a window of the tables' log and open or update cases."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, help="the last N days, up to now")
        parser.add_argument("--since", help="the window's start (ISO date or date and time, UTC)")
        parser.add_argument("--until", help="the window's end (default: now)")
        parser.add_argument("--dry-run", action="store_true", help="report the findings, open no case")

    def handle(self, *args: Any, **options: Any) -> None:
        days, since = options["days"], options["since"]
        if (days is None) == (since is None):
            raise CommandError("give either --days N or --since WHEN")
        until = moment(options["until"]) if options["until"] else timezone.now()
        if days is not None:
            if days < 1:
                raise CommandError("--days must be 1 or more")
            start = until - timedelta(days=days)
        else:
            start = moment(since)
        if start >= until:
            raise CommandError("the window's start must come before its end")
        report = scan(start, until, file_cases=not options["dry_run"])
        for line in report.lines():
            self.stdout.write(line)
