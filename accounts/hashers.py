"""The password hashers: Argon2id at the parameters OWASP recommends for new passwords, and
Django's PBKDF2 to check the passwords stored before it (each upgraded to Argon2id at its
next log-in); both hand the thread's pooled database connection back while they work, and
Argon2's work runs where ``accounts.password_work`` puts it (processes of its own, below the
tables' priority, under ``make run-prod``).

Argon2id with 19 MiB of memory, two passes and one lane (OWASP's Password Storage Cheat Sheet)
is memory-hard where PBKDF2 is not, and costs a few tens of milliseconds of CPU where Django's
PBKDF2 of a million iterations costs half a second: a crowd signing up at once is the site's
heaviest load, and it no longer decides how many players can arrive at a time
(docs/DECISIONS.md).

Hashing a password is the one deliberately slow step of a request: a sign-up, a log-in, a
reset. A request holds its pooled connection from its first query to
its end (docs/DEPLOY.md, "Database connections"), so a crowd signing up at once held every
connection of the pool through its hashing and the pages behind it waited for one. When no
transaction is open, the connection goes back to the pool before the hashing and the next query
takes one again; inside a transaction it is kept (the transaction needs it), so callers hash
before they open one (``accounts.registration.register``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import hashers
from django.db import connection

from accounts import password_work

T = TypeVar("T")


def _hand_back_the_connection() -> None:
    if connection.connection is not None and not connection.in_atomic_block and _pooled():
        connection.close()


def _pooled() -> bool:
    return bool(connection.settings_dict.get("OPTIONS", {}).get("pool"))


class Argon2PasswordHasher(hashers.Argon2PasswordHasher):
    """Argon2id, ``argon2``, at OWASP's 19 MiB, two passes, one lane (Django's default is 100
    MiB and eight lanes: several times the CPU a sign-up, for a machine of many cores)."""

    time_cost = 2
    memory_cost = 19_456
    parallelism = 1

    def encode(self, password: str, salt: str) -> str:
        _hand_back_the_connection()
        params = self.params()
        data = _work(
            password_work.hash_secret,
            password.encode(),
            salt.encode(),
            params.time_cost,
            params.memory_cost,
            params.parallelism,
            params.hash_len,
        )
        return "argon2" + data.decode("ascii")

    def verify(self, password: str, encoded: str) -> bool:
        _hand_back_the_connection()
        algorithm, rest = encoded.split("$", 1)
        if algorithm != "argon2":
            return False
        return _work(password_work.verify, "$" + rest, password)


def _work(function: Callable[..., T], *args: object) -> T:
    """Argon2's work where the settings put it: ``PASSWORD_HASH_PROCESSES`` processes of its
    own (``accounts.password_work``), or this thread."""
    return password_work.run(settings.PASSWORD_HASH_PROCESSES, settings.PASSWORD_HASH_NICE, function, *args)


class PBKDF2PasswordHasher(hashers.PBKDF2PasswordHasher):
    """Django's own, ``pbkdf2_sha256``: every stored hash verifies as before."""

    def encode(self, password: str, salt: str, iterations: int | None = None) -> str:
        _hand_back_the_connection()
        return super().encode(password, salt, iterations)

    def verify(self, password: str, encoded: str) -> bool:
        _hand_back_the_connection()
        return bool(super().verify(password, encoded))

    def harden_runtime(self, password: str, encoded: str) -> Any:
        _hand_back_the_connection()
        return super().harden_runtime(password, encoded)
