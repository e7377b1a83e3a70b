"""Money in and out: deposits through a payment provider, withdrawals approved by staff, chips.

A deposit is a :class:`~wallet.models.Deposit` row, pending until the provider confirms it,
then credited exactly once (the row is locked and the posting key is ``deposit:<id>``). A
withdrawal moves the amount from the wallet to the user's withdrawal-hold account at once;
staff then approve it (hold -> cashier: paid out) or reject it (hold -> wallet), once.

Limits are settings with defaults (``WALLET_MIN_DEPOSIT`` ...), read when used, in paise.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction as db_transaction
from django.utils import timezone

from accounts.text import visible
from hotpath import statements
from hotpath.statements import IdOf
from protection import freezes, kyc, limits, money_play
from protection.limits import DEPOSIT_KINDS
from protection.models import LimitChange
from protection.players import lock_statement
from wallet import payouts
from wallet.errors import Code, WalletError, rupees
from wallet.ledger import (
    Leg,
    Locks,
    Plan,
    Then,
    cashier_spec,
    check_amount,
    execute,
    tax_spec,
    user_spec,
    withdrawal_hold_spec,
)
from wallet.limits import check_deposit
from wallet.models import Currency, Deposit, Journal, JournalKind, Withdrawal
from wallet.providers import PaymentProvider, get_provider
from wallet.tax import due as tax_due
from wallet.tax import on as tax_on

if TYPE_CHECKING:
    from accounts.models import User

#: Defaults of the limits, in paise; override with settings of the same name.
DEFAULT_LIMITS = {
    "WALLET_MIN_DEPOSIT": 10_00,  # ₹10
    "WALLET_MAX_DEPOSIT": 1_00_000_00,  # ₹1,00,000
    "WALLET_MIN_WITHDRAWAL": 100_00,  # ₹100
    "WALLET_MAX_WITHDRAWAL": 50_000_00,  # ₹50,000
    "WALLET_CHIPS_TOPUP_TO": 10_000_00,  # 10,000 chips, in hundredths
    # A withdrawal above this needs a second staff member's approval (four eyes).
    "WALLET_SECOND_APPROVAL_OVER": 10_000_00,  # ₹10,000
}


def limit(name: str) -> int:
    """The limit ``name`` (a key of DEFAULT_LIMITS) from settings, or its default."""
    return int(getattr(settings, name, DEFAULT_LIMITS[name]))


def _check_limits(amount: object, what: str, low: str, high: str) -> int:
    value = check_amount(amount, what=what)
    if value < limit(low):
        raise WalletError(Code.LIMIT_EXCEEDED, f"The smallest {what} is {rupees(limit(low))}.")
    if value > limit(high):
        raise WalletError(Code.LIMIT_EXCEEDED, f"The largest {what} is {rupees(limit(high))}.")
    return value


# --- deposits -------------------------------------------------------------------------------


#: Called after a deposit is started (its row committed) with the player's id and the payment
#: instrument the provider reported (a UPI id, a card's fingerprint); registered from the apps
#: above (fair play keeps a keyed hash of it). The wallet never stores the instrument.
deposit_started: list[Callable[[int, str], None]] = []


def _uid(user: User | int) -> int:
    return user if isinstance(user, int) else int(user.pk)


def _may_deposit(uid: int, now: datetime) -> None:
    """Deposits are money play (R-PROT-1..3, R-PROT-9): refused with the reason when it is off
    for the player. One round trip: the player's row, their exclusions and their latest move."""
    results = statements.execute_many(money_play.reads(uid))
    if not results[0].rows:
        raise WalletError(Code.NOT_FOUND, "There is no such player.")
    found = money_play.refusal_among(results, now)
    if found is not None:
        raise WalletError(Code.MONEY_PLAY_REFUSED, found.message)


