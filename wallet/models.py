"""The ledger's tables: accounts, journals, transfers, entries; deposits and withdrawals.

Every amount is an integer number of hundredths of the currency unit (paise for INR, R-MONEY-1),
stored as BIGINT. Journals, transfers and entries are append-only: the only writer is
``wallet.ledger`` and database triggers (migration 0002) refuse UPDATE and DELETE on them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Currency(models.TextChoices):
    INR = "INR", "Indian rupees (paise)"
    CHIPS = "CHIPS", "Practice chips (hundredths)"


class AccountKind(models.TextChoices):
    USER = "user", "Player wallet"
    POOL = "pool", "Prize pool of a pool game"
    SEAT = "seat", "Balance held for a seat at a 21-card table"
    HOUSE = "house", "House rake (sharded)"
    CASHIER = "cashier", "Cashier: money enters and leaves here (sharded)"
    WITHDRAWAL_HOLD = "withdrawal_hold", "Withdrawals waiting for approval"
    TAX = "tax", "Tax withheld, owed to the tax authority"


class JournalKind(models.TextChoices):
    ENTRY_FEE = "entry_fee", "Entry fee"
    REJOIN_FEE = "rejoin_fee", "Rejoin fee"
    REFUND = "refund", "Refund of a cancelled or voided pool"
    PRIZE = "prize", "Prize to the winner"
    SPLIT = "split", "Split payout"
    RAKE = "rake", "Rake"
    SEAT_HOLD = "seat_hold", "Seat balance held"
    SEAT_RELEASE = "seat_release", "Seat balance released"
    DEAL_SETTLEMENT = "deal_settlement", "Points deal settlement"
    DEPOSIT = "deposit", "Deposit"
    WITHDRAWAL_HOLD = "withdrawal_hold", "Withdrawal requested"
    WITHDRAWAL_PAID = "withdrawal_paid", "Withdrawal paid out"
    WITHDRAWAL_RELEASED = "withdrawal_released", "Withdrawal rejected, money back"
    CHIPS_TOPUP = "chips_topup", "Free practice chips"
    TAX_WITHHELD = "tax_withheld", "Tax withheld on winnings"
    TAX_RETURNED = "tax_returned", "Tax withheld, given back"
    REVERSAL = "reversal", "Reversal (correction)"
    ADJUSTMENT = "adjustment", "Manual posting"
    FAIRPLAY_REFUND = "fairplay_refund", "Fair-play refund (correction)"
    OVERLAY = "overlay", "Guaranteed prize pool topped up by the house"


class Account(models.Model):
    """One balance in one currency. ``balance`` and ``version`` cache the account's entries.

    ``ref`` names the account without a foreign key to the games models (``user:5``,
    ``pool:42``, ``seat:7``, ``house:3``, ``cashier:0``, ``withdrawal_hold:5``); it is
    unique per currency.
    """

    kind = models.CharField(max_length=20, choices=AccountKind.choices)
    currency = models.CharField(max_length=8, choices=Currency.choices)
    ref = models.CharField(max_length=120)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="wallet_accounts",
    )
    balance = models.BigIntegerField(default=0)
    version = models.BigIntegerField(default=0, help_text="Number of entries posted to the account.")
    allow_negative = models.BooleanField(default=False, help_text="Only the cashier may go below zero.")
    closed_at = models.DateTimeField(
        null=True, blank=True, help_text="A settled pool or released seat: takes no more money."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["ref", "currency"], name="wallet_account_ref_currency_uniq"),
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(allow_negative=True), name="wallet_account_balance_nonneg"
            ),
            models.CheckConstraint(
                condition=Q(allow_negative=False) | Q(kind="cashier"), name="wallet_account_negative_cashier"
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True) | Q(balance=0), name="wallet_account_closed_is_zero"
            ),
            models.CheckConstraint(condition=Q(version__gte=0), name="wallet_account_version_nonneg"),
        ]

    def __str__(self) -> str:
        return f"{self.ref} {self.currency} {self.balance}"


class Journal(models.Model):
    """One posting: a set of transfers that happen together or not at all."""

    # Unique by a constraint of Meta rather than ``unique=True``, which on PostgreSQL adds a second
    # index for LIKE searches that nothing runs, written at every posting.
    key = models.CharField(max_length=200, help_text="Idempotency key chosen by the caller.")
    kind = models.CharField(max_length=24, choices=JournalKind.choices)
    currency = models.CharField(max_length=8, choices=Currency.choices)
    meta = models.JSONField(default=dict, blank=True)
    content_hash = models.CharField(max_length=64, help_text="sha256 of what was asked (kind, meta, legs).")
    created_at = models.DateTimeField(db_index=True)
    # A journal is reversed at most once: a partial unique index (Meta), which holds only the
    # reversals, not a NULL for every other journal.
    reverses = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by", db_index=False
    )
    # No index: only a user's deletion looks journals up by creator, and PROTECT forbids it.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
    )

    #: True on a journal returned for a retry (the key was already posted), not a new one.
    replayed: bool = False

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["key"], name="wallet_journal_key_uniq"),
            models.UniqueConstraint(
                fields=["reverses"], condition=Q(reverses__isnull=False), name="wallet_journal_reversed_once"
            ),
        ]

    def __str__(self) -> str:
        return self.key


class Transfer(models.Model):
    """Money moving from the debit account to the credit account."""

    journal = models.ForeignKey(Journal, on_delete=models.PROTECT, related_name="transfers")
    debit = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    credit = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    amount = models.BigIntegerField()
    currency = models.CharField(max_length=8, choices=Currency.choices)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="wallet_transfer_amount_positive"),
            models.CheckConstraint(condition=~Q(debit=F("credit")), name="wallet_transfer_two_accounts"),
        ]

    def __str__(self) -> str:
        return f"{self.debit_id} -> {self.credit_id}: {self.amount} {self.currency}"


class Entry(models.Model):
    """One side of a transfer on one account, with the account's balance and version after it."""

    # Indexes: UNIQUE(account, version) serves the account; entries are found by account, and
    # by journal or transfer only in audits that scan them all, so those keys are not indexed
    # (every index is paid for on the hot posting path).
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries", db_index=False)
    journal = models.ForeignKey(Journal, on_delete=models.PROTECT, related_name="entries", db_index=False)
    transfer = models.ForeignKey(Transfer, on_delete=models.PROTECT, related_name="entries", db_index=False)
    amount = models.BigIntegerField(help_text="Signed: negative on the debit side.")
    balance_after = models.BigIntegerField()
    version = models.BigIntegerField()

    class Meta:
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["account", "version"], name="wallet_entry_account_version_uniq"),
            models.CheckConstraint(condition=~Q(amount=0), name="wallet_entry_amount_nonzero"),
            models.CheckConstraint(condition=Q(version__gte=1), name="wallet_entry_version_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.account_id} v{self.version}: {self.amount:+} = {self.balance_after}"


class Deposit(models.Model):
    """Money a user is paying in through a provider: credited once, when confirmed."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        CONFIRMED = "confirmed", "Confirmed"
        FAILED = "failed", "Failed"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="deposits")
    amount = models.BigIntegerField()
    currency = models.CharField(max_length=8, choices=Currency.choices, default=Currency.INR)
    provider = models.CharField(max_length=40)
    provider_ref = models.CharField(max_length=120, unique=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    journal = models.OneToOneField(Journal, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    failure_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="wallet_deposit_amount_positive"),
            models.CheckConstraint(
                condition=Q(status="confirmed", journal__isnull=False) | ~Q(status="confirmed"),
                name="wallet_deposit_confirmed_has_journal",
            ),
        ]

    def __str__(self) -> str:
        return f"deposit {self.pk} {self.amount} {self.status}"


class Withdrawal(models.Model):
    """Money a user takes out: held on request, paid or given back by staff, once."""

    class Status(models.TextChoices):
        REQUESTED = "requested", "Requested"
        PAID = "paid", "Paid"
        REJECTED = "rejected", "Rejected"
        RETURNED = "returned", "Paid, then returned by the bank"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="withdrawals")
    amount = models.BigIntegerField(help_text="Paid out: what was asked for, less the tax withheld.")
    tax_withheld = models.BigIntegerField(default=0, help_text="Tax withheld at the request (R-PROT-8).")
    currency = models.CharField(max_length=8, choices=Currency.choices, default=Currency.INR)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REQUESTED)
    request_key = models.CharField(max_length=120, help_text="Dedupes a double-submitted request (per user).")
    hold_journal = models.OneToOneField(Journal, on_delete=models.PROTECT, related_name="+")
    decision_journal = models.OneToOneField(
        Journal, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    provider_ref = models.CharField(
        max_length=120, blank=True, help_text="The provider's reference for the payout, once it took it."
    )
    payout_claimed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When a process last set out to send the payout (wallet.payouts); cleared once sent.",
    )
    first_approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Four eyes: the first of two approvals of a large withdrawal.",
    )
    first_approved_at = models.DateTimeField(null=True, blank=True)
    correction_journal = models.OneToOneField(
        Journal,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The compensating journal of a paid withdrawal that came back.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "request_key"], name="wallet_withdrawal_key_per_user"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="wallet_withdrawal_amount_positive"),
            models.CheckConstraint(
                condition=Q(status="requested") | Q(decision_journal__isnull=False),
                name="wallet_withdrawal_decided_has_journal",
            ),
        ]
        indexes = [
            # The payouts still to send (wallet.payouts.send_pending, every minute).
            models.Index(
                fields=["id"],
                condition=Q(status="paid", provider_ref=""),
                name="wallet_withdrawal_payout_due",
            ),
        ]

    def __str__(self) -> str:
        return f"withdrawal {self.pk} {self.amount} {self.status}"

    @property
    def payout_pending(self) -> bool:
        """Approved and paid out of the ledger, but not yet taken by the provider."""
        return self.status == self.Status.PAID and not self.provider_ref

    def status_words(self) -> str:
        """The status as a player reads it."""
        if self.payout_pending:
            return "Approved: being sent to your bank"
        return str(self.get_status_display())


class ReconcileRun(models.Model):
    """One run of the auditor (``wallet.reconcile.run``): when, the verdict and its figures, so
    staff see when the ledger was last checked and a failing run stands out."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    ok = models.BooleanField()
    problems = models.JSONField(default=list, blank=True, help_text="Each difference, in plain words.")
    figures = models.JSONField(default=dict, blank=True, help_text="Accounts, journals, transfers, entries.")
    trigger = models.CharField(max_length=20, help_text="schedule, start-up or command.")

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"reconciliation {self.at:%Y-%m-%d %H:%M}: {'ok' if self.ok else 'problems'}"
