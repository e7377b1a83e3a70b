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
