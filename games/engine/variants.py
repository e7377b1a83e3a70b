"""The four variants as configuration of one engine: a table of numbers (R-POOL-3, R-21-6).

Pool variants differ only in their scores; 21-card points rummy switches on the 21-card
rules (value cards, tunnela and dublee, settlement in money) with ``is_points21``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    hand_size: int
    """Cards dealt to each player: 13 for pool, 21 for points21."""
    default_packs: int
    """Packs in the shoe unless the table says otherwise (R-CARD-3, R-21-1)."""
    elimination: int | None
    """Total at which a pool player is eliminated (R-POOL-2); None for points21."""
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
    """points21: a player's total loss in a deal is capped here (R-21-7)."""

    @property
    def is_points21(self) -> bool:
        return self.hand_size == 21

    @property
    def deal_show_max(self) -> int:
        """The most a deal-show loser can score: half the full count (R-SHOW-3, R-21-6)."""
        return self.full_count // 2

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
    max_loss=200,
)  # fmt: skip

VARIANTS: dict[str, Variant] = {v.name: v for v in (POOL101, POOL201, POOL61, POINTS21)}


def variant_named(name: str) -> Variant:
    """The variant called ``name``; a ValueError naming the choices otherwise."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}") from None