def create_deposit(
    user: User | int, amount: int, *, provider: PaymentProvider | None = None, instrument: str = ""
) -> Deposit:
    """Start a deposit of ``amount`` paise: a pending Deposit that credits nothing yet.
    ``instrument`` is what pays (a UPI id, a card's fingerprint), as the provider reports it; it
    goes to :data:`deposit_started` after commit, never into the wallet's rows.

    Two round trips before the insert: the checks of money play (the player's row, their
    exclusions and latest move), then, under the player's lock, their deposit limits (and, when
    one is set, what its period has used). The provider is called between the two, outside the transaction."""
    uid = _uid(user)
    amount = _check_limits(amount, "deposit", "WALLET_MIN_DEPOSIT", "WALLET_MAX_DEPOSIT")
    now = timezone.now()
    _may_deposit(uid, now)
    provider = provider or get_provider()
    reference = provider.start_deposit(uid, amount, Currency.INR)
    values = {
        "user_id": uid,
        "amount": amount,
        "currency": Currency.INR.value,
        "provider": provider.name,
        "provider_ref": reference,
        "status": Deposit.Status.PENDING.value,
        "journal_id": None,
        "created_at": timezone.now(),
        "decided_at": None,
        "failure_reason": "",
    }
    with statements.transaction(savepoint=True) as own:
        # Under the player's lock: two deposits at once must not both fit under one limit.
        _, changes = statements.execute_many([lock_statement(uid), limits.CHANGES.statement(uid)])
        found = limits.limits_among(statements.instances(LimitChange, changes.rows), DEPOSIT_KINDS, now)
        check_deposit(uid, amount, now=now, found=found)
        deposit = statements.insert(Deposit, values, commit=own)
    instrument = str(instrument or "").strip()[:200]
    if instrument and deposit_started:
        db_transaction.on_commit(lambda: [hook(uid, instrument) for hook in list(deposit_started)])
    if getattr(provider, "confirms_itself", False):
        return confirm_deposit(reference)  # the sandbox plays the provider's callback
    return deposit


def confirm_deposit(provider_ref: str, *, by_user: User | None = None) -> Deposit:
    """The provider says the money arrived: credit the wallet, exactly once.

    Confirming an already confirmed deposit returns it unchanged; confirming a failed one
    raises ``already_decided``. A staff member confirming by hand (``by_user``) may not
    confirm their own deposit.
    """
    with statements.transaction(savepoint=True) as own:
        deposit = _locked_deposit(provider_ref)
        if by_user is not None and int(by_user.pk) == deposit.user_id:
            raise WalletError(Code.NOT_STAFF, "Nobody confirms their own deposit.")
        if deposit.status == Deposit.Status.CONFIRMED:
            return deposit
        if deposit.status == Deposit.Status.FAILED:
            raise WalletError(Code.ALREADY_DECIDED, "This deposit failed; it cannot be confirmed.")
        wallet, cashier = user_spec(deposit.user_id), cashier_spec(deposit.user_id)
        key, decided_at = f"deposit:{deposit.pk}", timezone.now()
        confirmed = {"status": Deposit.Status.CONFIRMED.value, "decided_at": decided_at}
        # The deposit is marked confirmed by the statement sent with the journal's write (and
        # its COMMIT): one round trip for both.
        journal = execute(
            key=key,
            kind=JournalKind.DEPOSIT,
            currency=Currency(deposit.currency),
            accounts=[wallet, cashier],
            meta={"deposit": deposit.pk, "provider": deposit.provider, "provider_ref": provider_ref},
            plan=lambda _locks: Plan([Leg(cashier.ref, wallet.ref, deposit.amount)]),
            created_by_id=deposit.user_id,
            then=Then(
                [
                    statements.update_statement(
                        Deposit, deposit.pk, {**confirmed, "journal_id": statements.IdOf(Journal, "key", key)}
                    )
                ]
            ),
            commit=own,
        )
        deposit.status, deposit.decided_at, deposit.journal = Deposit.Status.CONFIRMED, decided_at, journal
        if journal.replayed:  # (its journal is only ever written with the deposit confirmed)
            statements.update(deposit, ["status", "journal_id", "decided_at"], commit=own)
        return deposit


def fail_deposit(provider_ref: str, reason: str = "") -> Deposit:
    """The provider says the payment failed: nothing is credited. Once decided, stays decided."""
    with statements.transaction(savepoint=True) as own:
        deposit = _locked_deposit(provider_ref)
        if deposit.status == Deposit.Status.FAILED:
            return deposit
        if deposit.status == Deposit.Status.CONFIRMED:
            raise WalletError(Code.ALREADY_DECIDED, "This deposit was already credited; it cannot fail now.")
        deposit.status = Deposit.Status.FAILED
        deposit.failure_reason = reason[:200]
        deposit.decided_at = timezone.now()
        statements.update(deposit, ["status", "failure_reason", "decided_at"], commit=own)
        return deposit


