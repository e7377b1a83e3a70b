"""A player as protection takes one (a user or an id), and the lock on their row."""

from __future__ import annotations

from typing import Any

from django.db import connection

import statements


def uid(user: Any) -> int:
    return user if isinstance(user, int) else int(user.pk)


def lock(user: Any) -> None:
    """Serialise one player's protection changes, deposits and withdrawals (and their joins:
    ``games.services`` locks the same row first).

    FOR NO KEY UPDATE, not FOR UPDATE: every ledger write that names the player (a journal's
    ``created_by``, a new account's owner) takes a key-share lock on this row, which FOR UPDATE
    would block. A withdrawal holding the player's row while it waits for their wallet account,
    and a deposit's confirmation holding that account while it names the player, deadlocked
    (seen under ``wallet_stress`` on PostgreSQL)."""
    statements.execute(*lock_statement(user))


def lock_statement(user: Any, *columns: str) -> statements.Statement:
    """:func:`lock` as a statement, to send with others (``statements.execute_many``), reading
    ``columns`` of the player's row (its id if none are named)."""
    from accounts.models import User

    quote = connection.ops.quote_name
    names = ", ".join(quote(str(statements.column(User, name).column)) for name in columns or ("id",))
    for_update = " FOR NO KEY UPDATE" if connection.features.has_select_for_no_key_update else ""
    table = quote(User._meta.db_table)
    # Only the model's own names and one %s placeholder are formatted in.
    return f"SELECT {names} FROM {table} WHERE {quote('id')} = %s{for_update}", [uid(user)]  # noqa: S608
