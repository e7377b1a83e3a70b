"""The Celery app. Tasks live in each app's ``tasks.py`` and are found automatically."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")

app = Celery("rummysite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The worker's heartbeat for /healthz (rummysite.heartbeat); beat's comes from its scheduler.
app.steps["consumer"].add("rummysite.heartbeat:WorkerHeartbeat")
