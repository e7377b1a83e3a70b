"""The actions' path checks its database connection once a second, not before every action,
and an action whose connection was lost runs again on a new one and applies once."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, connections

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
    assert connection.settings_dict["CONN_HEALTH_CHECKS"]
    table, mover = _two_players()
    checks: list[bool] = []
    real = type(connections["default"]).is_usable

    def counted(self: Any) -> bool:
        checks.append(True)
        return bool(real(self))

    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", None)  # persistent, as in production
    connection.close()
    connection.ensure_connection()
    monkeypatch.setattr(type(connections["default"]), "is_usable", counted)
    monkeypatch.setattr(live, "CONNECTION_CHECK_SECONDS", 60.0)
    monkeypatch.setattr(live._checked, "at", -60.0, raising=False)
    draw = {"id": "d1", "type": "draw", "source": "closed"}
    answers = [live._perform_checked(table.pk, mover, draw) for _ in range(3)]  # applied, then its receipt
    assert [answer.answer.get("ack") for answer in answers] == ["d1", "d1", "d1"]
    assert len(checks) == 1, "one health check for the three actions, at the first"


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
