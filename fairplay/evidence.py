"""A case's evidence as staff read it: each figure beside its baseline in plain words, the
counts, the finished deals it rests on and the linked accounts it names.

The evidence is what a detector (or a staff member) filed with the case (``Case.evidence``):

- ``figures``: ``[{"name": "win_rate", "value": 0.62, "baseline": 0.18, "unit": "share",
  "words": "..."}]``; ``unit`` is "share" (a fraction, shown as a percentage), "paise" (money)
  or absent (a number); ``words`` overrides the name's words (``fairplay.words.FIGURES``);
- ``counts``: ``{"deals_together": 40}``, each a whole number;
- ``deals``: the ids of the finished deals it rests on;
- ``links``: ``[{"users": [a, b], "reasons": ["device", "address"]}]``;
- ``reason``: a staff member's words, for a case opened by hand.

Anything malformed is left out rather than shown wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fairplay.words import FIGURES, LINK_REASONS
from games.words import plain
from wallet.money import money


def times_usual(score: float) -> str:
    """A case's score (its strongest figure as times its baseline): "7.2× usual"."""
    return f"{score:.1f}× usual" if score > 0 else "no score"


@dataclass(frozen=True)
class Figure:
    words: str
    value: str
    baseline: str
    times: str

    @property
    def sentence(self) -> str:
        """ "Share of deals won against this opponent: 62 %, where 18 % is usual (3.4× usual)"."""
        text = f"{self.words}: {self.value}, where {self.baseline} is usual"
        return f"{text} ({self.times})" if self.times else text


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _shown(value: float, unit: str) -> str:
    if unit == "share":
        return f"{value * 100:.0f} %"
    if unit == "paise":
        return money(int(value))
    return f"{value:,.0f}" if value == int(value) else f"{value:,.2f}"


def figures(evidence: Mapping[str, Any]) -> list[Figure]:
    out = []
    for item in evidence.get("figures") or []:
        if not isinstance(item, Mapping):
            continue
        value, baseline = _number(item.get("value")), _number(item.get("baseline"))
        if value is None or baseline is None:
            continue
        unit = str(item.get("unit") or "")
        name = str(item.get("name") or "")
        words = str(item.get("words") or FIGURES.get(name) or plain(name))
        times = times_usual(value / baseline) if baseline > 0 else ""
        out.append(Figure(words, _shown(value, unit), _shown(baseline, unit), times))
    return out


def counts(evidence: Mapping[str, Any]) -> list[tuple[str, str]]:
    found = evidence.get("counts") or {}
    if not isinstance(found, Mapping):
        return []
    return [
        (plain(name), f"{value:,}")
        for name, value in found.items()
        if isinstance(value, int) and not isinstance(value, bool)
    ]


def deal_ids(evidence: Mapping[str, Any]) -> list[int]:
    """The deals the evidence names, as ids, in its order, each once."""
    out: list[int] = []
    for item in evidence.get("deals") or []:
        if isinstance(item, int) and not isinstance(item, bool) and item not in out:
            out.append(item)
    return out


@dataclass(frozen=True)
class Link:
    users: tuple[int, int]
    reasons: tuple[str, ...]


def links(evidence: Mapping[str, Any]) -> list[Link]:
    out = []
    for item in evidence.get("links") or []:
        if not isinstance(item, Mapping):
            continue
        users = [u for u in item.get("users") or [] if isinstance(u, int) and not isinstance(u, bool)]
        if len(users) != 2:
            continue
        reasons = tuple(LINK_REASONS.get(str(r), plain(r)) for r in item.get("reasons") or [])
        out.append(Link((users[0], users[1]), reasons))
    return out
