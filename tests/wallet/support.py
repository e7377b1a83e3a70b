"""Helpers for the wallet tests: fund a user through the cashier, read balances."""

from __future__ import annotations

from typing import Any

from wallet import cashier
from wallet.ledger import balance_of, pool_spec, user_spec
from wallet.models import Currency, Journal


def fund(user: Any, amount: int) -> None:
    """Deposit ``amount`` paise into the user's wallet through the sandbox provider (limits lifted)."""
    remaining = amount
    while remaining:
        part = min(remaining, cashier.limit("WALLET_MAX_DEPOSIT"))
        if part < cashier.limit("WALLET_MIN_DEPOSIT"):
            part = cashier.limit("WALLET_MIN_DEPOSIT")
        deposit = cashier.create_deposit(user, part)
        cashier.confirm_deposit(deposit.provider_ref)
        remaining -= part


def wallet(user: Any, currency: Currency = Currency.INR) -> int:
    return balance_of(user_spec(user.pk, currency))


def pool(ref: str, currency: Currency = Currency.INR) -> int:
    return balance_of(pool_spec(ref, currency))


def journal_count() -> int:
    return Journal.objects.count()
