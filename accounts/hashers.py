"""The password hasher: Django's PBKDF2 (its algorithm name and stored hashes unchanged), which
hands the thread's pooled database connection back while it works.

Hashing a password is the one deliberately slow step of a request: about half a second of CPU
for a sign-up, a log-in, a reset. A request holds its pooled connection from its first query to
its end (docs/DEPLOY.md, "Database connections"), so a crowd signing up at once held every
connection of the pool through its hashing and the pages behind it waited for one. When no
transaction is open, the connection goes back to the pool before the hashing and the next query
takes one again; inside a transaction it is kept (the transaction needs it), so callers hash
before they open one (``accounts.registration.register``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import hashers
from django.db import connection


def _hand_back_the_connection() -> None:
    if connection.connection is not None and not connection.in_atomic_block and _pooled():
        connection.close()


def _pooled() -> bool:
    return bool(connection.settings_dict.get("OPTIONS", {}).get("pool"))


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
