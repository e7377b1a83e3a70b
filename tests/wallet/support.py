"""Helpers for the wallet tests: fund a user through the cashier, read balances."""

from __future__ import annotations

import os
import uuid
from typing import Any

import pytest

from wallet import cashier
from wallet.ledger import balance_of, cashier_spec, pool_spec, post, user_spec
from wallet.models import Currency, Journal, JournalKind


def fund(user: Any, amount: int) -> None:
    """Deposit ``amount`` paise into the user's wallet through the sandbox provider.

    Amounts above the deposit limit are paid in as several deposits; below the minimum, the
    money comes in as a cashier adjustment.
    """
    remaining = amount
    while remaining >= cashier.limit("WALLET_MIN_DEPOSIT"):
        part = min(remaining, cashier.limit("WALLET_MAX_DEPOSIT"))
        deposit = cashier.create_deposit(user, part)
        cashier.confirm_deposit(deposit.provider_ref)
        remaining -= part
    if remaining:
        post(
            f"fund:{uuid.uuid4().hex}",
            JournalKind.ADJUSTMENT,
            [(cashier_spec(user.pk), user_spec(user.pk), remaining)],
        )


def wallet(user: Any, currency: Currency = Currency.INR) -> int:
    return balance_of(user_spec(user.pk, currency))


def pool(ref: str, currency: Currency = Currency.INR) -> int:
    return balance_of(pool_spec(ref, currency))


def journal_count() -> int:
    return Journal.objects.count()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """The personas' passwords are hashed with MD5 in these tests: PBKDF2 costs ~0.5 s a user.

    Import this fixture into a test module to make it apply there.
    """
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


#: The posting paths to test (wallet.sql): the portable one everywhere, and PostgreSQL's fast
#: path when the tests run on PostgreSQL (CI). Both must pass the same ledger tests.
POSTING_PATHS = (
    ["portable", "fast"] if os.environ.get("DATABASE_URL", "").startswith("postgres") else ["portable"]
)


@pytest.fixture(params=POSTING_PATHS)
def posting_path(request: Any, settings: Any) -> str:
    """Run the test on each posting path (use it through ``pytest.mark.usefixtures``)."""
    settings.WALLET_FAST_PATH = request.param == "fast"
    return str(request.param)
