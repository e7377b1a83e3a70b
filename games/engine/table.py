"""One table across deals: seating, a game of pool or deals rummy or points deals, and money intents.

``apply(state, command) -> Progress(state, events, money)``: pure, like :func:`games.engine.deal.apply`.
The server stores the new state, publishes the events and performs the money intents through
the wallet in the same transaction. Time and seeds come in with the commands; deadlines are
data (:attr:`TableState.deadline_ms`, :attr:`TableState.waiting_for`), and a :class:`Timeout`
applies only once its deadline has passed.

Phases: ``waiting`` (seating before the game; a countdown once enough players sit),
``playing`` (a deal runs), ``between`` (a deal is over: rejoin window, split offer, or a pause
in which 21-card players may leave), ``finished`` and ``cancelled``. When the state says
``waiting_for == "deal"`` the server applies :class:`NextDeal` with fresh seeds at once.

Decisions beyond RULES.md:

- Pool tables charge the entry fee on joining; a player who leaves before the start is
  refunded and cannot join that same table again (the fee's idempotency is per table and user).
- A player who leaves a running game (R-MONEY-5) is out of the game at once, like an eliminated
  player, and out of the running deal at once (:func:`games.engine.deal.leave`: a drop, a
  wrong show while declaring, a show not sent after a declaration). Their fee stays in the
  pool; when one player is left in the game they win it at once, and no fee is ever refunded
  once the game has started.
- "Leave after this deal" (:class:`LeaveAfterDeal`) marks the player; when the deal ends they
  leave as if they had pressed Leave then (pool and deals: a forfeit unless the game is over;
  points: the seat is released after the settlement).
- A points seat holds exactly the variant's most a deal can lose x point value on joining
  (200 on 21-card tables, R-21-8; 80 on 13-card ones, R-PTS-4). After each deal a seat below
  that is topped back up from the wallet (R-21-9): the server passes each seated player's
  wallet balance in the :class:`Timeout` that ends the pause (``funds``); only a player whose
  wallet cannot cover the top-up is stood up, and the whole table is told why.
- Deals rummy (R-DEALS-*): game chips are each player's :attr:`Player.chips`, set when the game
  starts and moved after each deal; they never leave the engine (no money intent names them).
  After the last deal the most chips wins the prize pool; players tied for the most play a
  tie-breaker deal among themselves (:attr:`TableState.tie_break`) until one leads. A player
  who leaves is out of the game like a pool player (R-DEALS-5); one whose turns all time out
  stays in, dropped each deal after three missed moves (R-TURN-6), and may still win.
- Every stand-up, top-up, removal and wait is an event for the whole table with a ``reason``
  in plain words.
- R-POOL-4: the rejoin offer of a deal (eligibility and restart score) is fixed when the deal
  ends, from the players not eliminated in it (``rejoin_score``); rejoins never change it.
- R-POOL-7: a player who left is out of the game like an eliminated one; the automatic split
  is checked after every deal, and again when a player leaves between deals (the standings
  are still those at the end of the last deal).
- A manual split offer (R-POOL-6) is withdrawn when any player declines; a rejoin changes who
  remains, so the offer is recomputed and earlier answers are cleared.
- The toss is verifiable like the deal (R-DEAL-5 applied to R-TOSS-1): the ``toss`` event
  carries the commitment to the toss seed; the seed and the order in which the players got
  their cards are revealed (``toss_revealed``) when the first deal after the toss is over, so
  anyone can re-derive every toss card with :func:`games.engine.toss.toss`.
- Points: a player who joins and leaves again before the next deal is as if they never
  joined: the table is not tossed again for them (R-TOSS-3, a leaving player never re-seats).
- Points: when players leave mid-deal one by one, each leave is a drop settled with the deal
  and the last player left in it wins it (R-PTS-5); the table then waits for players, and
  closes after its wait with every seat released if nobody comes (R-MONEY-4).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, TypeAlias

from games.engine import deal as deals
from games.engine import pool
from games.engine.actions import (
    Declare,
    Discard,
    Draw,
    Drop,
    Finish,
    IllegalAction,
    PlayerAction,
    SaveGrouping,
    Show,
    action_from_json,
    action_to_json,
)
from games.engine.actions import Timeout as DealTimeout
from games.engine.deal import DealState, Timing
from games.engine.events import Event
from games.engine.plain import fields_of
from games.engine.shuffle import commitment, seed_from_hex, seed_hex
from games.engine.toss import next_dealer, seating_after_leaving, toss
from games.engine.variants import CHIPS_PER_DEAL, Variant

MIN_PLAYERS = 2
MAX_PLAYERS = 6
POINTS_HISTORY_KEPT = 10
"""The finished deals a points table keeps in its state (every deal stays in the database's
deal history): its state is read and written at every move, and the table deals for ever."""


class Phase(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    BETWEEN = "between"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Status(StrEnum):
    """A player's standing at the table."""

    SEATED = "seated"
    """Sitting, waiting for the game (pool) or the next deal (21-card) to start."""
    IN = "in"
    """In the game: plays the next deal."""
    ELIMINATED = "eliminated"
    LEFT = "left"


@dataclass(frozen=True, slots=True)
class Rules:
    """The table's settings (a staff-defined template), money in paise, time in ms."""

    seats: int = 6
    entry_fee: int = 0
    """Pool and deals: the entry fee. Points: unused."""
    point_value: int = 0
    """Points: paise per point. Pool and deals: unused."""
    rake_percent: int = 10
    timing: Timing = deals.DEFAULT_TIMING
    rejoin_ms: int = 20_000
    start_ms: int = 10_000
    """The countdown once enough players sit."""
    between_ms: int = 5_000
    """The pause after a deal when nothing is to be decided."""
    wait_ms: int = 600_000
    """A table with fewer than two players this long after opening is cancelled (R-MONEY-4)."""
    packs: int | None = None
    fee_limit: int = pool.FEE_LIMIT
    deals: int = 0
    """Deals rummy: the number of deals in the game (R-DEALS-1). Other formats: unused."""
    qualify: int = 1
    """Deals rummy: how many players the game decides, by the most chips (one: its winner; a
    tournament round's table: those who go through, R-TOUR-3)."""

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.seats <= MAX_PLAYERS:
            raise ValueError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {self.seats}")


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    status: Status = Status.SEATED
    score: int = 0
    """Pool: the game total. Other formats: unused."""
    rejoins: int = 0
    auto_drop: bool = False
    """R-DROP-4: dropped from every deal that starts while this is on."""
    held: int = 0
    """Points: the balance held on the seat, in paise."""
    chips: int = 0
    """Deals: the player's game chips (R-DEALS-2): a score, never money."""
    leaving: bool = False
    """Asked to leave after the current deal."""

    @property
    def in_game(self) -> bool:
        return self.status is Status.IN


# --- commands -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Join:
    player: str
    at: int


