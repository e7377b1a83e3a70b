"""A bare ASGI application for the tests of ``rummysite.daphnes``: each HTTP request is answered
with the id of the process that served it (``/hashing``: its ``PASSWORD_HASH_PROCESSES``);
``/hold?<path>`` first creates the file ``<path>`` (so the
test knows it is being served), then blocks that process's event loop for three seconds, as a
busy interpreter would."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    if scope["path"] == "/hold":
        Path(scope["query_string"].decode()).touch()
        time.sleep(3.0)
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    answer = os.environ.get("PASSWORD_HASH_PROCESSES", "") if scope["path"] == "/hashing" else os.getpid()
    await send({"type": "http.response.body", "body": str(answer).encode()})
