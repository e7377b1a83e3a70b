"""Staff actions: each one transaction that does the thing and writes its one audit row.

Money moves only through the wallet (``wallet.ledger.reverse``, ``wallet.cashier``,
``wallet.operations``); a refused action (a ``WalletError`` or ``GameError``) rolls back and
leaves no audit row. Every action needs a staff user and a reason.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.db import transaction
from django.utils import timezone

from backoffice.models import AuditAction, AuditLog
from games import services
from games.engine import table as engine
from games.errors import GameError
from games.models import Seat, SeatStatus, Table, TableEvent, TableStatus, Visibility
from wallet import cashier, ledger
from wallet import operations as ops
from wallet.errors import Code, WalletError
from wallet.models import Currency, Journal, Withdrawal


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
    """Cancel a table whose game has not started and give every player their money back.

    ``games.services`` has no such function, so this does what the engine does when a table
    times out waiting for players (R-MONEY-4), under the table's row lock and in one
    transaction: the pool is refunded (``wallet.operations.refund_pool``, the same key as the
    engine's own refund) or each open 21-card seat released, the players marked as left, a
    ``cancelled`` event appended with the next version and published after commit.
    """
    reason = _check(by_user, reason)
    with transaction.atomic():
        table = Table.objects.select_for_update().select_related("template").get(pk=table_id)
        state = engine.TableState.from_json(table.state)
        if state.phase is not engine.Phase.WAITING:
            raise GameError(
                "game_running" if state.phase is not engine.Phase.CANCELLED else "table_closed",
                f"Table {table.pk} is {table.status}: "
                "only a table whose game has not started can be cancelled.",
            )
        currency = Currency(table.template.currency)
        open_seats = list(Seat.objects.filter(table=table, left_at__isnull=True))
        refund = None
        released = []
        try:
            if state.is_pool:
                refund = ops.refund_pool(
                    table.pool_ref, currency=currency, reason=f"cancelled by staff: {reason}"
                )
            else:
                for seat in open_seats:
                    if (
                        ledger.get_account(ledger.seat_spec(seat.seat_ref, seat.user_id, currency))
                        is not None
                    ):
                        released.append(ops.release_seat(seat.seat_ref, currency=currency).key)
        except WalletError as error:
            raise GameError.from_wallet(error) from None
        players = tuple(dataclasses.replace(p, status=engine.Status.LEFT) for p in state.players)
        final = dataclasses.replace(
            state,
            phase=engine.Phase.CANCELLED,
            countdown=False,
            ready=False,
            prize_pool=0,
            players=players,
            now_ms=max(state.now_ms, services.now_ms()),
        )
        data = {"reason": "cancelled by staff", "why": reason}
        table.version += 1
        TableEvent.objects.create(
            table=table, version=table.version, type="cancelled", data=data, visibility=Visibility.EVERYONE
        )
        now = timezone.now()
        for seat in open_seats:
            seat.status, seat.left_at = SeatStatus.LEFT, now
            seat.save(update_fields=["status", "left_at"])
        table.state = final.to_json()
        table.status = TableStatus.CANCELLED
        table.deadline = None
        table.deadline_version = None
        table.save(update_fields=["state", "status", "version", "deadline", "deadline_version", "updated_at"])
        record(
            by_user,
            AuditAction.CANCEL_TABLE,
            f"table:{table.pk}",
            reason,
            refund=None if refund is None else refund.key,
            released=released,
            players=[p.name for p in state.players],
        )
        published = [services.Published(table.pk, table.version, "cancelled", data, None)]
        transaction.on_commit(lambda: _publish(published))
    return table


def _publish(events: list[services.Published]) -> None:
    for publisher in list(services.publishers):
        publisher(events)