@dataclass(frozen=True, slots=True)
class Leave:
    player: str
    at: int


@dataclass(frozen=True, slots=True)
class LeaveAfterDeal:
    """``on=True``: leave when the current deal ends; ``on=False``: stay after all."""

    player: str
    on: bool
    at: int


@dataclass(frozen=True, slots=True)
class SetAutoDrop:
    """``on=True``: auto drop from the next deal; ``on=False``: "I'm back" from the next deal (R-DROP-4)."""

    player: str
    on: bool
    at: int


@dataclass(frozen=True, slots=True)
class Rejoin:
    player: str
    at: int


@dataclass(frozen=True, slots=True)
class AnswerSplit:
    player: str
    accept: bool
    at: int


@dataclass(frozen=True, slots=True)
class NextDeal:
    """Start the next deal (the first one starts the game); applied when ``waiting_for == "deal"``."""

    at: int
    seed: bytes
    toss_seed: bytes


@dataclass(frozen=True, slots=True)
class Void:
    """R-MONEY-7: staff void a game that cannot go on (the second staff member has confirmed:
    the back office's part). Pool: every entry and rejoin fee back, no rake, no prize. 21-card:
    the current deal dropped with no settlement, every seat hold returned. ``why`` is told to
    the players."""

    at: int
    why: str


@dataclass(frozen=True, slots=True)
class Cancel:
    """Staff cancel a table whose game has not started: every entry fee is refunded and every
    21-card seat released (R-MONEY-4). ``why`` is told to the players."""

    at: int
    why: str


@dataclass(frozen=True, slots=True)
class Timeout:
    """Apply the table's deadline: a missed move or show in the deal, the end of a countdown,
    a rejoin window or a pause. Refused before the deadline (``not_expired``).

    ``funds``: on a 21-card table, what each seated player may top up with, in paise (their
    wallet balance, or less when their own daily stake limit leaves less), so the end of the
    pause can top seats back up (R-21-9); a player not named has nothing to top up with.
    ``limited``: the players whose funds their stake limit cut (R-PROT-4): stood up with that
    reason."""

    at: int
    funds: tuple[tuple[str, int], ...] = ()
    limited: tuple[str, ...] = ()


Command: TypeAlias = (
    Join
    | Leave
    | LeaveAfterDeal
    | SetAutoDrop
    | Rejoin
    | AnswerSplit
    | NextDeal
    | Cancel
    | Void
    | Timeout
    | PlayerAction
)


# --- money intents --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChargeEntry:
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class RefundEntry:
    """Give a player who left before the start their entry fee back."""

    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class RefundAll:
    """R-MONEY-4: the game never started; every fee back, the pool closed. Also R-MONEY-7's
    void of a started game (``voided``): every entry and rejoin fee back, no rake."""

    voided: bool = False


@dataclass(frozen=True, slots=True)
class ChargeRejoin:
    player: str
    amount: int
    number: int


@dataclass(frozen=True, slots=True)
class PayWinner:
    player: str
    prize: int
    """The prize pool less the rake, as the table counts it."""


@dataclass(frozen=True, slots=True)
class PaySplit:
    players: tuple[str, ...]
    amounts: tuple[int, ...]
    drops_left: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HoldSeat:
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class ReleaseSeat:
    player: str


@dataclass(frozen=True, slots=True)
class TopUpSeat:
    """R-21-9: move ``amount`` from the player's wallet onto their seat before deal ``deal_number + 1``."""

    player: str
    amount: int
    deal_number: int


@dataclass(frozen=True, slots=True)
class SettleDeal:
    """Points: one deal's settlement (R-21-7, R-PTS-3), paid from the seats' holds."""

    deal_number: int
    transfers: tuple[tuple[str, str, int], ...]
    """(payer, payee, points)."""


Money: TypeAlias = (
    ChargeEntry
    | RefundEntry
    | RefundAll
    | ChargeRejoin
    | PayWinner
    | PaySplit
    | HoldSeat
    | ReleaseSeat
    | TopUpSeat
    | SettleDeal
)


