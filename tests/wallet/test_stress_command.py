"""The wallet_stress command itself, with small numbers (the full run is a benchmark, see docs/WALLET.md)."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from wallet import stress
from wallet.models import Journal


def operations(text: str, *, workers: int) -> int:
    match = re.search(
        rf"^(\d+) operations by {workers} workers in [\d.]+ s: [\d,]+ ops/s$", text, re.MULTILINE
    )
    assert match, text
    return int(match.group(1))


@pytest.mark.django_db
def test_it_runs_in_process_and_reconciles(settings):
    settings.PAYMENTS_SANDBOX = False  # production's setting: the stress brings its own provider
    out = StringIO()

    call_command("wallet_stress", workers=1, ops=200, seed=7, stdout=out)

    text = out.getvalue()
    assert 200 <= operations(text, workers=1) <= 200 + stress.MOST_CALLS_PER_SCENARIO - 1
    assert "no violations; the ledger reconciles" in text
    assert Journal.objects.filter(kind="entry_fee").exists()
    assert Journal.objects.filter(kind="withdrawal_paid").exists(), "withdrawals are exercised"
    assert "kyc_required" not in text, "the stress players are verified"
    assert "withdrawal:bad_request" not in text, "approvals pay out through the stress's provider"


@pytest.mark.django_db
def test_a_second_run_on_the_same_database_verifies_its_own_players():
    """Each run's players show documents of their own: one verified on an earlier run's account
    would be held for a reviewer, and every withdrawal of the run refused."""
    for seed in (7, 8):
        out = StringIO()
        call_command("wallet_stress", workers=1, ops=200, seed=seed, stdout=out)
        assert "kyc_required" not in out.getvalue()
    assert Journal.objects.filter(kind="withdrawal_paid").count() >= 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("processes", [2, 4])
def test_it_runs_writers_in_worker_processes_on_postgresql(processes):
    """Four writers at once (two threads in each of two processes, or a process each), long
    enough to meet the lock orders that once deadlocked (a withdrawal holding its player's row
    against a deposit naming that player)."""
    out = StringIO()

    call_command("wallet_stress", workers=4, ops=1500, seed=3, processes=processes, stdout=out)

    assert f"4 writers in {processes} processes" in out.getvalue()
    # Each worker may end a scenario of several calls past its share.
    assert 1500 <= operations(out.getvalue(), workers=4) <= 1500 + 4 * (stress.MOST_CALLS_PER_SCENARIO - 1)
    assert "no violations" in out.getvalue()


@pytest.mark.django_db
def test_it_exits_non_zero_on_a_violation(monkeypatch):
    monkeypatch.setattr(stress, "reconcile", lambda: ["account 1 user:1 INR: made up difference"])

    with pytest.raises(CommandError, match="1 violation"):
        call_command("wallet_stress", workers=1, ops=20, stdout=StringIO(), stderr=StringIO())
