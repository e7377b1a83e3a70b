"""Staff actions: each one transaction that does the thing and writes its one audit row.

Money moves only through the wallet (``wallet.ledger.reverse``, ``wallet.cashier``,
``wallet.operations``); a refused action (a ``WalletError`` or ``GameError``) rolls back and
leaves no audit row. Every action needs a staff user and a reason.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.text import visible
from backoffice.models import AuditAction, AuditLog, VoidRequest
from games import services
from games.errors import GameError
from games.models import Table
from protection import kyc
from protection.models import Verification
from wallet import cashier, ledger
from wallet.errors import Code, WalletError
from wallet.models import Journal, JournalKind, Withdrawal

#: Journals no staff member may reverse. Pool money: reversing an entry or rejoin fee refunds
#: a fee, reversing a prize, split or rake skips the rake (R-MONEY-5; before the start,
#: cancel the table; after it, only the void of R-MONEY-7). Withdrawals: a paid one is
#: corrected by a compensating entry (``correct_withdrawal``), its hold is never reversed.
NOT_REVERSIBLE = frozenset(
    {
        JournalKind.ENTRY_FEE,
        JournalKind.REJOIN_FEE,
        JournalKind.PRIZE,
        JournalKind.SPLIT,
        JournalKind.RAKE,
        JournalKind.REFUND,
        JournalKind.WITHDRAWAL_HOLD,
        JournalKind.WITHDRAWAL_PAID,
        JournalKind.WITHDRAWAL_RELEASED,
    }
)


def _check(by_user: Any, reason: str, permission: str) -> str:
    """A staff member whose role allows ``permission``, and a reason with something in it."""
    if not getattr(by_user, "is_staff", False) or not getattr(by_user, "is_active", False):
        raise WalletError(Code.NOT_STAFF, "Only staff may do this.")
    if not by_user.has_perm(permission):
        raise WalletError(Code.NOT_STAFF, "Your staff role does not allow this.")
    reason = visible(reason)
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
    reason = _check(by_user, reason, "backoffice.reverse_journal")
    if journal.kind in NOT_REVERSIBLE:
        raise WalletError(
            Code.BAD_REQUEST,
            f"A {journal.get_kind_display().lower()} journal cannot be reversed: pool money comes "
            "back only by cancelling a table before its game starts, and a withdrawal is "
            "corrected with a compensating entry.",
        )
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
    reason = _check(by_user, reason, "backoffice.decide_withdrawal")
    with transaction.atomic():
        withdrawal = cashier.approve_withdrawal(withdrawal_id, by_user)
        first = withdrawal.status == Withdrawal.Status.REQUESTED  # four eyes: waits for a second
        action = AuditAction.FIRST_APPROVAL if first else AuditAction.APPROVE_WITHDRAWAL
        _record_withdrawal(by_user, action, withdrawal, reason, withdrawal.decision_journal)
    return withdrawal


def reject_withdrawal(withdrawal_id: int, reason: str, by_user: Any) -> Withdrawal:
    """Give a requested withdrawal back to the player's wallet; one audit row."""
    reason = _check(by_user, reason, "backoffice.decide_withdrawal")
    with transaction.atomic():
        withdrawal = cashier.reject_withdrawal(withdrawal_id, by_user, reason)
        _record_withdrawal(
            by_user, AuditAction.REJECT_WITHDRAWAL, withdrawal, reason, withdrawal.decision_journal
        )
    return withdrawal


def correct_withdrawal(withdrawal_id: int, reason: str, by_user: Any) -> Withdrawal:
    """A paid withdrawal came back: a compensating journal gives the money back; one audit row."""
    reason = _check(by_user, reason, "backoffice.decide_withdrawal")
    with transaction.atomic():
        withdrawal = cashier.correct_withdrawal(withdrawal_id, by_user, reason)
        journal = withdrawal.correction_journal
        _record_withdrawal(by_user, AuditAction.CORRECT_WITHDRAWAL, withdrawal, reason, journal)
    return withdrawal


def _record_withdrawal(
    by_user: Any, action: AuditAction, withdrawal: Withdrawal, reason: str, journal: Journal | None
) -> None:
    """The audit row of a decision on a withdrawal, naming the journal it wrote, if any."""
    record(
        by_user,
        action,
        f"withdrawal:{withdrawal.pk}",
        reason,
        user=withdrawal.user_id,
        amount=withdrawal.amount,
        journal=journal.key if journal else None,
    )


