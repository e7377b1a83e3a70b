"""Usernames: one spelling per name, and no look-alike of a name already taken.

A username is stored NFKC-normalised and case-folded (``normalise``), and log-in folds what is
typed the same way. Its *skeleton* (``skeleton``, after Unicode TS #39) maps every character to
the ASCII letter it is confusable with (Cyrillic "а" to "a", fullwidth letters, ...) and folds
the few ASCII look-alikes (0/o, 1/l/i, rn/m, vv/w); sign-up refuses a name whose skeleton is
another user's.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables

#: ASCII look-alikes that TS #39 folds (0 and O, 1 and l and I) and a few more a reader confuses.
_ASCII = {"0": "o", "1": "l", "i": "l", "|": "l", "!": "l"}
_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))


def normalise(username: str) -> str:
    return unicodedata.normalize("NFKC", username).casefold()


@lru_cache(maxsize=4096)
def _latin(char: str) -> str:
    if char.isascii():
        return char
    found = confusables.is_confusable(char, preferred_aliases=["latin"], greedy=True)
    if found:
        for glyph in found[0]["homoglyphs"]:
            if glyph["c"].isascii():
                return str(glyph["c"]).casefold()
    stripped = "".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))
    return stripped if stripped.isascii() and stripped else char


def skeleton(username: str) -> str:
    """The name as a reader might see it: equal skeletons are names that can be confused."""
    text = "".join(
        _latin(c) for c in unicodedata.normalize("NFD", normalise(username)) if not unicodedata.combining(c)
    )
    text = "".join(_ASCII.get(c, c) for c in normalise(text))
    for pair, single in _PAIRS:
        text = text.replace(pair, single)
    return text
