"""An approved withdrawal's payout goes to the provider after the approval commits, with no lock
held, and is sent again by the minute's sweep when its answer was never recorded
(wallet.payouts)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection

from tests.conftest import make_user
from tests.wallet.support import _fast_password_hashing, fund, wallet  # noqa: F401 (fixtures)
from wallet import cashier, payouts, providers
from wallet.errors import WalletError
from wallet.ledger import balance_of, cashier_spec, withdrawal_hold_spec
from wallet.models import Journal, Withdrawal

#: psycopg.pq.TransactionStatus.IDLE: no transaction open on the connection.
IDLE = 0


class Gateway(providers.SandboxProvider):
    """The sandbox, noting what it saw at each payout it was sent; ``down`` makes it fail."""

    def __init__(self, *, down: bool = False) -> None:
        super().__init__()
        self.down = down
        self.seen: list[dict[str, Any]] = []

    def send_payout(self, withdrawal: Withdrawal) -> str:
        stored = Withdrawal.objects.get(pk=withdrawal.pk)
        self.seen.append(
            {
                "withdrawal": withdrawal.pk,
                "in_atomic_block": connection.in_atomic_block,
                "transaction": connection.connection.info.transaction_status
                if connection.vendor == "postgresql"
                else None,
                "stored_status": stored.status,
                "stored_journal": stored.decision_journal_id,
            }
        )
        if self.down:
            raise ConnectionError("the gateway timed out")
        return super().send_payout(withdrawal)


def requested(user: Any, amount: int = 2_000_00) -> Withdrawal:
    fund(user, amount * 2)
    return cashier.request_withdrawal(user, amount)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_payout_is_sent_once_the_approval_has_committed_with_no_lock_held():
    # (A transactional test starts with no staff groups: the migrations' rows are flushed.)
    alice, sam = make_user("alice"), make_user("sam", staff=True, role=None)
    withdrawal = requested(alice)
    gateway = Gateway()

    paid = cashier.approve_withdrawal(withdrawal.pk, sam, provider=gateway)

    (seen,) = gateway.seen
    assert seen["in_atomic_block"] is False
    assert seen["transaction"] == IDLE  # no transaction, so no row of the ledger locked
    assert seen["stored_status"] == Withdrawal.Status.PAID  # committed before the gateway heard
    assert seen["stored_journal"] == paid.decision_journal_id is not None
    stored = Withdrawal.objects.get(pk=withdrawal.pk)
    assert stored.provider_ref == paid.provider_ref == f"sandbox-pay-{withdrawal.pk}"
    assert stored.payout_claimed_at is None
    assert not stored.payout_pending


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_inside_the_back_offices_transaction_the_payout_waits_for_its_commit(monkeypatch):
    """The back office approves inside its own transaction with the audit row: the gateway is
    called only once both are committed."""
    from backoffice import actions
    from backoffice.models import AuditAction, AuditLog

    alice, sam = make_user("alice"), make_user("sam", staff=True, role=None)
    sam.is_superuser = True  # every permission, with no group (see above)
    sam.save(update_fields=["is_superuser"])
    withdrawal = requested(alice)
    audited: list[bool] = []
    gateway = Gateway()
    real = gateway.send_payout

    def send_payout(w: Withdrawal) -> str:
        audited.append(AuditLog.objects.filter(action=AuditAction.APPROVE_WITHDRAWAL).exists())
        return real(w)

    gateway.send_payout = send_payout  # type: ignore[method-assign]
    monkeypatch.setattr(cashier, "get_provider", lambda: gateway)

    paid = actions.approve_withdrawal(withdrawal.pk, "checked the bank details", sam)

    assert audited == [True]
    assert gateway.seen[0]["in_atomic_block"] is False
    assert gateway.seen[0]["transaction"] == IDLE
    assert paid.provider_ref == f"sandbox-pay-{withdrawal.pk}"


@pytest.mark.django_db
def test_a_payout_the_gateway_failed_stays_approved_and_the_sweep_sends_it_once(
    alice, sam, django_capture_on_commit_callbacks
):
    withdrawal = requested(alice)
    down = Gateway(down=True)
    with django_capture_on_commit_callbacks(execute=True) as sends:
        paid = cashier.approve_withdrawal(withdrawal.pk, sam, provider=down)

    assert len(sends) == 1  # tried once, after the commit
    assert len(down.seen) == 1
    stored = Withdrawal.objects.get(pk=withdrawal.pk)
    assert stored.status == Withdrawal.Status.PAID  # the approval stands: the ledger moved
    assert stored.decision_journal_id == paid.decision_journal_id
    assert Journal.objects.filter(key=f"withdrawal_paid:{withdrawal.pk}").exists()
    assert balance_of(withdrawal_hold_spec(alice.pk)) == 0
    assert (stored.provider_ref, stored.payout_pending) == ("", True)
    assert stored.status_words() == "Approved: being sent to your bank"
    from api.serializers import WithdrawalSerializer

    assert WithdrawalSerializer(stored).data["payout_pending"] is True  # what an app reads
    claimed = stored.payout_claimed_at
    assert claimed == stored.decided_at

    up = Gateway()
    assert payouts.send_pending(provider=up, now=claimed + timedelta(minutes=1)) == 0  # still claimed
    assert up.seen == []
    later = claimed + timedelta(seconds=payouts.retry_seconds() + 1)
    assert payouts.send_pending(provider=up, now=later) == 1
    assert payouts.send_pending(provider=up, now=later + timedelta(hours=1)) == 0
    assert [seen["withdrawal"] for seen in up.seen] == [withdrawal.pk]
    stored.refresh_from_db()
    assert (stored.provider_ref, stored.payout_claimed_at) == (f"sandbox-pay-{withdrawal.pk}", None)
    assert stored.status_words() == "Paid"
    assert wallet(alice) == 2_000_00  # paid once, from the hold: nothing else moved


@pytest.mark.django_db
def test_a_payout_never_sent_because_the_process_died_is_sent_by_the_sweep(
    alice, sam, django_capture_on_commit_callbacks
):
    withdrawal = requested(alice)
    gateway = Gateway()
    with django_capture_on_commit_callbacks(execute=False):  # committed, then the process died
        paid = cashier.approve_withdrawal(withdrawal.pk, sam, provider=gateway)
    assert gateway.seen == []
    assert Withdrawal.objects.get(pk=withdrawal.pk).payout_pending

    later = paid.decided_at + timedelta(seconds=payouts.retry_seconds() + 1)
    assert payouts.send_pending(provider=gateway, now=later) == 1
    assert not Withdrawal.objects.get(pk=withdrawal.pk).payout_pending


@pytest.mark.django_db
def test_two_sweeps_at_once_send_a_payout_once(alice, sam, django_capture_on_commit_callbacks):
    withdrawal = requested(alice)
    with django_capture_on_commit_callbacks(execute=False):
        paid = cashier.approve_withdrawal(withdrawal.pk, sam, provider=Gateway())
    later = paid.decided_at + timedelta(seconds=payouts.retry_seconds() + 1)
    inner: list[int] = []

    class Slow(Gateway):
        def send_payout(self, w: Withdrawal) -> str:
            inner.append(payouts.send_pending(provider=Gateway(), now=later))  # a second sweep meanwhile
            return super().send_payout(w)

    slow = Slow()
    assert payouts.send_pending(provider=slow, now=later) == 1
    assert inner == [0]  # the first sweep's claim kept the second off it
    assert len(slow.seen) == 1


@pytest.mark.django_db
def test_a_rejected_withdrawal_sends_no_payout(alice, sam, django_capture_on_commit_callbacks):
    withdrawal = requested(alice)
    gateway = Gateway()
    with django_capture_on_commit_callbacks(execute=True) as sends:
        rejected = cashier.reject_withdrawal(withdrawal.pk, sam, "the bank details do not match")
    assert (sends, rejected.payout_claimed_at) == ([], None)
    later = rejected.decided_at + timedelta(hours=1)
    assert payouts.send_pending(provider=gateway, now=later) == 0
    assert gateway.seen == []


@pytest.mark.django_db
def test_without_a_provider_an_approval_is_refused_and_writes_nothing(alice, sam, settings):
    withdrawal = requested(alice)
    settings.PAYMENTS_SANDBOX = False
    with pytest.raises(WalletError) as refused:
        cashier.approve_withdrawal(withdrawal.pk, sam)
    assert refused.value.code == "bad_request"
    assert "no payment provider" in refused.value.message
    stored = Withdrawal.objects.get(pk=withdrawal.pk)
    assert (stored.status, stored.payout_claimed_at) == (Withdrawal.Status.REQUESTED, None)
    assert not Journal.objects.filter(key=f"withdrawal_paid:{withdrawal.pk}").exists()
    assert balance_of(cashier_spec(alice.pk)) == -4_000_00  # only the deposit went through it


@pytest.mark.django_db
def test_the_sweep_with_payouts_due_and_no_provider_says_so_and_sends_nothing(
    alice, sam, settings, caplog, django_capture_on_commit_callbacks
):
    withdrawal = requested(alice)
    with django_capture_on_commit_callbacks(execute=False):
        paid = cashier.approve_withdrawal(withdrawal.pk, sam)
    settings.PAYMENTS_SANDBOX = False
    later = paid.decided_at + timedelta(hours=1)
    assert payouts.send_pending(now=later) == 0
    assert "1 payout(s) to send, and no provider" in caplog.text
    assert Withdrawal.objects.get(pk=withdrawal.pk).payout_pending


def test_the_sweep_runs_every_minute_from_beat_and_inside_daphne(settings, monkeypatch):
    import asyncio

    from wallet import schedule

    entry = settings.CELERY_BEAT_SCHEDULE["send-payouts"]
    assert (entry["task"], entry["schedule"]) == ("wallet.tasks.send_payouts", 60.0)
    assert settings.PAYOUT_SWEEP_SECONDS == 60.0  # the same interval inside daphne

    sweeps: list[str] = []
    naps: list[float] = []

    async def nap(seconds: float) -> None:
        naps.append(seconds)
        if len(naps) == 2:
            raise asyncio.CancelledError

    monkeypatch.setattr(payouts, "send_pending", lambda: sweeps.append("sent") or 0)
    monkeypatch.setattr(schedule.asyncio, "sleep", nap)
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(schedule._every(settings.PAYOUT_SWEEP_SECONDS, schedule._send_payouts))
    assert (sweeps, naps) == (["sent", "sent"], [60.0, 60.0])


@pytest.mark.django_db
def test_a_payout_the_gateway_keeps_refusing_is_given_back_and_left_by_the_sweep(
    alice, sam, django_capture_on_commit_callbacks
):
    withdrawal = requested(alice)
    down = Gateway(down=True)
    with django_capture_on_commit_callbacks(execute=True):
        paid = cashier.approve_withdrawal(withdrawal.pk, sam, provider=down)
    assert wallet(alice) == 2_000_00

    returned = cashier.correct_withdrawal(withdrawal.pk, sam, "the gateway says the account is closed")

    assert returned.status == Withdrawal.Status.RETURNED
    assert not returned.payout_pending
    assert wallet(alice) == 4_000_00  # the money is back in the wallet
    later = paid.decided_at + timedelta(hours=1)
    assert payouts.send_pending(provider=down, now=later) == 0
    assert len(down.seen) == 1  # only the first try: the sweep leaves a returned withdrawal
