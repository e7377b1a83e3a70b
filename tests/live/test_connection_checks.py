"""The actions' path checks its database connection once a second, not before every action,
and an action whose connection was lost runs again on a new one and applies once."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from games import live
from games.models import Table, TableEvent
from tests.conftest import terminate_backend
from tests.live.support import make_user, seat, turn_of

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("live_db")]


def _two_players() -> tuple[Table, Any]:
    alice, bob = make_user("alice"), make_user("bob")
    table = seat([alice, bob], seats=2, name="101 for two")
    mover = alice if turn_of(table.pk) == str(alice.pk) else bob
    return table, mover


def test_a_run_of_actions_health_checks_the_connection_once(monkeypatch):
    """The thread keeps its pooled connection between actions and hands it back once a second;
    the pool checks a connection each time it hands one out (CONN_HEALTH_CHECKS)."""
    assert connection.settings_dict["CONN_HEALTH_CHECKS"]
    assert connection.pool is not None, "PostgreSQL connections come from a pool (DB_POOL_SIZE)"
    table, mover = _two_players()
    connection.close()
    connection.ensure_connection()
    monkeypatch.setattr(live, "CONNECTION_CHECK_SECONDS", 60.0)
    monkeypatch.setattr(live._checked, "at", -60.0, raising=False)
    handed_out = connection.pool.get_stats().get("requests_num", 0)
    draw = {"id": "d1", "type": "draw", "source": "closed"}
    answers = [live._perform_checked(table.pk, mover, draw) for _ in range(3)]  # applied, then its receipt
    assert [answer.answer.get("ack") for answer in answers] == ["d1", "d1", "d1"]
    checked = connection.pool.get_stats().get("requests_num", 0) - handed_out
    assert checked == 1, "one connection handed out (and checked) for the three actions"


def test_an_action_whose_connection_was_lost_runs_again_and_applies_once():
    table, mover = _two_players()
    before = Table.objects.get(pk=table.pk).version
    live._checked.at = 10**9  # no check due: the action meets the lost connection itself
    try:
        pid = connection.cursor().connection.info.backend_pid
        terminate_backend(pid)
        performed = live._perform_checked(table.pk, mover, {"id": "lost", "type": "draw", "source": "closed"})
    finally:
        del live._checked.at
    assert performed.answer["ack"] == "lost"
    assert TableEvent.objects.filter(table=table, type="drew").count() == 1
    assert Table.objects.get(pk=table.pk).version == performed.answer["v"] > before
