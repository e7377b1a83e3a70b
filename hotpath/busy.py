"""Whether a database error means "every pooled connection is in use": the site is busy.

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
