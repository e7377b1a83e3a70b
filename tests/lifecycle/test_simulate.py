"""manage.py simulate: whole games of every variant through the services, checked as they go.
A small run on PostgreSQL is followed by wallet_reconcile; on SQLite a seed gives the same run
twice."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import services
from games.models import Table, TableTemplate
from games.simulate import CHANCES, simulate


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_small_simulation_of_every_variant_reconciles_on_postgresql():
    out = io.StringIO()
    call_command("simulate", "--games", "2", "--seed", "14", stdout=out)
    text = out.getvalue()
    assert "points13 2, pool101 2, pool201 2, pool61 2, deals 6, points21 2" in text
    assert "all held" in text
    ledger = io.StringIO()
    call_command("wallet_reconcile", stdout=ledger)
    assert ledger.getvalue().startswith("ledger reconciles")
    assert not TableTemplate.objects.filter(name__startswith="sim14-", active=True).exists()


@pytest.mark.django_db
def test_a_seed_plays_the_same_games_again():
    first = simulate(1, "all", 21)
    second = simulate(1, "all", 21)
    assert first.lines(timing=False) == second.lines(timing=False)
    assert not first.violations
    assert first.pool_games == 3 + 3, "pool 101, 201, 61; deals best of 2, 3 and 6"
    assert first.games["deals"] == 3
    assert first.deals["points21"] >= 3
    assert first.deals["points13"] >= 1
    assert first.checks > 20
    assert services.new_seed.__module__ == "games.engine.shuffle", "live play keeps its CSPRNG"
    assert services.after_commit, "publishing is back after the run"


@pytest.mark.django_db
def test_every_kind_of_event_the_simulator_plays_comes_up(monkeypatch):
    """With every chance raised, a short run has drops, wrong shows, missed moves, leaves,
    rejoins, split votes and top-ups."""
    for name in ("wrong_show", "leave_between", "newcomer", "missed_move"):
        monkeypatch.setitem(CHANCES, name, min(1.0, CHANCES[name] * 3))
    summary = simulate(3, "all", 5)
    assert not summary.violations
    events = summary.events
    for name in ("first drops", "wrong shows", "missed moves", "split votes", "points top-ups"):
        assert events[name] > 0, name
    assert events["leaves mid-deal"] + events["leaves between deals"] > 0
    assert summary.money["INR"]["rake"] > 0
    assert summary.money["CHIPS"]["rake"] > 0


@pytest.mark.django_db
def test_a_violation_exits_non_zero(monkeypatch):
    """A pool account that does not match the prize pool is reported, and the command fails."""
    from games import simulate as module

    real = module.Simulator.after_deal

    def broken(self, table, state, currency):
        real(self, table, state, currency)
        self.check(False, "a planted violation")

    monkeypatch.setattr(module.Simulator, "after_deal", broken)
    with pytest.raises(CommandError):
        call_command("simulate", "--games", "1", "--variant", "pool61", "--seed", "1", stdout=io.StringIO())
    assert Table.objects.exists()


def test_the_summary_writes_money_with_the_one_formatter():
    """Rupees the Indian way (lakhs), chips as chips: never ₹354,414.83."""
    from games.simulate import Summary

    summary = Summary(seed=1, variants=("pool101",))
    summary.money["INR"]["rake"] = 35441483
    summary.money["CHIPS"]["rake"] = 12500000
    text = "\n".join(summary.lines(timing=False))
    assert "rake ₹3,54,414.83" in text
    assert "rake 1,25,000 chips" in text
    assert "354,414" not in text
