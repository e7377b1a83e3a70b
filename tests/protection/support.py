"""Money, tables and clients for the player-protection tests."""

from __future__ import annotations

from typing import Any

from games.models import TableTemplate
from wallet import cashier
from wallet.ledger import balance_of, user_spec
from wallet.models import Currency, Journal


def funded(user: Any, amount: int = 5_000_00) -> Any:
    cashier.confirm_deposit(cashier.create_deposit(user, amount).provider_ref)
    return user


def money_pool(**fields: Any) -> TableTemplate:
    values: dict[str, Any] = {
        "name": "101 pool, ₹100",
        "variant": "pool101",
        "currency": "INR",
        "seats": 3,
        "entry_fee": 100_00,
    }
    values.update(fields)
    return TableTemplate.objects.create(**values)


def money_21(**fields: Any) -> TableTemplate:
    values: dict[str, Any] = {
        "name": "21-card, ₹1 a point",
        "variant": "points21",
        "currency": "INR",
        "seats": 2,
        "point_value": 1_00,
    }
    values.update(fields)
    return TableTemplate.objects.create(**values)


def practice_pool(**fields: Any) -> TableTemplate:
    return money_pool(**{"name": "101 pool, chips", "currency": "CHIPS", "entry_fee": 10_00, **fields})


def wallet(user: Any) -> int:
    return balance_of(user_spec(user.pk, Currency.INR))


def journals() -> int:
    return Journal.objects.count()
