"""Logs an operator can search: one JSON object a line, and one line per HTTP request.

:class:`JsonFormatter` writes the record's message, the process's id (``pid``: several daphnes
serve one port, ``rummysite.daphnes``) and every field passed in ``extra``
(``logger.info("table action", extra={"table": 7, ...})``). :class:`RequestLogMiddleware`
writes ``{"logger": "rummysite.request", "method", "path", "status", "duration_ms", "user"}``
for each request (the path without its query string). Table actions are logged by
:mod:`games.action_log`. Nothing here ever logs a card.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.http import HttpRequest, HttpResponse

#: The attributes every LogRecord has; anything else on a record came from ``extra``.
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "taskName"}

request_log = logging.getLogger("rummysite.request")


#: The timer tick Celery beat sends every second (``CELERY_BEAT_SCHEDULE``).
TICK_TASK = "games.tasks.tick"


class RoutineTicks(logging.Filter):
    """Leaves out the lines Celery writes at INFO for each timer tick: beat's "Sending due
    task", the worker's "received" and "succeeded", three lines a second that bury everything
    else. A warning or an error about a tick, and every other task's lines, still pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.INFO or TICK_TASK not in record.getMessage()


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,  # which process: several daphnes serve one port
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                # Django's own records carry the request: its query string may hold anything.
                entry[key] = f"{value.method} {value.path}" if isinstance(value, HttpRequest) else value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class RequestLogMiddleware:
    """One line per request: what was asked, the answer's status, how long, by whom."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        status = 500
        try:
            response = self.get_response(request)
            status = response.status_code
            return response
        finally:
            user = getattr(request, "user", None)
            request_log.info(
                "%s %s %s",
                request.method,
                request.path,
                status,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": status,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                    "user": user.pk if user is not None and user.is_authenticated else None,
                },
            )
