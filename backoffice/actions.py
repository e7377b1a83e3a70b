"""Staff actions: each one transaction that does the thing and writes its one audit row.

Money moves only through the wallet (``wallet.ledger.reverse``, ``wallet.cashier``,
``wallet.operations``); a refused action (a ``WalletError`` or ``GameError``) rolls back and
leaves no audit row. Every action needs a staff user and a reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import transaction

from accounts.text import visible
from backoffice.models import (
    AuditAction,
    AuditLog,
    Closed,
    ReversalRequest,
    SecondStaffRequest,
    VoidRequest,
)
from games import services
from games.errors import GameError
from games.models import Table
from protection import kyc
from protection.models import Verification
from tournaments.models import RoundTable
from wallet import cashier, ledger
from wallet.errors import Code, WalletError
from wallet.models import Currency, Journal, JournalKind, Withdrawal

#: Pool money no staff member may reverse: reversing an entry or rejoin fee refunds a fee,
#: reversing a prize, split or rake skips the rake (R-MONEY-5; before the start, cancel the
#: table; after it, only the void of R-MONEY-7 gives fees back).
POOL_MONEY = frozenset(
    {
        JournalKind.ENTRY_FEE,
        JournalKind.REJOIN_FEE,
        JournalKind.PRIZE,
        JournalKind.SPLIT,
        JournalKind.RAKE,
        JournalKind.REFUND,
    }
)
#: A withdrawal's journals, which go with it (the reconciliation checks its status against
#: them): its hold, payout or release, its tax withheld or given back. A paid withdrawal that
#: comes back is corrected by a compensating entry (``correct_withdrawal``), itself never reversed.
WITHDRAWAL_MONEY = frozenset(
    {
        JournalKind.WITHDRAWAL_HOLD,
        JournalKind.WITHDRAWAL_PAID,
        JournalKind.WITHDRAWAL_RELEASED,
        JournalKind.TAX_WITHHELD,
        JournalKind.TAX_RETURNED,
    }
)
NOT_REVERSIBLE = POOL_MONEY | WITHDRAWAL_MONEY

R = TypeVar("R", bound=SecondStaffRequest)


def reversal_refused(journal: Journal) -> str:
    """Why staff may not reverse ``journal``, in words; "" when they may."""
    kind = journal.get_kind_display().lower()
    if journal.kind == JournalKind.REVERSAL:
        return "A reversal is not reversed again: post a new correction instead."
    if journal.kind in POOL_MONEY:
        return (
            f"A {kind} journal cannot be reversed: pool money comes back only by cancelling a "
            "table before its game starts, or by the void of a running game (R-MONEY-5, R-MONEY-7)."
        )
    if journal.kind in WITHDRAWAL_MONEY or (journal.meta or {}).get("withdrawal"):
        return (
            f"A {kind} journal cannot be reversed: a withdrawal's journals go with it, and a paid "
            "withdrawal that comes back is corrected with a compensating entry."
        )
    return ""


@dataclass(frozen=True)
class Moved:
    """What a journal moves: the sum of its transfers, and the players whose accounts they touch."""

    amount: int
    players: list[int]


def moved(journal: Journal) -> Moved:
    legs = list(journal.transfers.values_list("amount", "debit__owner_id", "credit__owner_id"))
    owners = {owner for _, *ends in legs for owner in ends if owner is not None}
    return Moved(sum(amount for amount, _, _ in legs), sorted(owners))


def needs_second_staff(journal: Journal, amount: int) -> bool:
    """The cashier's four eyes: a rupee journal moving more than ``WALLET_SECOND_APPROVAL_OVER``
    is reversed only when a second staff member confirms (chips are not money)."""
    return journal.currency == Currency.INR and amount > cashier.limit("WALLET_SECOND_APPROVAL_OVER")


def staff_reason(by_user: Any, reason: str, permission: str) -> str:
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


def reverse_journal(
    journal: Journal, reason: str, by_user: Any, *, player: int | None = None
) -> Journal | ReversalRequest:
    """Correct ``journal`` with a new journal moving every transfer back
    (``wallet.ledger.reverse``), with one audit row naming the player (``player``, else the one
    player whose accounts it moved). Above the cashier's four-eyes line it is only asked for: a
    :class:`ReversalRequest` that a second staff member confirms (:func:`confirm_reversal`)."""
    reason = staff_reason(by_user, reason, "backoffice.reverse_journal")
    refused = reversal_refused(journal)
    if refused:
        raise WalletError(Code.BAD_REQUEST, refused)
    money = moved(journal)
    owners = money.players
    named = player if player is not None else (owners[0] if len(owners) == 1 else None)
    with transaction.atomic():
        _not_reversed(journal)
        if not needs_second_staff(journal, money.amount):
            # A request asked under a lower line waits for its second member, whatever the line now.
            if ReversalRequest.waiting().filter(journal=journal).exists():
                raise GameError(
                    "already_requested", "A reversal of this journal is already waiting for confirmation."
                )
            return _reverse(journal, reason, by_user, reason, user=named, players=owners)
        request = ReversalRequest.ask(by_user, reason, journal=journal, player_id=named)
        record(
            by_user,
            AuditAction.REQUEST_REVERSAL,
            f"journal:{journal.pk}",
            reason,
            journal=journal.key,
            amount=money.amount,
            currency=journal.currency,
            request=request.pk,
            user=named,
            players=owners,
        )
    return request


def confirm_reversal(request_id: int, reason: str, by_user: Any) -> Journal:
    """The second pair of eyes on a reversal: a different staff member confirms, and the
    reversing journal is posted with the first member's reason; one audit row naming both."""
    reason = staff_reason(by_user, reason, "backoffice.reverse_journal")
    with transaction.atomic():
        request = ReversalRequest.take(request_id, by_user)
        journal = request.journal
        _not_reversed(journal)
        return _reverse(
            journal,
            request.reason,
            by_user,
            reason,
            user=request.player_id,
            players=moved(journal).players,
            request=request.pk,
            requested_by=request.requested_by_id,
            requested_reason=request.reason,
        )


