"""The Celery worker keeps its database connection between tasks (Celery's Django fix-up
closed it around every task: a new PostgreSQL backend for every tick), and a connection that
broke meanwhile is replaced before the next task."""

from __future__ import annotations

import pytest
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection

from rummysite.celery import app, check_connections
from tests.conftest import terminate_backend

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("transactional_db")]


@pytest.fixture(autouse=True)
def kept_connections(monkeypatch):  # type: ignore[no-untyped-def]
    """Connections kept for a minute, as production keeps them (tests may set no age)."""
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    connection.close()


def _backend() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    return int(pid)


def _task_runs(fixup: DjangoWorkerFixup) -> int:
    """What the worker does around one task, the task being one query: its backend's pid."""
    task = app.tasks["games.tasks.tick"]
    fixup.on_task_prerun(sender=task)
    check_connections()
    try:
        return _backend()
    finally:
        fixup.on_task_postrun(sender=task)


def test_the_worker_keeps_its_database_connection_between_tasks(settings):
    fixup = DjangoWorkerFixup(app)
    assert fixup.db_reuse_max == settings.CELERY_DB_REUSE_MAX >= 1000
    pids = {_task_runs(fixup) for _ in range(5)}
    assert len(pids) == 1, f"one connection for five tasks, not {len(pids)}"


def test_a_connection_that_broke_between_tasks_is_replaced_before_the_next():
    fixup = DjangoWorkerFixup(app)
    first = _task_runs(fixup)
    terminate_backend(first)
    assert _task_runs(fixup) != first