# --- state ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableState:
    variant: Variant
    rules: Rules
    phase: Phase
    opened_ms: int
    now_ms: int
    players: tuple[Player, ...] = ()
    """In seating order once the game has started (the last toss), else in joining order."""
    deal: DealState | None = None
    deal_number: int = 0
    started: int = 0
    """Pool: players when the game started (R-POOL-6, R-POOL-7)."""
    prize_pool: int = 0
    need_toss: bool = True
    seating: tuple[str, ...] = ()
    dealer: str | None = None
    first: str | None = None
    since_ms: int = 0
    """When the current wait (countdown, rejoin window, pause) began."""
    countdown: bool = False
    """WAITING: enough players sit and the start countdown runs (or is over: ready)."""
    ready: bool = False
    """The next deal is due: the server applies NextDeal now."""
    rejoin_open: tuple[str, ...] = ()
    rejoin_score: int | None = None
    """R-POOL-4: the restart score offered to the players eliminated in the last deal."""
    split_offer: bool = False
    split_accepted: tuple[str, ...] = ()
    winner: str | None = None
    payouts: tuple[tuple[str, int], ...] = ()
    """Pool: who was paid what when the game ended."""
    history: tuple[dict[str, Any], ...] = field(default=())
    """Finished deals of this game in brief (number, winner, scores, the toss revealed; deals:
    the game chips after each). A points table keeps its last :data:`POINTS_HISTORY_KEPT`."""
    toss_seed: bytes | None = None
    """The seed of the last toss, secret until the deal after it is over."""
    toss_players: tuple[str, ...] = ()
    """The players in the order they got their toss cards (to re-derive the toss)."""
    tie_break: tuple[str, ...] = ()
    """Deals: the players tied at the cut after the last deal (for the most chips, or for the
    last place that goes through), who alone play the next deal (R-DEALS-4, R-TOUR-3)."""
    qualified: tuple[str, ...] = ()
    """Deals, once over: the players the game decided, most chips first (the winner alone, or
    those who go through from a tournament round's table)."""

    @property
    def is_pool(self) -> bool:
        """Pool rummy: scores add up to an elimination."""
        return self.variant.is_pool

    @property
    def is_points(self) -> bool:
        """Points rummy (13 or 21 cards): money from seat holds, deal after deal."""
        return self.variant.is_points

    @property
    def is_deals(self) -> bool:
        return self.variant.is_deals

    @property
    def has_prize_pool(self) -> bool:
        """Pool and deals rummy: entry fees form a prize pool, paid when the game ends."""
        return self.variant.has_prize_pool

    @property
    def seat_hold(self) -> int:
        """Points: what a seat holds, the most a deal can lose x point value (R-21-8, R-PTS-4)."""
        return self.variant.seat_hold_points * self.rules.point_value

    def player(self, name: str) -> Player:
        for player in self.players:
            if player.name == name:
                return player
        raise IllegalAction("not_at_table", f"{name} is not at this table")

    def has(self, name: str) -> bool:
        return any(player.name == name for player in self.players)

    @property
    def seated(self) -> tuple[Player, ...]:
        """Players present at the table (not left, not eliminated)."""
        return tuple(p for p in self.players if p.status in (Status.SEATED, Status.IN))

    @property
    def remaining(self) -> tuple[Player, ...]:
        """Pool: the players still in the game."""
        return tuple(p for p in self.players if p.status is Status.IN)

    @property
    def deadline_ms(self) -> int | None:
        if self.phase is Phase.PLAYING:
            assert self.deal is not None
            return self.deal.deadline_ms
        if self.phase is Phase.WAITING:
            if self.ready:
                return None
            if self.countdown:
                return self.since_ms + self.rules.start_ms
            return self.opened_ms + self.rules.wait_ms
        if self.phase is Phase.BETWEEN:
            if self.ready:
                return None
            decisions = self.rejoin_open or self.split_offer
            return self.since_ms + (self.rules.rejoin_ms if decisions else self.rules.between_ms)
        return None

    @property
    def waiting_for(self) -> str:
        """What the table waits for: players, countdown, deal (start one now), move, decisions,
        pause, or nothing (over)."""
        if self.phase is Phase.PLAYING:
            return "move"
        if self.phase in (Phase.WAITING, Phase.BETWEEN) and self.ready:
            return "deal"
        if self.phase is Phase.WAITING:
            return "countdown" if self.countdown else "players"
        if self.phase is Phase.BETWEEN:
            return "decisions" if (self.rejoin_open or self.split_offer) else "pause"
        return ""

    def drops_left(self, players: Sequence[Player]) -> tuple[int, ...]:
        return tuple(pool.drops_remaining(self.variant, p.score) for p in players)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant.to_json(),
            "rules": {**fields_of(self.rules), "timing": fields_of(self.rules.timing)},
            "phase": self.phase.value,
            "opened_ms": self.opened_ms,
            "now_ms": self.now_ms,
            "players": [{**fields_of(p), "status": p.status.value} for p in self.players],
            "deal": None if self.deal is None else self.deal.to_json(),
            "deal_number": self.deal_number,
            "started": self.started,
            "prize_pool": self.prize_pool,
            "need_toss": self.need_toss,
            "seating": list(self.seating),
            "dealer": self.dealer,
            "first": self.first,
            "since_ms": self.since_ms,
            "countdown": self.countdown,
            "ready": self.ready,
            "rejoin_open": list(self.rejoin_open),
            "rejoin_score": self.rejoin_score,
            "split_offer": self.split_offer,
            "split_accepted": list(self.split_accepted),
            "winner": self.winner,
            "payouts": [list(item) for item in self.payouts],
            "history": list(self.history),
            "toss_seed": None if self.toss_seed is None else seed_hex(self.toss_seed),
            "toss_players": list(self.toss_players),
            "tie_break": list(self.tie_break),
            "qualified": list(self.qualified),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableState:
        rules = dict(data["rules"])
        rules["timing"] = Timing(**rules["timing"])
        return cls(
            variant=Variant.from_json(data["variant"]),
            rules=Rules(**rules),
            phase=Phase(data["phase"]),
            opened_ms=int(data["opened_ms"]),
            now_ms=int(data["now_ms"]),
            players=tuple(Player(**{**p, "status": Status(p["status"])}) for p in data["players"]),
            deal=None if data["deal"] is None else DealState.from_json(data["deal"]),
            deal_number=int(data["deal_number"]),
            started=int(data["started"]),
            prize_pool=int(data["prize_pool"]),
            need_toss=bool(data["need_toss"]),
            seating=tuple(data["seating"]),
            dealer=data["dealer"],
            first=data["first"],
            since_ms=int(data["since_ms"]),
            countdown=bool(data["countdown"]),
            ready=bool(data["ready"]),
            rejoin_open=tuple(data["rejoin_open"]),
            rejoin_score=data.get("rejoin_score"),
            split_offer=bool(data["split_offer"]),
            split_accepted=tuple(data["split_accepted"]),
            winner=data["winner"],
            payouts=tuple((str(name), int(amount)) for name, amount in data["payouts"]),
            history=tuple(data["history"]),
            toss_seed=None if data.get("toss_seed") is None else seed_from_hex(data["toss_seed"]),
            toss_players=tuple(data.get("toss_players", ())),
            tie_break=tuple(data.get("tie_break", ())),
            qualified=tuple(data.get("qualified", ())),
        )


@dataclass(frozen=True, slots=True)
class Progress:
    """What a command did: the new state, the events to publish, the money to move."""

    state: TableState
    events: tuple[Event, ...]
    money: tuple[Money, ...] = ()
    deal_over: DealState | None = None
    """The deal that ended with this command, if one did (for the deal's history)."""
    deal_started: DealState | None = None
    toss: dict[str, Any] | None = None
    """The toss revealed with the deal that ended (seed, commitment, players), for its history."""


def open_table(variant: Variant, rules: Rules, now_ms: int) -> TableState:
    """A new, empty table waiting for players."""
    if variant.is_points and rules.point_value <= 0:
        raise ValueError("a points table needs a point value")
    if variant.is_deals and not MIN_PLAYERS <= rules.deals <= MAX_PLAYERS:
        raise ValueError(f"a deals table plays {MIN_PLAYERS} to {MAX_PLAYERS} deals, not {rules.deals}")
    if not 1 <= rules.qualify < rules.seats or (rules.qualify > 1 and not variant.is_deals):
        raise ValueError(f"a game decides 1 to {rules.seats - 1} players (deals rummy), not {rules.qualify}")
    return TableState(variant=variant, rules=rules, phase=Phase.WAITING, opened_ms=now_ms, now_ms=now_ms)


# --- apply ----------------------------------------------------------------------------------


