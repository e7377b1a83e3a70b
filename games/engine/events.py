"""What a deal tells its players (R-DEAL-5 and the privacy of hands).

An event is public (``to is None``) or for one player only. While a deal runs, no event a
player may see holds another player's cards or the order of the closed pile; the deal
result, published when the deal is over, reveals the seed and every hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """``type`` names what happened (``"discarded"``); ``data`` is plain JSON; ``to`` is the one
    player who may see it, or None for everyone."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    to: str | None = None

    def visible_to(self, player: str) -> bool:
        return self.to is None or self.to == player

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data, "to": self.to}