def _locked_deposit(provider_ref: str) -> Deposit:
    deposit = statements.locked(Deposit, "provider_ref", provider_ref)
    if deposit is None:
        raise WalletError(Code.NOT_FOUND, f"No deposit has the reference {provider_ref!r}.")
    return deposit


#: A withdrawal the player asked for with this request key (a double submit), if any.
_EARLIER = statements.Prepared(
    lambda user_id, request_key: Withdrawal.objects.filter(user_id=user_id, request_key=request_key)[:1],
    arity=2,
)


# Deposits and withdrawals are read, locked and written with statements built once
# (``statements``): they sit on the same hot path as the postings, and the ORM's query building
# costs more than the statements.


# --- withdrawals ----------------------------------------------------------------------------


def request_withdrawal(user: User | int, amount: int, *, request_key: str | None = None) -> Withdrawal:
    """Move ``amount`` from the wallet to the user's withdrawal hold, to wait for staff.

    ``request_key`` (e.g. a form token) makes a double submit return the first request.
    Raises ``insufficient_funds``, ``limit_exceeded``, ``kyc_required`` and ``frozen`` (the
    risk desk holds the player's money, ``protection.freezes``); nothing is written then.
    """
    uid = _uid(user)
    amount = _check_limits(amount, "withdrawal", "WALLET_MIN_WITHDRAWAL", "WALLET_MAX_WITHDRAWAL")
    request_key = request_key or uuid.uuid4().hex
    if not isinstance(request_key, str) or not 1 <= len(request_key) <= 100:
        raise WalletError(Code.BAD_REQUEST, "The request key must be 1 to 100 characters.")
    wallet, hold, tax_account = user_spec(uid), withdrawal_hold_spec(uid), tax_spec()
    # The player's lock (the year's tax is counted under it: two at once count both), their
    # identity's status, an earlier request with this key and the risk desk's freeze, if one
    # holds their money.
    checks = [
        lock_statement(uid),
        kyc.STATUS.statement(uid),
        _EARLIER.statement(uid, request_key),
        freezes.IN_FORCE.statement(uid),
    ]
    with statements.transaction(savepoint=True) as own:
        before: list[statements.Statement] = []
        tax = 0
        if tax_on():
            # The tax is counted under the player's lock before the hold is posted: the checks
            # are a round trip of their own.
            previous = _vetted(uid, amount, [result.rows for result in statements.execute_many(checks)])
            if previous is not None:
                return previous
            tax = tax_due(uid, amount)
        else:
            # No tax to count: the checks go in the hold's first round trip, before its lock
            # (the player's row, then the accounts: the order of the round trips they replace).
            before = checks
        payout = amount - tax
        if payout <= 0:
            raise WalletError(
                Code.LIMIT_EXCEEDED,
                f"Tax of {rupees(tax)} is due on this year's winnings: withdraw more than that.",
            )
        # Keys are per user: another user's key is only another user's key.
        hold_key = f"withdrawal_hold:{uid}:{request_key}"
        values = {
            "user_id": uid,
            "amount": payout,
            "tax_withheld": tax,
            "currency": Currency.INR.value,
            "status": Withdrawal.Status.REQUESTED.value,
            "request_key": request_key,
            "hold_journal_id": statements.IdOf(Journal, "key", hold_key),
            "decision_journal_id": None,
            "decided_by_id": None,
            "decided_at": None,
            "reason": "",
            "provider_ref": "",
            "payout_claimed_at": None,
            "first_approved_by_id": None,
            "first_approved_at": None,
            "correction_journal_id": None,
            "created_at": timezone.now(),
        }
        # The withdrawal is inserted by the statement sent with the last journal's write (and
        # its COMMIT): one round trip for both.
        inserting = Then([statements.insert_statement(Withdrawal, values)])

        def vet(rows: list[list[tuple[Any, ...]]]) -> None:
            previous = _vetted(uid, amount, rows)
            if previous is not None:
                raise _Requested(previous)

        try:
            journal = execute(
                key=hold_key,
                kind=JournalKind.WITHDRAWAL_HOLD,
                currency=Currency.INR,
                accounts=[wallet, hold],
                meta={"user": uid, "amount": payout, "request_key": request_key},
                plan=lambda _locks: Plan([Leg(wallet.ref, hold.ref, payout)]),
                created_by_id=uid,
                before=before,
                vet=vet if before else None,
                then=None if tax else inserting,
                commit=own and not tax,
            )
        except _Requested as requested:
            return requested.withdrawal
        if journal.replayed:
            return Withdrawal.objects.get(user_id=uid, request_key=request_key)
        if tax:
            withheld = execute(
                key=f"tax_withheld:{uid}:{request_key}",
                kind=JournalKind.TAX_WITHHELD,
                currency=Currency.INR,
                accounts=[wallet, tax_account],
                meta={"user": uid, "asked": amount, "tax": tax, "request_key": request_key},
                plan=lambda _locks: Plan([Leg(wallet.ref, tax_account.ref, tax)]),
                created_by_id=uid,
                then=inserting,
                commit=own,
            )
            if withheld.replayed:  # (never: it is written with its hold, which was not there)
                raise AssertionError(f"ledger bug: tax withheld for {request_key!r} without its hold")
        ((withdrawal_id,),) = inserting.rows[0]
        withdrawal = statements.inserted(Withdrawal, {**values, "hold_journal_id": journal.pk}, withdrawal_id)
        withdrawal.hold_journal = journal
        return withdrawal


