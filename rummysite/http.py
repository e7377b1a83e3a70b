"""Django's HTTP under daphne: each request's middleware and view in one call to a thread, and
that thread lent from a pool rather than started for the request.

Django's own ASGI handler runs a stack of synchronous middleware in a thread, hops back to the
event loop for the view's resolution (its innermost handler is asynchronous), then hops to the
thread again for the view: two more trips through the loop a request, which the tables' moves
share. Every middleware and view of this site is synchronous, so :class:`OneHopASGIHandler`
builds the stack as WSGI does and calls it once in the request's thread: the same middleware,
the same thread, two hops fewer (docs/PERFORMANCE.md, "What an arrival costs"). An
asynchronous view would still work, run by Django's sync stack through ``async_to_sync``.

Django's handler also gives each request a thread of its own (asgiref's
``ThreadSensitiveContext``): it starts one for the request and, once the request is answered,
starts another to join it. The event loop waits for each of them to start, and under load a new
thread waits for the interpreter behind the threads already running moves: the loop, and every
table it serves, stalled twice a request. :class:`RequestThreads` lends each request a thread
kept from an earlier one instead, as a WSGI server's thread pool does. A request still runs all
its synchronous code (the ``request_started`` signal, the middleware and view, the
``request_finished`` signal that closes its database connection) in one thread, which no other
request uses meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest
from django.http.response import HttpResponseBase


class RequestThreads:
    """Threads lent to one request at a time: each a single-thread executor (asgiref runs a
    request's thread-sensitive calls on the executor of its ``ThreadSensitiveContext``). A
    thread is started the first time its executor is lent; up to ``keep`` idle ones are kept."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._idle: list[ThreadPoolExecutor] = []

    def lend(self) -> ThreadPoolExecutor:
        try:
            return self._idle.pop()
        except IndexError:
            return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def take_back(self, executor: ThreadPoolExecutor) -> None:
        """The request is over. A thread still busy (its request was cancelled while its view
        ran) finishes that first, then serves the next request it is lent to."""
        if len(self._idle) < self.keep:
            self._idle.append(executor)
        else:
            executor.shutdown(wait=False)

    def idle(self) -> int:
        return len(self._idle)


#: Idle request threads a process keeps: more than a daphne serves requests at once on a busy
#: evening; a burst beyond it starts threads, as Django's handler would, and lets them go.
KEEP_REQUEST_THREADS = 32


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler with its middleware chain built synchronous and run in one hop, in
    a thread lent from :class:`RequestThreads`."""

    def __init__(self) -> None:
        super().__init__()
        self.threads = RequestThreads(KEEP_REQUEST_THREADS)

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        # thread_sensitive: in the request's own thread (its ThreadSensitiveContext's executor),
        # where Django's stock handler runs its synchronous middleware.
        chain: Callable[[HttpRequest], HttpResponseBase] = self._middleware_chain  # type: ignore[has-type]
        self._middleware_chain = sync_to_async(chain, thread_sensitive=True)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":  # as Django's handler
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = self.threads.lend()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self.threads.take_back(executor)
