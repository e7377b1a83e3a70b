"""Rupee amounts typed by people, read in one place and strictly.

``paise_from_rupees("250")`` is 25000 and ``("99.50")`` is 9950: ASCII digits, then
optionally a dot and exactly two digits, nothing else: no commas ("100,00" is refused, not
read as ₹10,000), no sign, no spaces inside, no exponent, no other digits (superscripts,
Devanagari). The API never takes rupees: its amounts are JSON integers of paise.
"""

from __future__ import annotations

import re

#: The largest amount any form takes: ₹1,00,00,000 (a crore), far above every limit.
MAX_PAISE = 1_00_00_000_00

_RUPEES = re.compile(r"([0-9]{1,9})(?:\.([0-9]{2}))?", re.ASCII)


class AmountError(ValueError):
    """An amount that is not one; the message is for the person who typed it."""


def paise_from_rupees(text: object) -> int:
    if not isinstance(text, str):
        raise AmountError("Enter an amount in rupees, like 250 or 99.50.")
    match = _RUPEES.fullmatch(text.strip())
    if match is None:
        raise AmountError("Enter an amount in rupees with digits only, like 250 or 99.50 (no commas).")
    paise = int(match.group(1)) * 100 + int(match.group(2) or 0)
    # The cashier's own limits (the largest deposit, the smallest withdrawal) are far inside
    # these bounds and name their figures; naming a crore here would contradict them.
    if paise == 0:
        raise AmountError("Enter an amount above zero.")
    if paise > MAX_PAISE:
        raise AmountError("That is more than any deposit or withdrawal allows: enter a smaller amount.")
    return paise