class _Requested(WalletError):
    """The answer to a request made before with the same key (a double submit): its withdrawal.
    Raised under the hold's lock, so that nothing is posted."""

    def __init__(self, withdrawal: Withdrawal) -> None:
        super().__init__(Code.IDEMPOTENCY_CONFLICT, "This request was made before.")
        self.withdrawal = withdrawal


def _vetted(uid: int, amount: int, rows: list[list[tuple[Any, ...]]]) -> Withdrawal | None:
    """Refuse a withdrawal from the rows of its checks (the player's lock, their identity's
    status, an earlier request with its key, the risk desk's freeze), or give the earlier
    request it repeats."""
    _, status, earlier, frozen = rows
    if frozen:
        raise WalletError(Code.FROZEN, freezes.FROZEN.message)
    if not kyc.verified_by(status):
        raise WalletError(
            Code.KYC_REQUIRED,
            "Verify your identity before you withdraw (Account, Identity): "
            f"yours is {kyc.status_words(uid).lower()}.",
        )
    previous = next(iter(statements.instances(Withdrawal, earlier)), None)
    if previous is not None and previous.amount + previous.tax_withheld != amount:
        raise WalletError(
            Code.IDEMPOTENCY_CONFLICT, "This request key was already used for another withdrawal."
        )
    # A retry gets the same answer, even if this year's tax moved since.
    return previous


def approve_withdrawal(
    withdrawal_id: int, by_user: User, *, provider: PaymentProvider | None = None
) -> Withdrawal:
    """Staff approve: the held money leaves through the cashier (paid out). Only once.

    Nobody approves their own withdrawal. Above ``WALLET_SECOND_APPROVAL_OVER`` the first
    approval is only recorded (the withdrawal stays requested) and a second, different staff
    member's approval pays it out.
    """
    return _decide(withdrawal_id, by_user, approve=True, reason="", provider=provider)


def reject_withdrawal(withdrawal_id: int, by_user: User, reason: str) -> Withdrawal:
    """Staff reject: the held money goes back to the wallet. Only once."""
    reason = visible(reason)
    if not reason:
        raise WalletError(Code.BAD_REQUEST, "Say why the withdrawal is rejected.")
    return _decide(withdrawal_id, by_user, approve=False, reason=reason, provider=None)


