"""The kinds of tournament staff create from (the back office's templates): each a full set of
R-TOUR-1's settings. Staff give a name and a start; everything else comes from the preset and
is fixed in the tournament at its creation (R-MONEY-6), so editing this table later changes
no tournament already announced."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Preset:
    label: str
    currency: str
    buy_in: int
    rake_percent: int
    guarantee: int
    min_players: int
    max_players: int
    table_size: int
    qualify: int
    prize_bps: tuple[int, ...]
    bots_allowed: bool = False

    def settings(self) -> dict[str, Any]:
        values = asdict(self)
        del values["label"]
        values["prize_bps"] = list(self.prize_bps)
        return values


PRESETS: dict[str, Preset] = {
    "practice_sng_18": Preset(
        "Practice sit and go, 18 players, bots welcome",
        "CHIPS", 100_00, 0, 0, 18, 18, 6, 2, (5_000, 3_000, 2_000), bots_allowed=True,
    ),
    "practice_60": Preset(
        "Practice knock-out, up to 60 players, bots welcome",
        "CHIPS", 50_00, 0, 5_000_00, 6, 60, 6, 2, (4_000, 2_500, 1_500, 1_200, 800), bots_allowed=True,
    ),
    "cash_100_60": Preset(
        "₹100 knock-out, up to 60 players, ₹5,000 guaranteed, 10% rake",
        "INR", 100_00, 10, 5_000_00, 12, 60, 6, 2, (4_000, 2_500, 1_500, 1_200, 800),
    ),
    "cash_25_sng_6": Preset(
        "₹25 sit and go, 6 players, heads-up tables, 10% rake",
        "INR", 25_00, 10, 0, 6, 6, 2, 1, (7_000, 3_000),
    ),
    "freeroll_1000": Preset(
        "Free roll, up to 600 players, ₹1,000 from the house",
        "INR", 0, 0, 1_000_00, 12, 600, 6, 2, (5_000, 3_000, 2_000),
    ),
}  # fmt: skip