def _not_reversed(journal: Journal) -> None:
    if Journal.objects.filter(reverses=journal).exists():
        raise WalletError(Code.ALREADY_REVERSED, f"Journal {journal.key} was already reversed.")


def _reverse(journal: Journal, why: str, by_user: Any, reason: str, **details: Any) -> Journal:
    """Post the ledger's correction of ``journal`` (``why`` kept in its meta) and its audit row
    (``reason``, the member's own), inside the caller's transaction."""
    reversal = ledger.reverse(journal, why, by_user)
    record(
        by_user,
        AuditAction.REVERSE_JOURNAL,
        f"journal:{journal.pk}",
        reason,
        journal=journal.key,
        reversal=reversal.key,
        reversal_id=reversal.pk,
        **details,
    )
    return reversal


def approve_withdrawal(withdrawal_id: int, reason: str, by_user: Any) -> Withdrawal:
    """Pay a requested withdrawal out through the cashier; one audit row."""
    reason = staff_reason(by_user, reason, "backoffice.decide_withdrawal")
    with transaction.atomic():
        withdrawal = cashier.approve_withdrawal(withdrawal_id, by_user)
        first = withdrawal.status == Withdrawal.Status.REQUESTED  # four eyes: waits for a second
        action = AuditAction.FIRST_APPROVAL if first else AuditAction.APPROVE_WITHDRAWAL
        _record_withdrawal(by_user, action, withdrawal, reason, withdrawal.decision_journal)
    return withdrawal


