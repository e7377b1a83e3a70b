"""The process's connection pool: whether a database error means "every pooled connection is in
use" (the site is busy), and closing the pools before the process forks.

A process takes its PostgreSQL connections from a pool of ``DB_POOL_SIZE``
(rummysite/settings.py); a request that waits ``DB_POOL_TIMEOUT`` seconds for one gets
psycopg_pool's ``PoolTimeout``, which Django wraps in its own ``OperationalError``. The pages
and the API answer that with 503 and "try again", not with a 500 for a bug. Imports Django's
error classes and psycopg_pool only.
"""

from __future__ import annotations

#: Seconds a client is asked to wait before trying again (the ``Retry-After`` header).
RETRY_AFTER_SECONDS = 5
BUSY = "The site is busy right now: please try again in a few seconds."


def pool_exhausted(error: BaseException | None) -> bool:
    """True when ``error`` (or what it wraps) is the pool's timeout waiting for a connection."""
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # SQLite only: no pool
        return False
    seen = 0
    while error is not None and seen < 5:
        if isinstance(error, PoolTimeout):
            return True
        error = error.__cause__ or error.__context__
        seen += 1
    return False


def close_before_fork() -> None:
    """Close this process's database connections and its pools, before it forks workers (the
    Celery worker's prefork pool, ``wallet_stress``'s writers): a child inherits the parent's
    memory, and a pooled socket used by two processes breaks both. Each child opens its own."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close()
        close_pool = getattr(connection, "close_pool", None)
        if close_pool is not None and connection.settings_dict.get("OPTIONS", {}).get("pool"):
            close_pool()
