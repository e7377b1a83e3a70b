"""The Celery worker opens no database connection per task: its connections come from the
process's pool (Celery's Django fix-up closed the connection around every task: a new
PostgreSQL backend for every tick), and a connection that broke meanwhile is replaced before
the next task."""

from __future__ import annotations

import pytest
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection

from rummysite.celery import app, check_connections
from tests.conftest import terminate_backend

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("transactional_db")]


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


def _opened() -> int:
    """Connections the process's pool has opened to the server so far."""
    return int(connection.pool.get_stats().get("connections_num", 0))


def test_the_worker_takes_its_connections_from_the_pool_and_opens_none_per_task(settings):
    assert connection.pool is not None, "PostgreSQL connections come from a pool (DB_POOL_SIZE)"
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] == 0, "the pool keeps connections, not Django"
    fixup = DjangoWorkerFixup(app)
    assert fixup.db_reuse_max == settings.CELERY_DB_REUSE_MAX >= 1000
    _task_runs(fixup)  # the pool opens its first connections
    connection.pool.wait(timeout=10)
    opened = _opened()
    pids = {_task_runs(fixup) for _ in range(5)}
    assert _opened() == opened, "no new connection for five tasks"
    assert len(pids) <= connection.pool.get_stats()["pool_size"]


def test_a_connection_that_broke_between_tasks_is_replaced_before_the_next():
    fixup = DjangoWorkerFixup(app)
    seen = {_task_runs(fixup) for _ in range(4)}
    for pid in seen:  # every connection the tasks used, as a server restart would
        terminate_backend(pid)
    assert _task_runs(fixup) not in seen
