"""Staff actions: each one transaction that does the thing and writes its one audit row.

Money moves only through the wallet (``wallet.ledger.reverse``, ``wallet.cashier``,
``wallet.operations``); a refused action (a ``WalletError`` or ``GameError``) rolls back and
leaves no audit row. Every action needs a staff user and a reason.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from backoffice.models import AuditAction, AuditLog
from games import services
from games.models import Table
from wallet import cashier, ledger
from wallet.errors import Code, WalletError
from wallet.models import Journal, Withdrawal


def _check(by_user: Any, reason: str) -> str:
    if not getattr(by_user, "is_staff", False) or not getattr(by_user, "is_active", False):
        raise WalletError(Code.NOT_STAFF, "Only staff may do this.")
    reason = (reason or "").strip()
    if not reason:
        raise WalletError(Code.BAD_REQUEST, "Say why: a reason is required.")
    return reason


def record(by_user: Any, action: AuditAction, target: str, reason: str, **details: Any) -> AuditLog:
    """Append one audit row (inside the caller's transaction)."""
    return AuditLog.objects.create(
        actor=by_user, action=action, target=target[:120], reason=reason, details=details
    )


def reverse_journal(journal: Journal, reason: str, by_user: Any) -> Journal:
    """Post a journal that moves every transfer of ``journal`` back; one audit row."""
    reason = _check(by_user, reason)
    with transaction.atomic():
        if Journal.objects.filter(reverses=journal).exists():
            raise WalletError(Code.ALREADY_REVERSED, f"Journal {journal.key} was already reversed.")
        reversal = ledger.reverse(journal, reason, by_user)
        record(
            by_user,
            AuditAction.REVERSE_JOURNAL,
            f"journal:{journal.pk}",
            reason,
            journal=journal.key,
            reversal=reversal.key,
            reversal_id=reversal.pk,
        )
    return reversal


def approve_withdrawal(withdrawal_id: int, reason: str, by_user: Any) -> Withdrawal:
    """Pay a requested withdrawal out through the cashier; one audit row."""
    reason = _check(by_user, reason)
    with transaction.atomic():
        withdrawal = cashier.approve_withdrawal(withdrawal_id, by_user)
        record(
            by_user,
            AuditAction.APPROVE_WITHDRAWAL,
            f"withdrawal:{withdrawal.pk}",
            reason,
            user=withdrawal.user_id,
            amount=withdrawal.amount,
            journal=withdrawal.decision_journal.key if withdrawal.decision_journal else None,
        )
    return withdrawal


def reject_withdrawal(withdrawal_id: int, reason: str, by_user: Any) -> Withdrawal:
    """Give a requested withdrawal back to the player's wallet; one audit row."""
    reason = _check(by_user, reason)
    with transaction.atomic():
        withdrawal = cashier.reject_withdrawal(withdrawal_id, by_user, reason)
        record(
            by_user,
            AuditAction.REJECT_WITHDRAWAL,
            f"withdrawal:{withdrawal.pk}",
            reason,
            user=withdrawal.user_id,
            amount=withdrawal.amount,
            journal=withdrawal.decision_journal.key if withdrawal.decision_journal else None,
        )
    return withdrawal


def cancel_table(table_id: int, reason: str, by_user: Any) -> Table:
    """Cancel a table whose game has not started and give every player their money back
    (R-MONEY-4), through the table's own write path, with one audit row in the same
    transaction."""
    reason = _check(by_user, reason)
    with transaction.atomic():
        before = Table.objects.select_for_update().get(pk=table_id)
        players = [p["name"] for p in before.state.get("players", [])]
        table = services.cancel(table_id, reason)
        record(by_user, AuditAction.CANCEL_TABLE, f"table:{table.pk}", reason, players=players)
    return table