def cancel_table(table_id: int, reason: str, by_user: Any) -> Table:
    """Cancel a table whose game has not started and give every player their money back
    (R-MONEY-4), through the table's own write path, with one audit row in the same
    transaction."""
    reason = _check(by_user, reason, "backoffice.cancel_table")
    with transaction.atomic():
        before = Table.objects.select_for_update().get(pk=table_id)
        players = [p["name"] for p in before.state.get("players", [])]
        table = services.cancel(table_id, reason)
        record(by_user, AuditAction.CANCEL_TABLE, f"table:{table.pk}", reason, players=players)
    return table


def ban_user(user_id: int, reason: str, by_user: Any) -> Any:
    """Ban a player: they can no longer sign in, and every session and token of theirs ends.
    Staff accounts are changed by the admin role, not banned here. One audit row."""
    from accounts.models import User
    from accounts.sessions import revoke_everything

    reason = _check(by_user, reason, "backoffice.ban_user")
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        if user.is_staff or user.is_superuser:
            raise WalletError(
                Code.BAD_REQUEST, "Staff accounts are not banned here; the admin role changes them."
            )
        if not user.is_active:
            raise WalletError(Code.ALREADY_DECIDED, f"{user.username} is already banned.")
        user.is_active = False
        user.save(update_fields=["is_active"])
        record(by_user, AuditAction.BAN_USER, f"user:{user.pk}", reason, username=user.username)
        revoke_everything(user)
    return user


def unban_user(user_id: int, reason: str, by_user: Any) -> Any:
    """Lift a ban; one audit row."""
    from accounts.models import User

    reason = _check(by_user, reason, "backoffice.ban_user")
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        if user.is_active:
            raise WalletError(Code.ALREADY_DECIDED, f"{user.username} is not banned.")
        user.is_active = True
        user.save(update_fields=["is_active"])
        record(by_user, AuditAction.UNBAN_USER, f"user:{user.pk}", reason, username=user.username)
    return user


def request_void(table_id: int, reason: str, by_user: Any) -> VoidRequest:
    """R-MONEY-7, the first pair of eyes: ask for the void of a running game. Nothing moves
    until another staff member confirms (:func:`confirm_void`)."""
    reason = _check(by_user, reason, "backoffice.void_game")
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != "playing":
            raise GameError(
                "not_playing", "Only a game that has started can be voided; cancel a waiting table instead."
            )
        if VoidRequest.objects.filter(table=table, confirmed_at__isnull=True).exists():
            raise GameError("already_requested", "A void of this game is already waiting for confirmation.")
        request = VoidRequest.objects.create(table=table, requested_by=by_user, reason=reason)
        record(by_user, AuditAction.REQUEST_VOID, f"table:{table.pk}", reason, request=request.pk)
    return request


def confirm_void(request_id: int, reason: str, by_user: Any) -> Table:
    """R-MONEY-7, the second pair of eyes: a different staff member confirms, and the game is
    voided through the table's own write path (every fee or hold back, no rake, no prize),
    with the players told the first member's reason."""
    reason = _check(by_user, reason, "backoffice.void_game")
    with transaction.atomic():
        request = VoidRequest.objects.select_for_update().get(pk=request_id)
        if request.confirmed_at is not None:
            raise GameError("already_decided", "This void was already confirmed.")
        if request.requested_by_id == by_user.pk:
            raise WalletError(Code.NOT_STAFF, "A void needs a second staff member: you asked for this one.")
        table = services.void(request.table_id, request.reason)
        request.confirmed_by, request.confirmed_at = by_user, timezone.now()
        request.save(update_fields=["confirmed_by", "confirmed_at"])
        record(
            by_user,
            AuditAction.VOID_GAME,
            f"table:{table.pk}",
            reason,
            request=request.pk,
            requested_by=request.requested_by_id,
            requested_reason=request.reason,
        )
    return table


def decide_identity(user_id: int, verified: bool, reason: str, by_user: Any) -> Verification:
    """Verify or reject a pending identity check (R-PROT-7): risk staff, with a reason, and
    never their own; one audit row. Raises ProtectionError when the check is not pending."""
    reason = _check(by_user, reason, "backoffice.review_identity")
    with transaction.atomic():
        done = kyc.decide(user_id, verified, by=by_user, reason=reason)
        record(
            by_user,
            AuditAction.VERIFY_IDENTITY if verified else AuditAction.REJECT_IDENTITY,
            f"user:{user_id}",
            reason,
            document_type=done.document_type,
            last_four=done.last_four,
        )
    return done
