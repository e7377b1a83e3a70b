"""The scan end to end: a short simulation with planted cheats is found in the tables' log, the
cases hold figures and finished deals only, a rerun updates the same cases, and the scan is
scheduled (Celery beat in production, daphne's embedded schedule by default)."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from fairplay import evidence, proof, schedule
from fairplay.models import Case
from games import bots, simulate
from games import planted as games_planted
from games.models import Deal
from games.simulate import START_MS

SIMULATED = datetime.fromtimestamp(START_MS / 1000, tz=UTC)


@pytest.fixture
def planted(db, monkeypatch):  # type: ignore[no-untyped-def]
    """A short 13-card points run among 8 players with one feeding pair, seated together at every
    table. The honest players play every hand out (no drops), so a few games hold many turns."""
    monkeypatch.setattr(games_planted, "TOGETHER", {"INR": 1.0, "CHIPS": 1.0})
    monkeypatch.setitem(simulate.CHANCES, "first_drop", 0.0)
    monkeypatch.setitem(simulate.CHANCES, "middle_drop", 0.0)
    monkeypatch.setattr(bots, "HOPELESS_SHARE", 2.0)
    return proof.run(10, "points13", 7, players=8, cheats={"feed": 1})


def test_a_short_planted_simulation_finds_its_pair_with_figures_and_finished_deals_only(planted):
    rows = {row.kind: row for row in planted.rows}
    assert (rows["feed"].planted, rows["feed"].found, rows["feed"].flagged) == (1, 1, 1)
    assert planted.honest == [], "no finding names only honest players"
    (pair,) = [tuple(sorted(ids)) for kind, ids in planted.summary.planted if kind == "feed"]
    case = Case.objects.get(kind="discard_feeding")
    assert case.key == f"discard_feeding:{pair[0]}-{pair[1]}"
    assert tuple(sorted(u.pk for u in case.subjects.all())) == pair
    figures = case.evidence["detail"]
    assert figures["taken_from_open_pile"] == figures["chances"] >= 12
    assert 0.1 < figures["baseline_take_rate"]["points13"] < 0.5
    assert case.score == pytest.approx(figures["times_expected"], abs=0.1)
    # What the risk desk reads: the figure beside its baseline, and the counts.
    (headline,) = case.evidence["figures"]
    assert headline == {
        "name": "discards_taken_from_partner",
        "value": figures["taken_from_open_pile"],
        "baseline": figures["expected"],
    }
    assert case.evidence["counts"]["chances"] == figures["chances"]
    assert "taker" not in case.evidence["counts"], "players are named with the case, not counted"
    assert evidence.figures(case.evidence)[0].sentence.startswith(
        f"Discards taken from the partner: {figures['taken_from_open_pile']}, where "
    )
    deal_ids = case.evidence["deals"]
    assert len(deal_ids) == case.evidence["deals_count"] > 3
    assert Deal.objects.filter(pk__in=deal_ids, finished_at__isnull=False).count() == len(deal_ids)
    text = str(case.evidence)
    assert "hand" not in text, "no card of any deal in a case"
    assert "'card'" not in text


def test_a_rerun_updates_the_same_cases_and_leaves_a_dismissed_one_alone(planted):
    before = dict(Case.objects.values_list("key", "pk"))
    assert before
    Case.objects.update(score=0)
    dismissed = Case.objects.get(kind="discard_feeding")
    dismissed.status = "dismissed"
    dismissed.save()
    out = io.StringIO()
    call_command("fairplay_scan", "--since", "2030-01-01", "--until", "2030-02-01", stdout=out)
    assert f"cases opened or updated: {len(before)}" in out.getvalue()
    assert dict(Case.objects.values_list("key", "pk")) == before, "no case opened twice"
    dismissed.refresh_from_db()
    assert (dismissed.status, dismissed.score) == ("dismissed", 0), "staff's decision stands"
    for case in Case.objects.exclude(pk=dismissed.pk):
        assert case.score > 0, "each open case's figures brought up to date"


@pytest.mark.django_db
def test_the_command_refuses_a_window_it_cannot_read():
    for args in ([], ["--days", "1", "--since", "2030-01-01"], ["--since", "soon"], ["--days", "0"]):
        with pytest.raises(CommandError):
            call_command("fairplay_scan", *args, stdout=io.StringIO())
    with pytest.raises(CommandError, match="before its end"):
        call_command("fairplay_scan", "--since", "2030-02-01", "--until", "2030-01-01", stdout=io.StringIO())


@pytest.mark.django_db
def test_an_empty_window_finds_nothing():
    out = io.StringIO()
    call_command("fairplay_scan", "--days", "7", stdout=out)
    assert "0 finished deals" in out.getvalue()
    assert "findings: none" in out.getvalue()
    assert not Case.objects.exists()


def test_the_scan_is_scheduled_on_beat_and_registered_with_celery():
    from rummysite.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["fairplay-scan"]
    assert entry["task"] == "fairplay.tasks.scan"
    assert entry["schedule"] == settings.FAIRPLAY_SCAN_EVERY_SECONDS >= 60
    app.loader.import_default_modules()
    assert "fairplay.tasks.scan" in app.tasks


def test_the_embedded_schedule_runs_only_inside_daphne():
    assert schedule.start_with_daphne() is False


@pytest.mark.django_db
def test_the_beat_task_scans_the_last_days(monkeypatch):
    from fairplay import tasks

    seen = {}

    def fake_scan(since, until):  # type: ignore[no-untyped-def]
        seen["days"] = until - since

        class Report:
            deals, findings, cases = 0, [], []

        return Report()

    monkeypatch.setattr(tasks, "run_scan", fake_scan)
    assert tasks.scan() == {"deals": 0, "findings": 0, "cases": 0}
    assert seen["days"] == timedelta(days=settings.FAIRPLAY_SCAN_WINDOW_DAYS)


def test_the_embedded_scan_waits_an_interval_before_its_first_run(monkeypatch):
    """A restart does not rescan at once: the first scan comes an interval after start-up."""
    import asyncio

    seen: list[str] = []

    async def nap(seconds: float) -> None:
        seen.append(f"nap {seconds:g}")
        if len(seen) > 2:
            raise asyncio.CancelledError

    monkeypatch.setattr(schedule.asyncio, "sleep", nap)
    monkeypatch.setattr(schedule, "database_sync_to_async", lambda run, **_: _awaitable(run))
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(schedule._every(60.0, lambda: seen.append("scan"), "fairplay-scan", first_at_once=False))
    assert seen == ["nap 60", "scan", "nap 60"]


def _awaitable(run):  # type: ignore[no-untyped-def]
    async def call() -> None:
        run()

    return call
