"""Cards for people: ``{{ "7H"|card }}`` is "7♥" in red, with an accessible name."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games.words import SUITS, card_text, word
from wallet import money

register = template.Library()


@register.filter
def card(code: str) -> str:
    code = str(code)
    if code == "PJ":
        return mark_safe('<span class="c joker" aria-label="printed joker">JKR</span>')
    suit = SUITS.get(code[-1])
    if suit is None:
        return code
    return format_html('<span class="c {}">{}</span>', suit[1], card_text(code))


@register.filter
def rupees(paise: int) -> str:
    """Paise as rupees, the Indian way: 12500050 -> "₹1,25,000.50" (wallet.money)."""
    return money.rupees(int(paise or 0))


@register.filter
def chips(hundredths: int) -> str:
    """Practice chips are kept in hundredths: 1000000 -> "10,000 chips"."""
    return money.chips(int(hundredths or 0))


@register.filter
def amount_in(value: int, currency: str) -> str:
    """``{{ amount|amount_in:"CHIPS" }}``: rupees or chips, as the currency says."""
    return money.money(int(value or 0), currency)


@register.filter
def words(code: object, kind: str) -> str:
    """``{{ hand.outcome|words:"outcome" }}``: the player's words for an internal code."""
    return word(kind, code)
