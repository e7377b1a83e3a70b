"""A dependency-free rules engine for Indian Rummy (pool 101/201/61 and 21-card points).

Every rule cites its id in ``RULES.md`` (``R-...``). Nothing here imports Django or reads a
clock: time and randomness come in as arguments.
"""

from games.engine.cards import Card, CardError, Jokers, points, shoe
from games.engine.variants import POINTS21, POOL61, POOL101, POOL201, VARIANTS, Variant

__all__ = [
    "POINTS21",
    "POOL61",
    "POOL101",
    "POOL201",
    "VARIANTS",
    "Card",
    "CardError",
    "Jokers",
    "Variant",
    "points",
    "shoe",
]
