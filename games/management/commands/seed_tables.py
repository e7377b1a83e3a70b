"""Offer the demo table templates once: points (13 cards), pool 101/201/61, deals and 21-card for
rupees, and practice (chips) tables of each format whose empty seats fill with bots. Safe to run
again: templates are matched by name."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.models import TableTemplate, Variant
from wallet.models import Currency

TEMPLATES: list[dict[str, Any]] = [
    {
        "name": "Points, 6 seats, ₹0.10 a point",
        "variant": Variant.POINTS13,
        "currency": Currency.INR,
        "seats": 6,
        "point_value": 10,
    },
    {
        "name": "Points, 2 seats, ₹1 a point",
        "variant": Variant.POINTS13,
        "currency": Currency.INR,
        "seats": 2,
        "point_value": 100,
    },
    {
        "name": "Points, 6 seats, ₹5 a point",
        "variant": Variant.POINTS13,
        "currency": Currency.INR,
        "seats": 6,
        "point_value": 500,
    },
    {
        "name": "Deals, best of 2, 2 seats, ₹25",
        "variant": Variant.DEALS,
        "currency": Currency.INR,
        "seats": 2,
        "entry_fee": 2500,
        "deals": 2,
    },
    {
        "name": "Deals, best of 3, 3 seats, ₹50",
        "variant": Variant.DEALS,
        "currency": Currency.INR,
        "seats": 3,
        "entry_fee": 5000,
        "deals": 3,
    },
    {
        "name": "Deals, best of 6, 6 seats, ₹100",
        "variant": Variant.DEALS,
        "currency": Currency.INR,
        "seats": 6,
        "entry_fee": 10000,
        "deals": 6,
    },
    {
        "name": "101 pool, 6 seats, ₹25",
        "variant": Variant.POOL101,
        "currency": Currency.INR,
        "seats": 6,
        "entry_fee": 2500,
    },
    {
        "name": "101 pool, 2 seats, ₹100",
        "variant": Variant.POOL101,
        "currency": Currency.INR,
        "seats": 2,
        "entry_fee": 10000,
    },
    {
        "name": "201 pool, 6 seats, ₹50",
        "variant": Variant.POOL201,
        "currency": Currency.INR,
        "seats": 6,
        "entry_fee": 5000,
    },
    {
        "name": "61 pool, 3 seats, ₹10",
        "variant": Variant.POOL61,
        "currency": Currency.INR,
        "seats": 3,
        "entry_fee": 1000,
    },
    {
        "name": "21-card, ₹0.50 a point",
        "variant": Variant.POINTS21,
        "currency": Currency.INR,
        "seats": 6,
        "point_value": 50,
    },
    {
        "name": "Practice 61 pool vs a bot",
        "variant": Variant.POOL61,
        "currency": Currency.CHIPS,
        "seats": 2,
        "entry_fee": 1000,
        "bots_allowed": True,
    },
    {
        "name": "Practice 101 pool vs 2 bots",
        "variant": Variant.POOL101,
        "currency": Currency.CHIPS,
        "seats": 3,
        "entry_fee": 1000,
        "bots_allowed": True,
    },
    {
        "name": "Practice 201 pool vs 2 bots",
        "variant": Variant.POOL201,
        "currency": Currency.CHIPS,
        "seats": 3,
        "entry_fee": 1000,
        "bots_allowed": True,
    },
    {
        "name": "Practice points vs a bot",
        "variant": Variant.POINTS13,
        "currency": Currency.CHIPS,
        "seats": 2,
        "point_value": 10,
        "bots_allowed": True,
    },
    {
        "name": "Practice points vs 3 bots",
        "variant": Variant.POINTS13,
        "currency": Currency.CHIPS,
        "seats": 4,
        "point_value": 10,
        "bots_allowed": True,
    },
    {
        "name": "Practice deals, best of 2, vs a bot",
        "variant": Variant.DEALS,
        "currency": Currency.CHIPS,
        "seats": 2,
        "entry_fee": 1000,
        "deals": 2,
        "bots_allowed": True,
    },
    {
        "name": "Practice deals, best of 3, vs 2 bots",
        "variant": Variant.DEALS,
        "currency": Currency.CHIPS,
        "seats": 3,
        "entry_fee": 1000,
        "deals": 3,
        "bots_allowed": True,
    },
    {
        "name": "Practice 21-card vs 2 bots",
        "variant": Variant.POINTS21,
        "currency": Currency.CHIPS,
        "seats": 3,
        "point_value": 10,
        "bots_allowed": True,
    },
]


class Command(BaseCommand):
    help = "Create the demo table templates (once)."

    def handle(self, *args: Any, **options: Any) -> None:
        made = 0
        for fields in TEMPLATES:
            _, created = TableTemplate.objects.get_or_create(name=fields["name"], defaults=fields)
            made += created
        self.stdout.write(f"table templates: {made} created, {len(TEMPLATES) - made} already there")
