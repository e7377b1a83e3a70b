"""Planted cheats for ``manage.py simulate``: colluding pairs and scripted bots among the honest
simulated players, so the fair-play detectors can be measured against a known answer.

The simulator asks this strategy three questions and otherwise plays every account honestly:
who sits at a new table (``seat``: a pair often sits together, mostly at money tables), what a
cheater does on their turn (``action``; None plays the honest bot's move) and when a player acts
(``moment``; None for the honest think time). The cheats:

- soft play: with only the partner left in the deal, drop at once;
- chip dumping (points tables): the pair opens a points table for two; with only the partner
  left in the deal, one never drops and never tries (draws from the closed pile and throws the
  card back) while the other plays on, never dropping, until they declare and collect the full
  count;
- discard feeding: discard the card the partner (next to play) can use most, and the partner
  takes it from the open pile;
- regular bot: every move 0.9 s after its turn, give or take 40 ms (a person varies far more).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games import bots
from games.engine import deal as deals
from games.engine.actions import Draw
from games.engine.cards import Card

KINDS = ("soft_play", "chip_dump", "feed")

#: Each planted cheat as the simulator's flag offers it (``--cheat-soft-play N``): how many pairs,
#: or bots.
FLAGS = {
    "soft_play": "plant N pairs that drop when only the partner is left in the deal",
    "chip_dump": "plant N pairs where one loses the full count to the other when alone together",
    "feed": "plant N pairs where one discards what the other needs, and the other takes it",
    "regular_bot": "plant N bots that act at a fixed pace",
}

#: How often a pair sits together at a new table: money, practice.
TOGETHER = {"INR": 0.6, "CHIPS": 0.2}
POINTS = ("points13", "points21")
REGULAR_MS = 900
REGULAR_JITTER_MS = 40


class TooManyCheaters(ValueError):
    """More cheaters asked for than half the simulated players: they could not hide in the crowd."""


@dataclass
class Planted:
    pairs: dict[str, list[tuple[Any, Any]]]
    regular: list[Any]
    rng: random.Random
    partner: dict[str, tuple[str, str, int]] = field(default_factory=dict)
    """A cheater's name: (kind, the partner's name, 0 for the pair's first, 1 for the second)."""
    fed: dict[str, str] = field(default_factory=dict)
    """A deal's commitment: the card just fed to the partner."""

    @classmethod
    def among(cls, players: list[Any], counts: dict[str, int], rng: random.Random) -> Planted:
        """Pick the cheaters from ``players``: ``counts`` pairs of each kind and of regular bots."""
        wanted = 2 * sum(counts.get(kind, 0) for kind in KINDS) + counts.get("regular_bot", 0)
        if wanted > len(players) // 2:
            raise TooManyCheaters(f"{wanted} cheaters need at least {2 * wanted} players")
        chosen = rng.sample(players, wanted)
        pairs: dict[str, list[tuple[Any, Any]]] = {}
        for kind in KINDS:
            pairs[kind] = [(chosen.pop(), chosen.pop()) for _ in range(counts.get(kind, 0))]
        planted = cls(pairs, chosen, rng)
        for kind, kind_pairs in pairs.items():
            for a, b in kind_pairs:
                planted.partner[str(a.pk)] = (kind, str(b.pk), 0)
                planted.partner[str(b.pk)] = (kind, str(a.pk), 1)
        return planted

    def listing(self) -> list[tuple[str, tuple[int, ...]]]:
        """The planted cheats as (kind, user ids)."""
        out = [(kind, (a.pk, b.pk)) for kind, kind_pairs in self.pairs.items() for a, b in kind_pairs]
        return out + [("regular_bot", (bot.pk,)) for bot in self.regular]

    def seat(self, people: list[Any], variant: str, currency: str) -> list[Any]:
        """The table's players, a pair of cheaters often among them."""
        if len(people) < 2 or self.rng.random() >= TOGETHER.get(currency, 0.0):
            return people
        pairs = [p for kind, ps in self.pairs.items() if kind != "chip_dump" or variant in POINTS for p in ps]
        if variant in POINTS and self.pairs.get("chip_dump") and self.rng.random() < 0.7:
            # Dumping needs a points table, best with no one else: its pairs open one for two
            # (others may still sit down between deals).
            a, b = self.rng.choice(self.pairs["chip_dump"])
            return [a, b]
        if not pairs:
            return people
        a, b = self.rng.choice(pairs)
        others = [p for p in people if p.pk not in (a.pk, b.pk)]
        return [a, b, *others][: len(people)]

    def moment(self, name: str, clock: int) -> int | None:
        """A regular bot's moment to act; None for everyone else."""
        if any(str(bot.pk) == name for bot in self.regular):
            return clock + REGULAR_MS + self.rng.randint(-REGULAR_JITTER_MS, REGULAR_JITTER_MS)
        return None

    def action(self, deal: deals.DealState, name: str) -> dict[str, Any] | None:
        """The cheater's move on their turn, or None to play the honest bot's."""
        if name not in self.partner or deal.phase is not deals.Phase.PLAY:
            return None
        kind, partner, role = self.partner[name]
        in_deal = {seat.player for seat in deal.seats if seat.in_deal}
        alone_together = in_deal == {name, partner}
        if kind == "soft_play" and alone_together and deal.drawn is None:
            return {"type": "drop"}
        if kind == "chip_dump" and alone_together and deal.variant.name in POINTS:
            if role == 1:  # the payee plays on to collect: never a drop
                honest = bots.choose(deal, name)
                return {"type": "draw", "source": "closed"} if honest and honest["type"] == "drop" else honest
            if deal.drawn is None:
                return {"type": "draw", "source": "closed"}
            return {"type": "discard", "card": deal.drawn.code}
        if kind == "feed":
            return self._feed(deal, name, partner, role)
        return None

    def _feed(self, deal: deals.DealState, name: str, partner: str, role: int) -> dict[str, Any] | None:
        if role == 1 and deal.drawn is not None and deal.drawn_from == "open":
            return _discard_after_taking(deal, name)
        if role == 1 and deal.drawn is None:  # the taker: the partner's card, from the open pile
            fed = self.fed.pop(deal.commitment, None)
            top = deal.open_pile[-1] if deal.open_pile else None
            legal = deals.legal_actions(deal, name)
            takes = any(isinstance(a, Draw) and a.source == "open" for a in legal)
            if fed is not None and top is not None and top.code == fed and takes:
                return {"type": "draw", "source": "open"}
            return None
        if role != 0 or deal.drawn is None or _next_in_deal(deal) != partner:
            return None
        honest = bots.choose(deal, name)
        if honest is None or honest["type"] != "discard":
            return None  # a finish is worth more than a feed
        seat = deal.seats[deal.turn]
        taker = deal.seats[deal.seat_of(partner)]
        candidates = [
            card
            for card in seat.hand
            if not deal.jokers.is_joker(card) and not (deal.drawn_from == "open" and card == deal.drawn)
        ]
        if not candidates:
            return None
        card = max(candidates, key=lambda c: (_use_to(c, taker.hand), c.rank))
        if _use_to(card, taker.hand) == 0:
            return None
        self.fed[deal.commitment] = card.code
        return {"type": "discard", "card": card.code}


def _discard_after_taking(deal: deals.DealState, name: str) -> dict[str, Any] | None:
    """The honest bot's discard; when the card taken is its only loose card (the honest bot never
    takes such a card, so it has no discard for it), the highest other card instead."""
    try:
        return bots.choose(deal, name)
    except ValueError:
        hand = deal.seats[deal.turn].hand
        card = max((c for c in hand if c != deal.drawn), key=lambda c: (c.rank, c.suit))
        return {"type": "discard", "card": card.code}


def _next_in_deal(deal: deals.DealState) -> str:
    count = len(deal.seats)
    for step in range(1, count):
        seat = deal.seats[(deal.turn + step) % count]
        if seat.in_deal:
            return seat.player
    return deal.seats[deal.turn].player


def _use_to(card: Card, hand: tuple[Card, ...]) -> int:
    """How many cards of ``hand`` ``card`` could join: the same rank, or its suit two ranks on."""
    return sum(
        1 for c in hand if c.rank == card.rank or (c.suit == card.suit and 0 < abs(c.rank - card.rank) <= 2)
    )