def reject_withdrawal(withdrawal_id: int, reason: str, by_user: Any) -> Withdrawal:
    """Give a requested withdrawal back to the player's wallet; one audit row."""
    reason = staff_reason(by_user, reason, "backoffice.decide_withdrawal")
    with transaction.atomic():
        withdrawal = cashier.reject_withdrawal(withdrawal_id, by_user, reason)
        _record_withdrawal(
            by_user, AuditAction.REJECT_WITHDRAWAL, withdrawal, reason, withdrawal.decision_journal
        )
    return withdrawal


def correct_withdrawal(withdrawal_id: int, reason: str, by_user: Any) -> Withdrawal:
    """A paid withdrawal came back: a compensating journal gives the money back; one audit row."""
    reason = staff_reason(by_user, reason, "backoffice.decide_withdrawal")
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
    reason = staff_reason(by_user, reason, "backoffice.cancel_table")
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

    reason = staff_reason(by_user, reason, "backoffice.ban_user")
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

    reason = staff_reason(by_user, reason, "backoffice.ban_user")
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
    reason = staff_reason(by_user, reason, "backoffice.void_game")
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != "playing":
            raise GameError(
                "not_playing", "Only a game that has started can be voided; cancel a waiting table instead."
            )
        if RoundTable.objects.filter(table_id=table.pk).exists():
            raise GameError(
                "tournament_table", "This table plays a tournament's round: void the tournament instead."
            )
        request = VoidRequest.ask(by_user, reason, table=table)
        record(by_user, AuditAction.REQUEST_VOID, f"table:{table.pk}", reason, request=request.pk)
    return request


def confirm_void(request_id: int, reason: str, by_user: Any) -> Table:
    """R-MONEY-7, the second pair of eyes: a different staff member confirms, and the game is
    voided through the table's own write path (every fee or hold back, no rake, no prize),
    with the players told the first member's reason."""
    reason = staff_reason(by_user, reason, "backoffice.void_game")
    with transaction.atomic():
        request = VoidRequest.take(request_id, by_user)
        table = services.void(request.table_id, request.reason)
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
    reason = staff_reason(by_user, reason, "backoffice.review_identity")
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


def close_request(kind: type[R], request_id: int, how: Closed, reason: str, by_user: Any) -> R:
    """Close a waiting four-eyes request without its action, with one audit row in the same
    transaction: withdrawn by the member who asked (who still holds the permission to ask), or
    declined by a different member holding the permission to confirm it. Nothing else is done;
    a new request for the same target may then be asked. Refused (``already_decided``) once
    the request is confirmed or closed."""
    withdrawn = how == Closed.WITHDRAWN
    reason = staff_reason(by_user, reason, kind.ask_permission if withdrawn else kind.confirm_permission)
    with transaction.atomic():
        try:
            request = kind.close(request_id, by_user, how, reason)
        except kind.DoesNotExist:
            raise GameError("no_request", f"There is no such {kind.what}.") from None
        record(
            by_user,
            AuditAction(kind.withdraw_action if withdrawn else kind.decline_action),
            request.target,
            reason,
            request=request.pk,
            requested_by=request.requested_by_id,
            requested_reason=request.reason,
        )
    return request


def withdraw_void(request_id: int, reason: str, by_user: Any) -> VoidRequest:
    """The member who asked for a void takes it back: the game goes on."""
    return close_request(VoidRequest, request_id, Closed.WITHDRAWN, reason, by_user)


def decline_void(request_id: int, reason: str, by_user: Any) -> VoidRequest:
    """A second member says no to a void: the game goes on."""
    return close_request(VoidRequest, request_id, Closed.DECLINED, reason, by_user)


def withdraw_reversal(request_id: int, reason: str, by_user: Any) -> ReversalRequest:
    """The member who asked for a reversal takes it back: the journal stands."""
    return close_request(ReversalRequest, request_id, Closed.WITHDRAWN, reason, by_user)


def decline_reversal(request_id: int, reason: str, by_user: Any) -> ReversalRequest:
    """A second member says no to a reversal: the journal stands."""
    return close_request(ReversalRequest, request_id, Closed.DECLINED, reason, by_user)
