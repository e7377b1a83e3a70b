"""Where a player lives, as an ISO 3166-2 code ("IN-KA" is Karnataka): money play may be
allowed in some regions only (``protection.money_play``).

The sign-up page offers India's states and union territories by name; the API takes any
ISO 3166-2 code whose country part is a real country. ``UNDECLARED`` ("ZZ", the ISO code for an
unknown region) is what accounts made before regions were asked for carry until the player
declares one: it matches no list of allowed regions.
"""

from __future__ import annotations

import re
from functools import cache

UNDECLARED = "ZZ"

#: India's states and union territories (ISO 3166-2:IN).
INDIA = {
    "IN-AN": "Andaman and Nicobar Islands",
    "IN-AP": "Andhra Pradesh",
    "IN-AR": "Arunachal Pradesh",
    "IN-AS": "Assam",
    "IN-BR": "Bihar",
    "IN-CH": "Chandigarh",
    "IN-CG": "Chhattisgarh",
    "IN-DH": "Dadra and Nagar Haveli and Daman and Diu",
    "IN-DL": "Delhi",
    "IN-GA": "Goa",
    "IN-GJ": "Gujarat",
    "IN-HR": "Haryana",
    "IN-HP": "Himachal Pradesh",
    "IN-JK": "Jammu and Kashmir",
    "IN-JH": "Jharkhand",
    "IN-KA": "Karnataka",
    "IN-KL": "Kerala",
    "IN-LA": "Ladakh",
    "IN-LD": "Lakshadweep",
    "IN-MP": "Madhya Pradesh",
    "IN-MH": "Maharashtra",
    "IN-MN": "Manipur",
    "IN-ML": "Meghalaya",
    "IN-MZ": "Mizoram",
    "IN-NL": "Nagaland",
    "IN-OD": "Odisha",
    "IN-PY": "Puducherry",
    "IN-PB": "Punjab",
    "IN-RJ": "Rajasthan",
    "IN-SK": "Sikkim",
    "IN-TN": "Tamil Nadu",
    "IN-TS": "Telangana",
    "IN-TR": "Tripura",
    "IN-UP": "Uttar Pradesh",
    "IN-UK": "Uttarakhand",
    "IN-WB": "West Bengal",
}

_SHAPE = re.compile(r"^[A-Z]{2}-[A-Z0-9]{1,3}$")


@cache
def _countries() -> frozenset[str]:
    from babel import Locale

    codes = (str(code) for code in Locale("en").territories)
    return frozenset(code for code in codes if len(code) == 2 and code.isalpha())


def normalise(code: str) -> str:
    return code.strip().upper().replace("_", "-")


def is_region(code: str) -> bool:
    """An ISO 3166-2 subdivision code of a real country: India's own must be one of its list."""
    code = normalise(code)
    if not _SHAPE.match(code) or code[:2] == UNDECLARED:
        return False
    if code.startswith("IN-"):
        return code in INDIA
    return code[:2] in _countries()


def name_of(code: str) -> str:
    """The region's name where we know it, else its code."""
    if code == UNDECLARED:
        return "Not declared"
    return INDIA.get(code, code)


def choices() -> list[tuple[str, str]]:
    """For the sign-up and profile forms, by name."""
    return sorted(INDIA.items(), key=lambda item: item[1])