def _decide(
    withdrawal_id: int, by_user: User, *, approve: bool, reason: str, provider: PaymentProvider | None
) -> Withdrawal:
    if not getattr(by_user, "is_staff", False):
        raise WalletError(Code.NOT_STAFF, "Only staff may approve or reject withdrawals.")
    with statements.transaction(savepoint=True) as own:
        withdrawal = statements.locked(Withdrawal, "id", withdrawal_id)
        if withdrawal is None:
            raise WalletError(Code.NOT_FOUND, f"No withdrawal {withdrawal_id}.")
        if withdrawal.status != Withdrawal.Status.REQUESTED:
            raise WalletError(Code.ALREADY_DECIDED, f"This withdrawal was already {withdrawal.status}.")
        if int(by_user.pk) == withdrawal.user_id:
            raise WalletError(Code.NOT_STAFF, "Nobody approves or rejects their own withdrawal.")
        if approve and withdrawal.amount > limit("WALLET_SECOND_APPROVAL_OVER"):
            if withdrawal.first_approved_by_id is None:
                withdrawal.first_approved_by = by_user
                withdrawal.first_approved_at = timezone.now()
                statements.update(withdrawal, ["first_approved_by_id", "first_approved_at"], commit=own)
                return withdrawal
            if withdrawal.first_approved_by_id == by_user.pk:
                raise WalletError(
                    Code.NOT_STAFF, "A second staff member must approve this withdrawal (four eyes)."
                )
        # Refused here, before anything is written, when no provider is set up.
        provider = (provider or get_provider()) if approve else None
        uid = withdrawal.user_id
        hold = withdrawal_hold_spec(uid)
        target = cashier_spec(uid) if approve else user_spec(uid)
        amount = withdrawal.amount

        def plan(_locks: Locks) -> Plan:
            return Plan([Leg(hold.ref, target.ref, amount)])

        key = f"withdrawal_{'paid' if approve else 'released'}:{withdrawal.pk}"
        withdrawal.status = Withdrawal.Status.PAID if approve else Withdrawal.Status.REJECTED
        withdrawal.decided_by = by_user
        withdrawal.decided_at = timezone.now()
        withdrawal.reason = reason[:200]
        # The payout is sent once this commits, with no lock held (wallet.payouts): claimed
        # now, so the sweep leaves it to this process unless the send never happens.
        withdrawal.payout_claimed_at = withdrawal.decided_at if approve else None
        decided = {name: getattr(withdrawal, name) for name in _DECIDED}
        # The withdrawal is marked decided by the statement sent with the last journal's write
        # (and its COMMIT): one round trip for both.
        marking = Then(
            [
                statements.update_statement(
                    Withdrawal, withdrawal.pk, {**decided, "decision_journal_id": IdOf(Journal, "key", key)}
                )
            ]
        )
        returning = not approve and withdrawal.tax_withheld > 0
        journal = execute(
            key=key,
            kind=JournalKind.WITHDRAWAL_PAID if approve else JournalKind.WITHDRAWAL_RELEASED,
            currency=Currency(withdrawal.currency),
            accounts=[hold, target],
            meta={"withdrawal": withdrawal.pk, "user": uid, "amount": amount, "reason": reason},
            plan=plan,
            created_by_id=by_user.pk,
            then=None if returning else marking,
            commit=own and not returning,
        )
        last = journal
        if returning:
            last = _return_tax(withdrawal, by_user, "rejected", then=marking, commit=own)
        withdrawal.decision_journal = journal
        if last.replayed:  # (its journals are only ever written with the withdrawal decided)
            statements.update(withdrawal, [*_DECIDED, "decision_journal_id"], commit=own)
    if provider is not None:
        payouts.send_after_commit(withdrawal, provider)
    return withdrawal


#: What a decision writes to its withdrawal, with the decision's journal.
_DECIDED = ["status", "decided_by_id", "decided_at", "reason", "payout_claimed_at"]


def _return_tax(
    withdrawal: Withdrawal, by_user: User, why: str, *, then: Then | None = None, commit: bool = False
) -> Journal:
    """A withdrawal that does not happen gives its withheld tax back (R-PROT-8); ``then`` and
    ``commit`` as :func:`~wallet.ledger.execute` takes them."""
    wallet, tax_account = user_spec(withdrawal.user_id), tax_spec()
    return execute(
        key=f"tax_returned:{withdrawal.pk}",
        kind=JournalKind.TAX_RETURNED,
        currency=Currency.INR,
        accounts=[tax_account, wallet],
        meta={
            "withdrawal": withdrawal.pk,
            "user": withdrawal.user_id,
            "tax": withdrawal.tax_withheld,
            "why": why,
        },
        plan=lambda _locks: Plan([Leg(tax_account.ref, wallet.ref, withdrawal.tax_withheld)]),
        created_by_id=by_user.pk,
        then=then,
        commit=commit,
    )


