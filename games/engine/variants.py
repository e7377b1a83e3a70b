"""The variants as configuration of one engine: a table of numbers (R-POOL-3, R-21-6, R-PTS-2).

Three formats share the deal (sections 3 to 8 of the rules):

- **pool** (101, 201, 61): entry fees form a prize pool; scores add up across deals and a
  player is out at the elimination score (R-POOL-*);
- **points** (13-card ``points13`` and 21-card ``points21``): one deal a game, settled in money
  at a point value from a hold on the seat, deal after deal (R-PTS-*, R-21-*);
- **deals**: entry fees form a prize pool; a fixed number of deals (a table setting) played
  for game chips, the most chips winning (R-DEALS-*).

21-card rules (value cards, tunnela and dublee) switch on with a 21-card hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from games.engine.plain import fields_of


class Format(StrEnum):
    POOL = "pool"
    POINTS = "points"
    DEALS = "deals"


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    hand_size: int
    """Cards dealt to each player: 13, or 21 for points21."""
    default_packs: int
    """Packs in the shoe unless the table says otherwise (R-CARD-3, R-21-1)."""
    elimination: int | None
    """Total at which a pool player is eliminated (R-POOL-2); None for the other formats."""
    first_drop: int
    middle_drop: int
    full_count: int
    """The cap on a losing hand's score (R-SHOW-2, R-21-4)."""
    wrong_show: int
    show_timeout: int
    missed_moves_drop: int
    """Score for being dropped after three missed moves (R-TURN-6, R-21-6)."""
    rejoin_limit: int | None
    """A rejoin is allowed while the highest remaining score is at most this (R-POOL-4)."""
    max_loss: int | None = None
    """Points formats: the most a player loses in a deal (R-21-7: 200; R-PTS-2: 80, the full
    count), and so the points a seat holds (R-21-8, R-PTS-4)."""
    format: Format = Format.POOL
    packs_for_two: int | None = None
    """Packs for a deal of two players when the table names none (R-PTS-1: one); else
    ``default_packs``."""

    @property
    def is_points21(self) -> bool:
        return self.hand_size == 21

    @property
    def is_pool(self) -> bool:
        """Scores add up to an elimination (R-POOL-*)."""
        return self.format is Format.POOL

    @property
    def is_points(self) -> bool:
        """Each deal settled in money from the seats' holds, deal after deal (R-PTS-*, R-21-*)."""
        return self.format is Format.POINTS

    @property
    def is_deals(self) -> bool:
        """A fixed number of deals for game chips (R-DEALS-*)."""
        return self.format is Format.DEALS

    @property
    def has_prize_pool(self) -> bool:
        """Entry fees form a prize pool paid when the game ends (pool and deals, R-MONEY-2)."""
        return self.format is not Format.POINTS

    @property
    def deal_show_max(self) -> int:
        """The most a deal-show loser can score: half the full count (R-SHOW-3, R-21-6)."""
        return self.full_count // 2

    @property
    def seat_hold_points(self) -> int:
        """Points formats: the points a seat holds, the most a deal can lose (R-21-8, R-PTS-4)."""
        if self.max_loss is None:
            raise ValueError(f"{self.name} holds no seat: it is played for an entry fee")
        return self.max_loss

    def packs_for(self, players: int) -> int:
        """The packs a deal of ``players`` uses when the table names none (R-CARD-3, R-PTS-1)."""
        if players <= 2 and self.packs_for_two is not None:
            return self.packs_for_two
        return self.default_packs

    def check_packs(self, packs: int, players: int) -> None:
        """Refuse a pack count the rules do not allow (R-CARD-3): 21-card tables use 3 packs;
        13-card tables need at least 1 pack for 2 players and at least 2 for 3-6."""
        if self.is_points21:
            if packs != 3:
                raise ValueError(f"21-card tables use 3 packs, not {packs}")
            return
        least = 1 if players <= 2 else 2
        if packs < least:
            raise ValueError(f"{players} players need at least {least} pack(s), not {packs}")

    def to_json(self) -> dict[str, Any]:
        return {**fields_of(self), "format": self.format.value}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Variant:
        """A variant as :meth:`to_json` wrote it (a state written before the formats were named
        is a pool or a 21-card variant: its format follows from its numbers)."""
        values = dict(data)
        values.setdefault("format", Format.POINTS if values.get("hand_size") == 21 else Format.POOL)
        values["format"] = Format(values["format"])
        return cls(**values)


POOL101 = Variant(
    name="pool101", hand_size=13, default_packs=2, elimination=101, first_drop=20, middle_drop=40,
    full_count=80, wrong_show=80, show_timeout=80, missed_moves_drop=40, rejoin_limit=79,
)  # fmt: skip
POOL201 = Variant(
    name="pool201", hand_size=13, default_packs=2, elimination=201, first_drop=25, middle_drop=50,
    full_count=80, wrong_show=80, show_timeout=80, missed_moves_drop=50, rejoin_limit=174,
)  # fmt: skip
POOL61 = Variant(
    name="pool61", hand_size=13, default_packs=2, elimination=61, first_drop=15, middle_drop=30,
    full_count=60, wrong_show=60, show_timeout=60, missed_moves_drop=30, rejoin_limit=44,
)  # fmt: skip
POINTS21 = Variant(
    name="points21", hand_size=21, default_packs=3, elimination=None, first_drop=30, middle_drop=70,
    full_count=120, wrong_show=120, show_timeout=120, missed_moves_drop=70, rejoin_limit=None,
    max_loss=200, format=Format.POINTS,
)  # fmt: skip
POINTS13 = Variant(
    name="points13", hand_size=13, default_packs=2, elimination=None, first_drop=20, middle_drop=40,
    full_count=80, wrong_show=80, show_timeout=80, missed_moves_drop=40, rejoin_limit=None,
    max_loss=80, format=Format.POINTS, packs_for_two=1,
)  # fmt: skip
DEALS = Variant(
    name="deals", hand_size=13, default_packs=2, elimination=None, first_drop=20, middle_drop=40,
    full_count=80, wrong_show=80, show_timeout=80, missed_moves_drop=40, rejoin_limit=None,
    format=Format.DEALS,
)  # fmt: skip

VARIANTS: dict[str, Variant] = {v.name: v for v in (POOL101, POOL201, POOL61, POINTS21, POINTS13, DEALS)}

DEALS_CHOICES = (2, 3, 6)
"""Deals rummy at a cash or practice table: best of 2, 3 or 6 (R-DEALS-1). A tournament round
plays as many deals as it seats players (R-TOUR-3)."""
CHIPS_PER_DEAL = 80
"""Deals rummy: each player starts with this many game chips per deal (R-DEALS-2)."""


def variant_named(name: str) -> Variant:
    """The variant called ``name``; a ValueError naming the choices otherwise."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}") from None
