"""Argon2id's work, in processes of its own below live play's priority, or in the caller's thread.

A password hash is a few tens of milliseconds of CPU, by design. In the process that also serves
the tables, a crowd arriving (a sign-up and a log-in each) takes a core's worth of it from the
moves, and each hash leaves its 19 MiB with the allocator. With ``PASSWORD_HASH_PROCESSES`` set
(``make run-prod`` and the Procfile give the daphnes one a core between them), the hashes run
in that many processes started for them, each lowered by ``PASSWORD_HASH_NICE`` (10): when the
machine is busy the kernel gives the tables' process the CPU first and a log-in waits a little
longer, and the memory stays in those processes. With 0 (the embedded default, the tests, the management
commands) the hash runs in the caller's thread, as before.

The request's thread waits for its hash: only that request waits; the tables' database threads
are another pool. A hashing process that dies (killed for memory, say) breaks the pool: the next
hash starts a new one and tries once more, so a log-in never fails for it.

This module imports no Django and nothing of the project: the hashing processes load it alone
(the ``forkserver`` start method preloads it, so each new process is a fork of a small one).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

import argon2

T = TypeVar("T")

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_shape: tuple[int, int] = (0, 0)


def hash_secret(
    secret: bytes, salt: bytes, time_cost: int, memory_cost: int, parallelism: int, hash_len: int
) -> bytes:
    """Argon2id's encoded hash of ``secret`` (``$argon2id$v=19$...``)."""
    return argon2.low_level.hash_secret(
        secret,
        salt,
        time_cost=time_cost,
        memory_cost=memory_cost,
        parallelism=parallelism,
        hash_len=hash_len,
        type=argon2.low_level.Type.ID,
    )


def verify(encoded: str, password: str) -> bool:
    """Whether ``password`` is the one ``encoded`` (an Argon2 hash, ``$argon2...``) was made from."""
    try:
        return bool(argon2.PasswordHasher().verify(encoded, password))
    except argon2.exceptions.VerificationError:
        return False


def worker_pid() -> tuple[int, int]:
    """The process a call runs in and its niceness (for the tests and the load harness)."""
    return os.getpid(), os.nice(0)


def run(processes: int, nice: int, function: Callable[..., T], *args: object) -> T:
    """``function(*args)`` in one of ``processes`` hashing processes lowered by ``nice``, or in
    this thread when ``processes`` is 0. ``function`` must be one of this module's."""
    if processes <= 0:
        return function(*args)
    pool = _executor(processes, nice)
    try:
        return pool.submit(function, *args).result()
    except BrokenProcessPool:
        # A hashing process died: start a new pool and try once more.
        _discard(pool)
        return _executor(processes, nice).submit(function, *args).result()


def _lower_priority(nice: int) -> None:
    os.nice(nice)


def _executor(processes: int, nice: int) -> ProcessPoolExecutor:
    global _pool, _shape
    with _lock:
        if _pool is None or _shape != (processes, nice):
            if _pool is not None:
                _pool.shutdown(wait=False)
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__])
            _pool = ProcessPoolExecutor(processes, context, initializer=_lower_priority, initargs=(nice,))
            _shape = (processes, nice)
        return _pool


def _discard(broken: ProcessPoolExecutor | None) -> None:
    """Forget ``broken`` (None: whichever pool there is), unless another thread already has."""
    global _pool
    with _lock:
        if _pool is not None and (broken is None or _pool is broken):
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None


def shutdown() -> None:
    """Stop the hashing processes (they also stop with the process that started them)."""
    _discard(None)
