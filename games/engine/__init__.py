"""A dependency-free rules engine for Indian Rummy (pool 101/201/61 and 21-card points).

Every rule cites its id in ``RULES.md`` (``R-...``). Nothing here imports Django or reads a
clock: time and randomness come in as arguments. One module, one job:

- ``cards``: cards, notation, packs, jokers, points
- ``variants``: the four variants as a table of numbers
- ``shuffle``: the CSPRNG seed, its commitment and the deck order it derives
- ``melds``: groups, declarations and a grouping's losing score
- ``solver``: the arrangement with the lowest losing score
- ``pool``: pool progression: elimination, drops, rejoin, splits
- ``points21``: value cards and the zero-sum settlement of a 21-card deal
- ``toss``: the toss, seating and dealer rotation
- ``actions``, ``events``, ``deal``: one deal as a state machine
"""

from games.engine.actions import (
    ActionError,
    Declare,
    Discard,
    Draw,
    Drop,
    Finish,
    IllegalAction,
    InvalidAction,
    SaveGrouping,
    Show,
    Timeout,
)
from games.engine.cards import Card, CardError, Jokers, points, shoe
from games.engine.deal import DealState, Step, apply, legal_actions, player_view, start_deal
from games.engine.events import Event
from games.engine.melds import evaluate
from games.engine.solver import solve
from games.engine.toss import next_dealer, toss
from games.engine.variants import POINTS21, POOL61, POOL101, POOL201, VARIANTS, Variant

__all__ = [
    "POINTS21",
    "POOL61",
    "POOL101",
    "POOL201",
    "VARIANTS",
    "ActionError",
    "Card",
    "CardError",
    "DealState",
    "Declare",
    "Discard",
    "Draw",
    "Drop",
    "Event",
    "Finish",
    "IllegalAction",
    "InvalidAction",
    "Jokers",
    "SaveGrouping",
    "Show",
    "Step",
    "Timeout",
    "Variant",
    "apply",
    "evaluate",
    "legal_actions",
    "next_dealer",
    "player_view",
    "points",
    "shoe",
    "solve",
    "start_deal",
    "toss",
]
