"""The Celery app. Tasks live in each app's ``tasks.py`` and are found automatically."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import task_prerun, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")

app = Celery("rummysite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The worker's heartbeat for /healthz (rummysite.heartbeat); beat's comes from its scheduler.
app.steps["consumer"].add("rummysite.heartbeat:WorkerHeartbeat")


def check_connections(**kwargs: Any) -> None:
    """Before each task, as before each request: a broken or old database connection is
    closed (``CELERY_DB_REUSE_MAX`` keeps it between tasks), and the next one health-checked."""
    from django.db import close_old_connections

    close_old_connections()


task_prerun.connect(check_connections)


def close_pools_before_forking(**kwargs: Any) -> None:
    """In the worker's main process, before its pool forks the processes that run the tasks:
    no pooled connection of the parent is inherited (hotpath.busy.close_before_fork)."""
    from hotpath.busy import close_before_fork

    close_before_fork()


worker_init.connect(close_pools_before_forking)
