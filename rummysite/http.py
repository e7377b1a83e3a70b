"""Django's HTTP under daphne, each request's middleware and view in one call to a thread.

Django's own ASGI handler runs a stack of synchronous middleware in a thread, hops back to the
event loop for the view's resolution (its innermost handler is asynchronous), then hops to the
thread again for the view: two more trips through the loop a request, which the tables' moves
share. Every middleware and view of this site is synchronous, so :class:`OneHopASGIHandler`
builds the stack as WSGI does and calls it once in the request's thread: the same middleware,
the same thread (Django's per-request one), two hops fewer (docs/PERFORMANCE.md, "What an
arrival costs"). An asynchronous view would still work, run by Django's sync stack through
``async_to_sync``.
"""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest
from django.http.response import HttpResponseBase


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler with its middleware chain built synchronous and run in one hop."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        # thread_sensitive: in the request's own thread (the handler's ThreadSensitiveContext),
        # where Django's stock handler runs its synchronous middleware.
        chain: Callable[[HttpRequest], HttpResponseBase] = self._middleware_chain  # type: ignore[has-type]
        self._middleware_chain = sync_to_async(chain, thread_sensitive=True)
