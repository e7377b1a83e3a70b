"""21-card points rummy: value cards and the settlement of a deal (R-21-5, R-21-7).

A deal is settled in points; the wallet multiplies the transfers by the table's point value
(R-MONEY-3). The deal-show score (R-21-6) is :func:`games.engine.pool.deal_show_score`.

**Decision** (how the pairwise payments are counted, beyond RULES.md): between two players the
payments of a deal are netted into one amount, what one owes the other: for a loser and the
winner, the loser's points (their loss) plus the winner's value minus the loser's value (value
only when neither dropped); between two other players, the one's value minus the other's.
The 200 cap (R-21-7) cuts these net payments: first the payment to the winner, then the
payments to the others in seat order. A cut lowers what the payee receives; should that take
the payee's own loss past the cap, the payee's payments are cut the same way in turn (players
are checked in seat order until nobody is past the cap). So the scores always add up to zero
and nobody loses more than the cap.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from games.engine.cards import Card, CardError, Jokers
from games.engine.variants import POINTS21, Variant

KIND_POINTS = (0, 10, 30, 50)
"""Points for 0..3 value cards of one kind (value joker, upper or lower) outside marriages."""
MARRIAGE_POINTS = (0, 100, 300, 500)
"""Points for 0..3 marriages (one value joker, one upper and one lower each)."""


class SettlementError(ValueError):
    """A deal result that cannot be settled: no winner or two, a negative loss..."""


@dataclass(frozen=True, slots=True)
class ValueCards:
    """How many value cards of each kind a hand holds (R-21-5)."""

    value_jokers: int = 0
    uppers: int = 0
    lowers: int = 0

    def __post_init__(self) -> None:
        for count in (self.value_jokers, self.uppers, self.lowers):
            if not 0 <= count <= 3:
                raise CardError(f"3 packs hold 0 to 3 copies of a value card, not {count}")

    @property
    def marriages(self) -> int:
        """Sets of one value joker, one upper and one lower; their cards earn nothing alone."""
        return min(self.value_jokers, self.uppers, self.lowers)

    @property
    def points(self) -> int:
        """The value this hand receives from every other player who has not dropped."""
        m = self.marriages
        return MARRIAGE_POINTS[m] + sum(
            KIND_POINTS[count - m] for count in (self.value_jokers, self.uppers, self.lowers)
        )


def value_cards(hand: Collection[Card], jokers: Jokers) -> ValueCards:
    """Count the value joker, upper and lower jokers in ``hand`` (R-21-5).

    ``jokers`` must come from ``Jokers.from_cut(cut, value_cards=True)``.
    """
    if jokers.value_joker is None or jokers.upper is None or jokers.lower is None:
        raise ValueError("these jokers have no value cards: use Jokers.from_cut(cut, value_cards=True)")
    hand = list(hand)
    return ValueCards(
        value_jokers=hand.count(jokers.value_joker),
        uppers=hand.count(jokers.upper),
        lowers=hand.count(jokers.lower),
    )


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One seat's result in a deal, as input to :func:`settle`.

    ``loss``: points owed to the winner (0 for the winner; the drop score for a dropped
    player; the hand, deal-show or wrong-show score otherwise). ``value``: the player's value
    points (:attr:`ValueCards.points`), ignored for a dropped player.
    """

    winner: bool = False
    loss: int = 0
    dropped: bool = False
    value: int = 0


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` seat pays ``payee`` seat ``points`` (always > 0)."""

    payer: int
    payee: int
    points: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """Net points per seat (adding up to zero) and the transfers that make them."""

    net: tuple[int, ...]
    transfers: tuple[Transfer, ...]


def _check(players: Sequence[PlayerResult]) -> int:
    if len(players) < 2:
        raise SettlementError(f"a deal has at least 2 players, not {len(players)}")
    winners = [seat for seat, player in enumerate(players) if player.winner]
    if len(winners) != 1:
        raise SettlementError(f"a deal has exactly one winner, not {len(winners)}")
    winner = winners[0]
    if players[winner].dropped or players[winner].loss:
        raise SettlementError("the winner can neither drop nor lose points")
    for seat, player in enumerate(players):
        if player.loss < 0 or player.value < 0:
            raise SettlementError(f"seat {seat}: loss and value cannot be negative")
    return winner


def settle(players: Sequence[PlayerResult], *, variant: Variant = POINTS21) -> Settlement:
    """Settle a 21-card deal (R-21-5, R-21-7): each seat's net points and who pays whom.

    A player's total = points won (the winner: every loss; a loser: minus their loss) + value
    received - value given, among the players who did not drop. No total goes below
    ``-variant.max_loss``; see the module docstring for where the cap cuts.
    """
    if variant.max_loss is None:
        raise SettlementError(f"{variant.name} has no deal settlement")
    cap = variant.max_loss
    winner = _check(players)
    seats = range(len(players))
    # owes[a][b]: what seat a owes seat b, net of what b owes a (so owes[b][a] == -owes[a][b]).
    owes = [[0] * len(players) for _ in seats]

    def add(payer: int, payee: int, points: int) -> None:
        owes[payer][payee] += points
        owes[payee][payer] -= points

    for seat, player in enumerate(players):
        if seat != winner:
            add(seat, winner, player.loss)
    active = [seat for seat in seats if not players[seat].dropped]
    for a in active:
        for b in active:
            if a < b:
                add(a, b, players[b].value - players[a].value)

    def net(seat: int) -> int:
        return -sum(owes[seat])

    past_cap = True
    while past_cap:
        past_cap = False
        for seat in seats:
            cut = -net(seat) - cap
            if cut <= 0:
                continue
            past_cap = True
            for payee in [winner, *seats]:
                if payee == seat or owes[seat][payee] <= 0:
                    continue
                taken = min(cut, owes[seat][payee])
                add(seat, payee, -taken)
                cut -= taken
                if cut == 0:
                    break

    transfers = tuple(
        Transfer(payer, payee, owes[payer][payee])
        for payer in seats
        for payee in seats
        if owes[payer][payee] > 0
    )
    return Settlement(net=tuple(net(seat) for seat in seats), transfers=transfers)
