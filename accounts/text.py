"""Text typed by people: reasons that must say something."""

from __future__ import annotations

import unicodedata


def visible(text: object) -> str:
    """``text`` stripped, or "" when it holds nothing a reader could see: only spaces,
    zero-width or other format characters (a zero-width space is not a reason)."""
    if not isinstance(text, str):
        return ""
    stripped = text.strip()
    if not any(
        not ch.isspace()
        and unicodedata.category(ch) not in ("Cf", "Cc", "Zs", "Zl", "Zp", "Mn", "Me", "Co", "Cn")
        for ch in stripped
    ):
        return ""
    return stripped


#: What makes a spreadsheet read a text cell as a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet will not run: a text cell starting with = + - @, a tab or a
    carriage return gets a leading apostrophe. Numbers stay numbers (a negative amount too)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
