"""``{{ value|paise }}``: paise as rupees, ``250050`` -> ``₹2,500.50``."""

from __future__ import annotations

from typing import Any

from django import template

from backoffice.charts import amount
from wallet.money import money as format_money

register = template.Library()


@register.filter
def paise(value: Any) -> str:
    if value in (None, ""):
        return ""
    return amount(int(value), money=True)


@register.simple_tag
def cell(value: Any, money: bool, currency: str = "INR") -> str:
    """A report cell: money from paise (chips on a chips report, never ₹), dates as ISO, the rest as is."""
    if money and value not in (None, ""):
        return format_money(int(value), currency)
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    return "" if value is None else str(value)