class _Out:
    """Collects events and money while a command is applied."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.money: list[Money] = []
        self.deal_over: DealState | None = None
        self.deal_started: DealState | None = None
        self.toss: dict[str, Any] | None = None

    def done(self, state: TableState) -> Progress:
        return Progress(
            state, tuple(self.events), tuple(self.money), self.deal_over, self.deal_started, self.toss
        )


def apply(state: TableState, command: Command) -> Progress:
    """Apply one command; an :class:`IllegalAction` (or InvalidAction) if it cannot be."""
    if command.at < state.now_ms:
        raise IllegalAction(
            "time_went_back", f"the command is dated {command.at} ms, before {state.now_ms} ms"
        )
    out = _Out()
    if isinstance(command, Join):
        new = _join(state, command, out)
    elif isinstance(command, Leave):
        new = _leave(state, command, out)
    elif isinstance(command, LeaveAfterDeal):
        new = _leave_after_deal(state, command, out)
    elif isinstance(command, SetAutoDrop):
        new = _set_auto_drop(state, command, out)
    elif isinstance(command, Rejoin):
        new = _rejoin(state, command, out)
    elif isinstance(command, AnswerSplit):
        new = _answer_split(state, command, out)
    elif isinstance(command, NextDeal):
        new = _next_deal(state, command, out)
    elif isinstance(command, Cancel):
        new = _cancel_by_staff(state, command, out)
    elif isinstance(command, Void):
        new = _void(state, command, out)
    elif isinstance(command, Timeout):
        new = _timeout(state, command, out)
    else:
        new = _move(state, command, out)
    return out.done(replace(new, now_ms=max(new.now_ms, command.at)))


def _with_player(state: TableState, player: Player) -> TableState:
    return replace(state, players=tuple(player if p.name == player.name else p for p in state.players))


def _rewait(state: TableState, at: int, out: _Out | None = None) -> TableState:
    """WAITING: start or stop the countdown as the number of seated players changes."""
    enough = len(state.seated) >= MIN_PLAYERS
    if enough and not state.countdown:
        return replace(state, countdown=True, since_ms=at, ready=len(state.seated) >= state.rules.seats)
    if not enough:
        opened = at if not state.seated or state.countdown else state.opened_ms
        if state.countdown and out is not None:
            out.events.append(
                Event(
                    "waiting",
                    {
                        "players": [p.name for p in state.seated],
                        "reason": "the start countdown stopped: fewer than two players are seated",
                        "deadline_ms": opened + state.rules.wait_ms,
                    },
                )
            )
        return replace(state, countdown=False, ready=False, opened_ms=opened)
    if len(state.seated) >= state.rules.seats:
        return replace(state, ready=True)
    return state


def _join(state: TableState, command: Join, out: _Out) -> TableState:
    name = command.player
    if state.phase in (Phase.FINISHED, Phase.CANCELLED):
        raise IllegalAction("table_closed", "this table is closed")
    if state.has_prize_pool and state.phase is not Phase.WAITING:
        raise IllegalAction("game_running", "this game has already started")
    if state.has(name):
        if state.player(name).status is Status.LEFT and state.has_prize_pool:
            raise IllegalAction("left_table", "you left this table: join another one")
        if state.player(name).status is not Status.LEFT:
            raise IllegalAction("already_seated", "you are already at this table")
    if len(state.seated) >= state.rules.seats:
        raise IllegalAction("table_full", "every seat at this table is taken")
    players = tuple(p for p in state.players if p.name != name)
    if state.has_prize_pool:
        if state.rules.entry_fee:  # a free table (a tournament's) charges nothing
            out.money.append(ChargeEntry(name, state.rules.entry_fee))
        new = Player(name)
        state = replace(state, players=(*players, new), prize_pool=state.prize_pool + state.rules.entry_fee)
    else:
        out.money.append(HoldSeat(name, state.seat_hold))
        state = replace(state, players=(*players, Player(name, held=state.seat_hold)), need_toss=True)
    out.events.append(Event("joined", {"player": name, "seats": [p.name for p in state.seated]}))
    if state.phase is Phase.WAITING:
        state = _rewait(state, command.at)
    return state


def _leave(state: TableState, command: Leave, out: _Out) -> TableState:
    name = command.player
    player = state.player(name)
    if player.status is Status.LEFT:
        raise IllegalAction("already_left", "you have left this table")
    if state.phase in (Phase.FINISHED, Phase.CANCELLED):
        raise IllegalAction("table_closed", "this table is closed")
    forfeit = state.has_prize_pool and state.phase is not Phase.WAITING and player.status is Status.IN
    if state.phase is Phase.WAITING:
        reason = "left before the game started: the entry fee is back in the wallet"
        if state.is_points:
            reason = "left the table: the seat balance is back in the wallet"
    elif forfeit:
        reason = "left the game: the entry fee stays in the prize pool"
    elif state.has_prize_pool:
        reason = "left the table"
    else:
        reason = "left the table: the seat balance goes back to the wallet after the deal is settled"
    out.events.append(Event("left", {"player": name, "forfeit": forfeit, "reason": reason}))
    left = replace(player, status=Status.LEFT, leaving=False)
    if state.phase is Phase.WAITING:
        if state.has_prize_pool and state.rules.entry_fee:
            out.money.append(RefundEntry(name, state.rules.entry_fee))
            state = replace(state, prize_pool=state.prize_pool - state.rules.entry_fee)
        else:
            out.money.append(ReleaseSeat(name))
        return _rewait(_with_player(state, left), command.at, out)
    # Points: a seat in the running deal is settled with it before it is released.
    in_running_deal = state.phase is Phase.PLAYING and state.deal is not None and name in state.deal.players
    state = _with_player(state, left)
    if state.is_points and player.status is Status.SEATED and state.seating:
        # Joined and gone before playing a deal: no toss for them (R-TOSS-3).
        state = replace(state, need_toss=any(p.status is Status.SEATED for p in state.players))
    if state.is_points and not in_running_deal:
        out.money.append(ReleaseSeat(name))
    state = replace(
        state,
        rejoin_open=tuple(n for n in state.rejoin_open if n != name),
        tie_break=tuple(n for n in state.tie_break if n != name),
    )
    if state.phase is Phase.PLAYING:
        assert state.deal is not None
        if in_running_deal and state.deal.phase is not deals.Phase.OVER:
            step = deals.leave(state.deal, name, max(command.at, state.deal.now_ms))
            out.events.extend(step.events)
            state = replace(state, deal=step.state)
        if state.has_prize_pool and len(state.remaining) == 1:
            # One player left in the game wins it at once, even mid-deal (R-MONEY-5, R-DEALS-5):
            # the deal is closed for its record (a show still open ends now) and scores nothing.
            assert state.deal is not None
            if state.deal.phase is deals.Phase.SHOW:
                step = deals.end_show(state.deal, max(command.at, state.deal.now_ms))
                out.events.extend(step.events)
                state = replace(state, deal=step.state)
            assert state.deal is not None
            assert state.deal.phase is deals.Phase.OVER
            return _deal_over(state, command.at, out, game_winner=state.remaining[0].name)
        return _after_deal_step(state, command.at, out)
    if state.is_pool and state.phase is Phase.BETWEEN:
        return _after_standings(state, command.at, out, recheck_split=True, auto_split=True)
    if state.is_deals and state.phase is Phase.BETWEEN:
        return _deals_standing(state, out)
    if state.is_points and state.phase is Phase.BETWEEN and len(state.seated) < MIN_PLAYERS:
        return replace(state, ready=False)
    return state


def _leave_after_deal(state: TableState, command: LeaveAfterDeal, out: _Out) -> TableState:
    player = state.player(command.player)
    if player.status not in (Status.SEATED, Status.IN):
        raise IllegalAction("not_playing", "you are not playing at this table")
    if state.phase is not Phase.PLAYING:
        raise IllegalAction("no_deal", "no deal is being played: press Leave to leave now")
    if player.leaving == command.on:
        return state
    out.events.append(
        Event(
            "leaving_after_deal" if command.on else "staying",
            {
                "player": command.player,
                "reason": "will leave when this deal ends" if command.on else "will stay after this deal",
            },
        )
    )
    return _with_player(state, replace(player, leaving=command.on))


def _set_auto_drop(state: TableState, command: SetAutoDrop, out: _Out) -> TableState:
    player = state.player(command.player)
    if player.status not in (Status.SEATED, Status.IN):
        raise IllegalAction("not_playing", "you are not playing at this table")
    if player.auto_drop == command.on:
        return state
    out.events.append(Event("auto_drop" if command.on else "im_back", {"player": command.player}))
    return _with_player(state, replace(player, auto_drop=command.on))


def _rejoin(state: TableState, command: Rejoin, out: _Out) -> TableState:
    name = command.player
    player = state.player(name)
    if not state.is_pool:
        raise IllegalAction("rejoin_not_allowed", "there is no rejoin at this table: only pool rummy has one")
    if state.phase is not Phase.BETWEEN or name not in state.rejoin_open:
        why = (
            "the game has ended"
            if state.phase is Phase.FINISHED
            else "you may rejoin only right after the deal that eliminated you"
        )
        raise IllegalAction("rejoin_not_allowed", f"you cannot rejoin: {why}")
    deadline = state.deadline_ms
    if deadline is not None and command.at > deadline:
        raise IllegalAction("rejoin_not_allowed", "you cannot rejoin: the rejoin time is over")
    # R-POOL-4: the offer made when the deal ended stands, whoever rejoined before.
    score = state.rejoin_score
    assert score is not None, "a rejoin offer always has its restart score"
    number = player.rejoins + 1
    out.money.append(ChargeRejoin(name, state.rules.entry_fee, number))
    out.events.append(Event("rejoined", {"player": name, "score": score, "rejoins": number}))
    state = _with_player(state, replace(player, status=Status.IN, score=score, rejoins=number))
    state = replace(
        state,
        prize_pool=state.prize_pool + state.rules.entry_fee,
        rejoin_open=tuple(n for n in state.rejoin_open if n != name),
    )
    return _after_standings(state, command.at, out, recheck_split=True)


def _answer_split(state: TableState, command: AnswerSplit, out: _Out) -> TableState:
    name = command.player
    player = state.player(name)
    if state.phase is not Phase.BETWEEN or not state.split_offer:
        raise IllegalAction("no_split_offer", "no split is on offer")
    if not player.in_game:
        raise IllegalAction("not_playing", "only players still in the game answer a split offer")
    if not command.accept:
        out.events.append(Event("split_declined", {"player": name}))
        return replace(state, split_offer=False, split_accepted=())
    accepted = tuple(dict.fromkeys((*state.split_accepted, name)))
    out.events.append(Event("split_accepted", {"player": name}))
    state = replace(state, split_accepted=accepted)
    if set(accepted) >= {p.name for p in state.remaining}:
        return _end_with_split(state, command.at, out, manual=True)
    return state


def _next_deal(state: TableState, command: NextDeal, out: _Out) -> TableState:
    if state.phase not in (Phase.WAITING, Phase.BETWEEN) or not state.ready:
        raise IllegalAction("not_ready", "the next deal is not due")
    at = command.at
    if state.phase is Phase.WAITING and state.has_prize_pool:
        # The game starts: every seated player is in (deals: with their game chips, R-DEALS-2).
        chips = CHIPS_PER_DEAL * state.rules.deals if state.is_deals else 0
        state = replace(
            state,
            players=tuple(
                replace(p, status=Status.IN, chips=chips) for p in state.players if p.status is Status.SEATED
            ),
            started=len(state.seated),
        )
        started: dict[str, Any] = {"players": [p.name for p in state.players], "prize_pool": state.prize_pool}
        if state.is_deals:
            started.update(deals=state.rules.deals, chips=chips)
        out.events.append(Event("game_started", started))
    if state.is_points:
        state = replace(
            state,
            players=tuple(
                replace(p, status=Status.IN) if p.status is Status.SEATED else p for p in state.players
            ),
        )
    present = [p.name for p in state.remaining if not state.tie_break or p.name in state.tie_break]
    if len(present) < MIN_PLAYERS:
        raise IllegalAction("not_enough_players", "a deal needs at least two players")
    if state.need_toss or not state.seating or any(name not in state.seating for name in present):
        tossed = toss(present, command.toss_seed)
        seating = tossed.seating
        dealer = tossed.dealer
        out.events.append(
            Event(
                "toss",
                {
                    "cards": [
                        {"player": c.player, "card": c.card.code, "round": c.round} for c in tossed.cards
                    ],
                    "seating": list(seating),
                    "commitment": commitment(command.toss_seed),
                },
            )
        )
        state = replace(state, toss_seed=command.toss_seed, toss_players=tuple(present))
    else:
        assert state.dealer is not None
        assert state.first is not None
        dealer = next_dealer(state.seating, state.dealer, state.first, present)
        seating = seating_after_leaving(state.seating, present)
    order = {name: index for index, name in enumerate(seating)}
    players = tuple(sorted(state.players, key=lambda p: order.get(p.name, len(order))))
    auto = frozenset(p.name for p in players if p.auto_drop and p.name in order)
    if auto >= set(seating):
        auto = frozenset()  # nobody would play: auto drop waits for a deal someone plays
    dealer_index = seating.index(dealer)
    step = deals.start_deal(
        state.variant,
        seating,
        dealer_index,
        command.seed,
        at,
        state.rules.timing,
        auto_drop=auto,
        packs=state.rules.packs,
    )
    number = state.deal_number + 1
    out.deal_started = step.state
    out.events.append(Event("deal_number", {"number": number}))
    out.events.extend(step.events)
    state = replace(
        state,
        players=players,
        phase=Phase.PLAYING,
        deal=step.state,
        deal_number=number,
        need_toss=False,
        seating=seating,
        dealer=dealer,
        first=seating[(dealer_index + 1) % len(seating)],
        ready=False,
        countdown=False,
        rejoin_open=(),
        split_offer=False,
        split_accepted=(),
        since_ms=at,
    )
    return _after_deal_step(state, at, out)


def _move(state: TableState, action: PlayerAction, out: _Out) -> TableState:
    if state.phase is not Phase.PLAYING or state.deal is None:
        raise IllegalAction("no_deal", "no deal is being played at this table")
    if state.has(action.player) and state.player(action.player).status is Status.LEFT:
        raise IllegalAction("left_table", "you have left this table")
    step = deals.apply(state.deal, action)
    out.events.extend(step.events)
    return _after_deal_step(replace(state, deal=step.state), action.at, out)


def _timeout(state: TableState, command: Timeout, out: _Out) -> TableState:
    deadline = state.deadline_ms
    if deadline is None:
        raise IllegalAction("no_deadline", "the table is not waiting for a deadline")
    if command.at < deadline:
        raise IllegalAction(
            "not_expired", f"the deadline is at {deadline} ms, not yet reached at {command.at} ms"
        )
    at = command.at
    if state.phase is Phase.PLAYING:
        assert state.deal is not None
        step = deals.apply(state.deal, DealTimeout(at))
        out.events.extend(step.events)
        return _after_deal_step(replace(state, deal=step.state), at, out)
    if state.phase is Phase.WAITING:
        if state.countdown:
            return replace(state, ready=True)
        return _cancel(
            state,
            {"reason": "not enough players came in time: every fee and seat balance is back in the wallet"},
            out,
        )
    # BETWEEN: the rejoin window, split offer or pause is over.
    if state.rejoin_open or state.split_offer:
        out.events.append(
            Event("decisions_closed", {"rejoin_missed": list(state.rejoin_open), "split": False})
        )
    state = replace(state, rejoin_open=(), rejoin_score=None, split_offer=False, split_accepted=())
    if state.is_points:
        return _points_ready(state, at, out, dict(command.funds), frozenset(command.limited))
    return replace(state, ready=True)


def _auto_drops(state: TableState, at: int, out: _Out) -> TableState:
    """Drop a player who left, when the deal waits for their move before a draw."""
    while (
        state.deal is not None
        and state.deal.phase is deals.Phase.PLAY
        and state.deal.drawn is None
        and state.player(state.deal.seats[state.deal.turn].player).status is Status.LEFT
    ):
        step = deals.apply(
            state.deal, Drop(state.deal.seats[state.deal.turn].player, max(at, state.deal.now_ms))
        )
        out.events.extend(step.events)
        state = replace(state, deal=step.state)
    if state.deal is not None and state.deal.phase is deals.Phase.OVER:
        return _deal_over(state, at, out)
    return state


def _after_deal_step(state: TableState, at: int, out: _Out) -> TableState:
    assert state.deal is not None
    if state.deal.phase is deals.Phase.OVER:
        return _deal_over(state, at, out)
    return _auto_drops(state, at, out)


def _deal_over(state: TableState, at: int, out: _Out, *, game_winner: str | None = None) -> TableState:
    """The deal is over: settle it (points), move the game chips (deals) or add up the totals
    (pool). ``game_winner``: the one player left in a pool or deals game after a leave, who
    wins it at once (R-MONEY-5, R-DEALS-5)."""
    over = state.deal
    assert over is not None
    out.deal_over = over
    result = deals.deal_result(over)
    summary: dict[str, Any] = {
        "number": state.deal_number,
        "winner": result.winner,
        "scores": {r.player: r.score for r in result.players},
    }
    if state.toss_seed is not None:
        # R-DEAL-5 for the toss: its seed is revealed once the deal it seated is over.
        out.toss = {
            "seed": seed_hex(state.toss_seed),
            "commitment": commitment(state.toss_seed),
            "players": list(state.toss_players),
        }
        summary["toss"] = out.toss
        out.events.append(Event("toss_revealed", {"number": state.deal_number, **out.toss}))
        state = replace(state, toss_seed=None, toss_players=())
    history = (*state.history, summary)
    if state.is_points:  # a points table deals for ever: its state keeps the last few deals only
        history = history[-POINTS_HISTORY_KEPT:]
    state = replace(state, phase=Phase.BETWEEN, since_ms=at, ready=False, history=history)
    if state.is_deals:
        state = _move_chips(state, result, out)
        if game_winner is not None:
            return _end_with_winner(state, game_winner, out)
        return _leave_now(_deals_standing(state, out), at, out)
    if state.is_points:
        transfers = tuple((t.payer, t.payee, t.points) for t in result.transfers)
        out.money.append(SettleDeal(state.deal_number, transfers))
        nets = {r.player: (r.net or 0) * state.rules.point_value for r in result.players}
        players = []
        for p in state.players:
            net = nets.get(p.name, 0)
            rake = net * state.rules.rake_percent // 100 if net > 0 else 0
            players.append(replace(p, held=p.held + net - rake))
        state = replace(state, players=tuple(players))
        for p in state.players:
            if p.status is Status.LEFT and p.name in over.players:
                out.money.append(ReleaseSeat(p.name))
        out.events.append(
            Event("settled", {"number": state.deal_number, "net": {r.player: r.net for r in result.players}})
        )
        return _leave_now(state, at, out)
    # Pool: totals, eliminations (R-POOL-2).
    scores = {r.player: r.score for r in result.players}
    eliminated: list[str] = []
    players = []
    for p in state.players:
        if p.name in scores and p.status is Status.IN:
            total = p.score + scores[p.name]
            status = Status.ELIMINATED if pool.is_eliminated(state.variant, total) else Status.IN
            if game_winner is not None:
                status = Status.IN
            if status is Status.ELIMINATED:
                eliminated.append(p.name)
            players.append(replace(p, score=total, status=status))
        else:
            players.append(p)
    state = replace(state, players=tuple(players))
    out.events.append(
        Event(
            "standings",
            {
                "number": state.deal_number,
                "totals": {p.name: p.score for p in state.players if p.status is not Status.LEFT},
                "eliminated": eliminated,
            },
        )
    )
    if game_winner is not None:
        return _end_with_winner(state, game_winner, out)
    if not state.remaining:
        return _end_all_out(state, eliminated, out)
    if len(state.remaining) >= MIN_PLAYERS:
        check = pool.rejoin_check(
            state.variant,
            entry_fee=state.rules.entry_fee,
            rejoin_max_fee=state.rules.fee_limit,
            scores_in_game=[p.score for p in state.remaining],
        )
        if check.allowed and eliminated:
            state = replace(state, rejoin_open=tuple(eliminated), rejoin_score=check.score)
            out.events.append(
                Event(
                    "rejoin_offered",
                    {"players": eliminated, "score": check.score, "deadline_ms": at + state.rules.rejoin_ms},
                )
            )
    state = _after_standings(state, at, out, recheck_split=True, auto_split=True)
    return _leave_now(state, at, out)


def _move_chips(state: TableState, result: deals.DealResult, out: _Out) -> TableState:
    """Deals: each loser's score moves in game chips to the deal's winner (R-DEALS-3), a player
    paying at most the chips they hold (they stay in the game at 0)."""
    winner = result.winner
    chips = {p.name: p.chips for p in state.players}
    moved: dict[str, int] = {}
    for r in result.players:
        if r.player != winner:
            pay = min(r.score, chips.get(r.player, 0))
            chips[r.player] -= pay
            chips[winner] += pay
            moved[r.player] = -pay
    moved[winner] = -sum(moved.values())
    standing = {p.name: chips[p.name] for p in state.players if p.status is not Status.LEFT}
    history = (*state.history[:-1], {**state.history[-1], "chips": standing})
    out.events.append(Event("chips_moved", {"number": state.deal_number, "moved": moved, "chips": standing}))
    players = tuple(replace(p, chips=chips[p.name]) for p in state.players)
    return replace(state, players=players, history=history)


def _deals_standing(state: TableState, out: _Out) -> TableState:
    """Deals, between deals: when no more players are left than the game decides, they are
    through at once (one left wins, R-DEALS-5); after the last deal the most game chips win
    (R-DEALS-4; the ``qualify`` most at a tournament's table, R-TOUR-3), and players tied at
    the cut play a tie-breaker deal among themselves."""
    ranked = sorted(state.remaining, key=lambda p: -p.chips)  # seat order among equals
    places = state.rules.qualify
    if len(ranked) <= places:
        return _end_with_winner(state, ranked[0].name, out, tuple(p.name for p in ranked))
    if state.deal_number < state.rules.deals and not state.tie_break:
        return state
    cut = ranked[places - 1].chips
    above = tuple(p.name for p in ranked if p.chips > cut)
    at_cut = tuple(p.name for p in ranked if p.chips == cut)
    if len(above) + len(at_cut) == places:
        return _end_with_winner(state, ranked[0].name, out, above + at_cut)
    again = bool(state.tie_break) and set(at_cut) == set(state.tie_break)
    what = "for the most game chips" if places == 1 else "at the cut of the players who go through"
    reason = (
        f"still tied {what}: another tie-breaker deal among them"
        if again
        else f"tied {what}: a tie-breaker deal among them decides"
    )
    out.events.append(Event("tie_breaker", {"players": list(at_cut), "chips": cut, "reason": reason}))
    return replace(state, tie_break=at_cut)


def _leave_now(state: TableState, at: int, out: _Out) -> TableState:
    """The deal is over: players who asked to leave after it leave now."""
    for p in state.players:
        if p.leaving and state.phase is Phase.BETWEEN and state.player(p.name).status is not Status.LEFT:
            state = _leave(state, Leave(p.name, at), out)
    return replace(state, players=tuple(replace(p, leaving=False) for p in state.players))


def _end_all_out(state: TableState, eliminated: Sequence[str], out: _Out) -> TableState:
    """The deal's winner had left and it eliminated everyone else. Decision: the player(s)
    eliminated with the lowest total win; equal lowest totals share the prize pool equally."""
    lowest = min(state.player(name).score for name in eliminated)
    winners = [state.player(name) for name in eliminated if state.player(name).score == lowest]
    if len(winners) == 1:
        return _end_with_winner(replace(state, players=_reinstated(state, winners)), winners[0].name, out)
    state = replace(state, players=_reinstated(state, winners))
    return _end_with_split(state, state.now_ms, out, manual=False)


def _reinstated(state: TableState, winners: Sequence[Player]) -> tuple[Player, ...]:
    names = {p.name for p in winners}
    return tuple(replace(p, status=Status.IN) if p.name in names else p for p in state.players)


def _cancel_by_staff(state: TableState, command: Cancel, out: _Out) -> TableState:
    if state.phase is not Phase.WAITING:
        raise IllegalAction(
            "game_running" if state.phase is not Phase.CANCELLED else "table_closed",
            "only a table whose game has not started can be cancelled",
        )
    return _cancel(state, {"reason": "cancelled by staff", "why": command.why}, out)


def _void(state: TableState, command: Void, out: _Out) -> TableState:
    """R-MONEY-7: end a running game with every fee or hold back; the deal in play, if any, is
    dropped unscored (its seed stays with the server, as the deal never ended)."""
    if state.phase not in (Phase.PLAYING, Phase.BETWEEN):
        raise IllegalAction(
            "not_playing",
            "only a game that has started can be voided; a table still waiting is cancelled instead",
        )
    out.events.append(Event("voided", {"reason": "voided by staff", "why": command.why}))
    if state.has_prize_pool and state.prize_pool:
        out.money.append(RefundAll(voided=True))
    elif state.is_points:  # a free table (a tournament's) holds nothing to give back
        out.money.extend(ReleaseSeat(p.name) for p in state.seated)
    players = tuple(replace(p, status=Status.LEFT) for p in state.players)
    return replace(
        state,
        phase=Phase.CANCELLED,
        deal=None,
        countdown=False,
        ready=False,
        prize_pool=0,
        rejoin_open=(),
        split_offer=False,
        players=players,
    )


def _cancel(state: TableState, data: dict[str, Any], out: _Out) -> TableState:
    """A table that never started: refund every fee, release every seat (R-MONEY-4)."""
    out.events.append(Event("cancelled", data))
    if state.has_prize_pool and state.prize_pool:
        out.money.append(RefundAll())
    elif state.is_points:
        out.money.extend(ReleaseSeat(p.name) for p in state.seated)
    players = tuple(replace(p, status=Status.LEFT) for p in state.players)
    return replace(state, phase=Phase.CANCELLED, countdown=False, ready=False, prize_pool=0, players=players)


def _after_standings(
    state: TableState, at: int, out: _Out, *, recheck_split: bool, auto_split: bool = False
) -> TableState:
    """Pool, between deals: a winner, an automatic split, or a manual split offer."""
    remaining = state.remaining
    if len(remaining) == 1:
        return _end_with_winner(state, remaining[0].name, out)
    # A leave drops the player from the deal at once, so the last one in the game always wins
    # a deal before the game could be left empty (R-MONEY-5: no refund once started).
    assert remaining, "a started pool game always keeps a player until it is won"
    drops = state.drops_left(remaining)
    if auto_split and pool.auto_split_due(
        state.variant,
        entry_fee=state.rules.entry_fee,
        started=state.started,
        drops_left=drops,
        fee_limit=state.rules.fee_limit,
    ):
        return _end_with_split(state, at, out, manual=False)
    if recheck_split:
        offered = pool.manual_split_allowed(
            state.variant,
            entry_fee=state.rules.entry_fee,
            started=state.started,
            drops_left=drops,
            fee_limit=state.rules.fee_limit,
        )
        if offered:
            out.events.append(
                Event(
                    "split_offered",
                    {
                        "players": [p.name for p in remaining],
                        "amounts": list(_split_amounts(state, remaining)),
                        "drops_left": list(drops),
                    },
                )
            )
        state = replace(state, split_offer=offered, split_accepted=())
    return state


def _prize(state: TableState) -> int:
    return state.prize_pool - state.prize_pool * state.rules.rake_percent // 100


def _split_amounts(state: TableState, players: Sequence[Player]) -> tuple[int, ...]:
    return pool.split_payouts(
        prize_pool=_prize(state), entry_fee=state.rules.entry_fee, drops_left=state.drops_left(players)
    )


def _end_with_winner(
    state: TableState, winner: str, out: _Out, qualified: tuple[str, ...] = ()
) -> TableState:
    """The game is won (deals: decided, ``qualified`` its players most chips first)."""
    prize = _prize(state)
    if state.prize_pool:  # a free table (a tournament's) pays nothing itself
        out.money.append(PayWinner(winner, prize))
    over: dict[str, Any] = {"winner": winner, "prize": prize, "prize_pool": state.prize_pool}
    if state.is_deals:
        qualified = qualified or (winner,)
        over["chips"] = {p.name: p.chips for p in state.players if p.status is not Status.LEFT}
        over["qualified"] = list(qualified)
    out.events.append(Event("game_over", over))
    return replace(
        state,
        phase=Phase.FINISHED,
        winner=winner,
        qualified=qualified,
        tie_break=(),
        payouts=((winner, prize),) if state.prize_pool else (),
        rejoin_open=(),
        split_offer=False,
        ready=False,
    )


def _end_with_split(state: TableState, at: int, out: _Out, *, manual: bool) -> TableState:
    remaining = state.remaining
    amounts = _split_amounts(state, remaining)
    names = tuple(p.name for p in remaining)
    out.money.append(PaySplit(names, amounts, state.drops_left(remaining)))
    out.events.append(
        Event(
            "game_over",
            {
                "split": "manual" if manual else "auto",
                "payouts": dict(zip(names, amounts, strict=True)),
                "prize_pool": state.prize_pool,
            },
        )
    )
    return replace(
        state,
        phase=Phase.FINISHED,
        payouts=tuple(zip(names, amounts, strict=True)),
        rejoin_open=(),
        split_offer=False,
        ready=False,
    )


def _points_ready(
    state: TableState,
    at: int,
    out: _Out,
    funds: Mapping[str, int] | None = None,
    limited: frozenset[str] = frozenset(),
) -> TableState:
    """Points, after the pause: top seats back up to their hold from the wallet (R-21-9, R-PTS-4), stand
    up only a player whose wallet cannot, then deal again, or wait for players."""
    funds = funds or {}
    hold = state.seat_hold
    below = f"the seat fell below {state.variant.seat_hold_points} points"
    players = []
    for p in state.players:
        if p.status in (Status.SEATED, Status.IN) and p.held < hold:
            need = hold - p.held
            if funds.get(p.name, 0) >= need:
                out.money.append(TopUpSeat(p.name, need, state.deal_number))
                out.events.append(
                    Event(
                        "topped_up",
                        {
                            "player": p.name,
                            "amount": need,
                            "reason": f"{below} and was topped up from the wallet",
                        },
                    )
                )
                p = replace(p, held=hold)
            else:
                out.money.append(ReleaseSeat(p.name))
                out.events.append(
                    Event(
                        "stood_up",
                        {
                            "player": p.name,
                            "amount": need,
                            "reason": (
                                f"{below} and your daily stake limit leaves "
                                "too little to top it up: the seat balance is back in the wallet"
                                if p.name in limited
                                else f"{below} and the wallet cannot top it up: "
                                "the seat balance is back in the wallet"
                            ),
                        },
                    )
                )
                p = replace(p, status=Status.LEFT, leaving=False)
        players.append(p)
    state = replace(state, players=tuple(players))
    if len(state.seated) >= MIN_PLAYERS:
        return replace(state, ready=True)
    out.events.append(
        Event(
            "waiting",
            {
                "players": [p.name for p in state.seated],
                "reason": "fewer than two players are seated: the table waits for another player",
                "deadline_ms": at + state.rules.wait_ms,
            },
        )
    )
    return replace(
        state, phase=Phase.WAITING, countdown=False, ready=False, opened_ms=at, need_toss=True, deal=None
    )


# --- views ----------------------------------------------------------------------------------


def player_view(state: TableState, player: str | None) -> dict[str, Any]:
    """The table as ``player`` may see it (None: a spectator): own hand only, never the closed order."""
    view: dict[str, Any] = {
        "variant": state.variant.name,
        "phase": state.phase.value,
        "waiting_for": state.waiting_for,
        "deadline_ms": state.deadline_ms,
        "now_ms": state.now_ms,
        "deal_number": state.deal_number,
        "players": [
            {
                "player": p.name,
                "status": p.status.value,
                "score": p.score if state.is_pool else None,
                "drops_left": pool.drops_remaining(state.variant, p.score) if state.is_pool else None,
                "auto_drop": p.auto_drop,
                "leaving": p.leaving,
                "rejoins": p.rejoins,
                "held": p.held if state.is_points else None,
                "chips": p.chips if state.is_deals else None,
            }
            for p in state.players
        ],
        "deals": state.rules.deals if state.is_deals else None,
        "tie_break": list(state.tie_break),
        "qualified": list(state.qualified),
        "prize_pool": state.prize_pool if state.has_prize_pool else None,
        # What the winner is paid: the pool less the rake.
        "prize": _prize(state) if state.has_prize_pool else None,
        "rejoin_open": list(state.rejoin_open),
        "split_offer": (
            {
                "players": [p.name for p in state.remaining],
                "amounts": list(_split_amounts(state, state.remaining)),
                "accepted": list(state.split_accepted),
            }
            if state.split_offer
            else None
        ),
        "winner": state.winner,
        "payouts": [list(item) for item in state.payouts],
        "deal": None,
    }
    if state.deal is not None and state.phase is Phase.PLAYING:
        if player is not None and player in state.deal.players:
            view["deal"] = deals.player_view(state.deal, player)
        else:
            view["deal"] = {
                k: v
                for k, v in deals.player_view(state.deal, state.deal.players[0]).items()
                if k not in _PRIVATE
            }
    elif state.deal is not None and state.deal.phase is deals.Phase.OVER:
        view["last_result"] = deals.deal_result(state.deal).to_json()
    return view


_PRIVATE = ("player", "hand", "saved_grouping", "extra_ms", "drawn", "my_finish_card")


# --- JSON of commands -----------------------------------------------------------------------


def command_to_json(command: Command) -> dict[str, Any]:
    if isinstance(command, Draw | Discard | Drop | Finish | Declare | Show | SaveGrouping):
        return action_to_json(command)
    if isinstance(command, NextDeal):
        return {"type": "next_deal", "at": command.at}
    return {"type": type(command).__name__.lower(), **dataclasses.asdict(command)}


__all__ = [
    "AnswerSplit",
    "Cancel",
    "ChargeEntry",
    "ChargeRejoin",
    "Command",
    "HoldSeat",
    "Join",
    "Leave",
    "LeaveAfterDeal",
    "Money",
    "NextDeal",
    "PaySplit",
    "PayWinner",
    "Phase",
    "Player",
    "Progress",
    "RefundAll",
    "RefundEntry",
    "Rejoin",
    "ReleaseSeat",
    "Rules",
    "SetAutoDrop",
    "SettleDeal",
    "Status",
    "TableState",
    "Timeout",
    "TopUpSeat",
    "Void",
    "action_from_json",
    "apply",
    "open_table",
    "player_view",
]
