"""The one error type of the wallet: a machine-readable ``code`` and a message in plain words."""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    BAD_AMOUNT = "bad_amount"
    BAD_REQUEST = "bad_request"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    LIMIT_EXCEEDED = "limit_exceeded"
    BELOW_MINIMUM = "below_minimum"
    IDEMPOTENCY_CONFLICT = "idempotency_conflict"
    ALREADY_DECIDED = "already_decided"
    ACCOUNT_CLOSED = "account_closed"
    WRONG_ACCOUNT = "wrong_account"
    POOL_FULL = "pool_full"
    NOT_IN_POOL = "not_in_pool"
    EMPTY_POOL = "empty_pool"
    SPLIT_MISMATCH = "split_mismatch"
    NOT_STAFF = "not_staff"
    ALREADY_REVERSED = "already_reversed"
    NOTHING_TO_TOP_UP = "nothing_to_top_up"
    NOT_FOUND = "not_found"
    LIMIT_REACHED = "limit_reached"
    MONEY_PLAY_REFUSED = "money_play_refused"
    KYC_REQUIRED = "kyc_required"
    FROZEN = "frozen"


class WalletError(Exception):
    """A request the wallet refuses. Nothing was written when this is raised.

    >>> WalletError(Code.INSUFFICIENT_FUNDS, "Your balance is ₹10.00; this needs ₹25.00.").code
    <Code.INSUFFICIENT_FUNDS: 'insufficient_funds'>
    """

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"WalletError({self.code.value!r}, {self.message!r})"


def rupees(amount: int) -> str:
    """Format paise as rupees for messages: ``rupees(250050) == "₹2,500.50"`` (wallet.money)."""
    from wallet.money import rupees as format_rupees

    return format_rupees(amount)
