"""The wallet_stress command itself, with small numbers (the full run is a benchmark, see docs/WALLET.md)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from wallet import stress
from wallet.models import Journal


@pytest.mark.django_db
def test_it_runs_in_process_and_reconciles():
    out = StringIO()

    call_command("wallet_stress", workers=1, ops=200, seed=7, stdout=out)

    text = out.getvalue()
    assert "200 operations by 1 workers" in text
    assert "no violations; the ledger reconciles" in text
    assert Journal.objects.filter(kind="entry_fee").exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_runs_worker_processes_on_postgresql():
    out = StringIO()

    call_command("wallet_stress", workers=2, ops=200, seed=3, stdout=out)

    assert "200 operations by 2 workers" in out.getvalue()
    assert "no violations" in out.getvalue()


@pytest.mark.django_db
def test_it_exits_non_zero_on_a_violation(monkeypatch):
    monkeypatch.setattr(stress, "reconcile", lambda: ["account 1 user:1 INR: made up difference"])

    with pytest.raises(CommandError, match="1 violation"):
        call_command("wallet_stress", workers=1, ops=20, stdout=StringIO(), stderr=StringIO())
