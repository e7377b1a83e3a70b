"""A player as protection takes one (a user or an id), and the lock on their row."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from hotpath import statements


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
    LOCK.rows(uid(user))


def lock_statement(user: Any) -> statements.Statement:
    """:func:`lock` as a statement, to send with others (``statements.execute_many``)."""
    return LOCK.statement(uid(user))


def _locked_row(user_id: int) -> QuerySet[Any, Any]:
    from accounts.models import User

    return User.objects.select_for_update(no_key=True).filter(pk=user_id).order_by().values_list("pk")


#: The player's row, locked for the transaction (built the first time, in one).
LOCK = statements.Prepared(_locked_row, arity=1)
