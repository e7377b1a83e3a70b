"""The server's one money formatter (the browser's is ``static/table/money.js``).

Amounts are integers in hundredths: paise for rupees, hundredths of a chip for practice chips.
Rupees are written the Indian way by Babel's ``en_IN`` locale (₹1,25,000.50: lakhs and
crores); chips are counted, never shown with the rupee sign.
"""

from __future__ import annotations

from decimal import Decimal

from babel import Locale
from babel.numbers import format_currency, format_decimal

LOCALE = "en_IN"
_LOCALE = Locale.parse(LOCALE)  # parsed once: a third of a formatting's time otherwise


def rupees(paise: int) -> str:
    """``12500050`` -> ``"₹1,25,000.50"``; ``-250050`` -> ``"-₹2,500.50"``."""
    return str(format_currency(Decimal(int(paise)) / 100, "INR", locale=_LOCALE))


def chips(hundredths: int) -> str:
    """``1000000`` -> ``"10,000 chips"``; ``1050`` -> ``"10.50 chips"``."""
    value = Decimal(int(hundredths)) / 100
    pattern = "#,##,##0" if value == value.to_integral_value() else "#,##,##0.00"
    return f"{format_decimal(value, format=pattern, locale=_LOCALE)} chips"


def money(amount: int, currency: str = "INR") -> str:
    """An amount in its currency's words: rupees, or chips for ``"CHIPS"``."""
    return chips(amount) if str(currency) == "CHIPS" else rupees(amount)


def currency_label(currency: str) -> str:
    """A column or field label's unit: "₹" or "chips"."""
    return "chips" if str(currency) == "CHIPS" else "₹"