def correct_withdrawal(withdrawal_id: int, by_user: User, reason: str) -> Withdrawal:
    """A paid withdrawal came back (the bank returned it): a new compensating journal moves the
    amount from the cashier back to the wallet and the withdrawal is marked returned. The
    payout and its hold are never reversed. Staff only, once, with a reason."""
    if not getattr(by_user, "is_staff", False):
        raise WalletError(Code.NOT_STAFF, "Only staff may correct a withdrawal.")
    reason = visible(reason)
    if not reason:
        raise WalletError(Code.BAD_REQUEST, "Say why the withdrawal is corrected.")
    with statements.transaction(savepoint=True) as own:
        withdrawal = statements.locked(Withdrawal, "id", withdrawal_id)
        if withdrawal is None:
            raise WalletError(Code.NOT_FOUND, f"No withdrawal {withdrawal_id}.")
        if withdrawal.status != Withdrawal.Status.PAID:
            raise WalletError(
                Code.ALREADY_DECIDED,
                f"Only a paid withdrawal can be corrected; this one is {withdrawal.status}.",
            )
        uid = withdrawal.user_id
        cashier, wallet = cashier_spec(uid), user_spec(uid)
        amount = withdrawal.amount
        journal = execute(
            key=f"withdrawal_returned:{withdrawal.pk}",
            kind=JournalKind.ADJUSTMENT,
            currency=Currency(withdrawal.currency),
            accounts=[cashier, wallet],
            meta={"withdrawal": withdrawal.pk, "user": uid, "amount": amount, "reason": reason},
            plan=lambda _locks: Plan([Leg(cashier.ref, wallet.ref, amount)]),
            created_by_id=by_user.pk,
        )
        if withdrawal.tax_withheld:
            _return_tax(withdrawal, by_user, "returned")
        withdrawal.status = Withdrawal.Status.RETURNED
        withdrawal.correction_journal = journal
        statements.update(withdrawal, ["status", "correction_journal_id"], commit=own)
        return withdrawal


# --- practice chips -------------------------------------------------------------------------


def topup_chips(user: User | int, *, now: datetime | None = None) -> Journal:
    """Top the user's practice chips up to WALLET_CHIPS_TOPUP_TO, at most once a calendar day.

    The day is the local date in ``settings.TIME_ZONE``; a second top-up the same day returns
    the first journal and credits nothing. Raises ``nothing_to_top_up`` when the balance is
    already at the top-up amount (that does not use up the day's top-up).
    """
    uid = _uid(user)
    day = timezone.localdate(now or timezone.now()).isoformat()
    return _chips_up_to(uid, key=f"chips_topup:{uid}:{day}", meta={"user": uid, "day": day})


def welcome_chips(user: User | int) -> Journal:
    """The practice chips a new player gets at sign-up: WALLET_CHIPS_TOPUP_TO, once per user
    (its own idempotency key, so the day's top-up stays available)."""
    uid = _uid(user)
    return _chips_up_to(uid, key=f"chips_welcome:{uid}", meta={"user": uid, "welcome": True})


def _chips_up_to(uid: int, *, key: str, meta: dict[str, Any]) -> Journal:
    """Bring the user's practice chips up to WALLET_CHIPS_TOPUP_TO from the cashier, once per
    ``key``; ``nothing_to_top_up`` when they already have that much."""
    target = limit("WALLET_CHIPS_TOPUP_TO")
    wallet, cashier = user_spec(uid, Currency.CHIPS), cashier_spec(uid, Currency.CHIPS)

    def plan(locks: Locks) -> Plan:
        balance = locks[wallet.ref].balance
        if balance >= target:
            raise WalletError(Code.NOTHING_TO_TOP_UP, f"You already have {balance // 100:,} chips or more.")
        return Plan([Leg(cashier.ref, wallet.ref, target - balance)])

    return execute(
        key=key,
        kind=JournalKind.CHIPS_TOPUP,
        currency=Currency.CHIPS,
        accounts=[wallet, cashier],
        meta={**meta, "to": target},
        plan=plan,
        created_by_id=uid,
    )
