"""Every write to a tournament, each in one transaction (the actions module of the tournaments).

Each function locks the tournament's row (``select_for_update``; a player's own row first when
the player acts, the order ``games.services`` keeps), checks the move against the state
machine (:func:`tournaments.engine.move`), writes, moves money through the wallet's one posting
function (:func:`wallet.ledger.execute`) with keys derived from the tournament, and only after
commit hands what changed (:class:`Changed`) to the hooks in :data:`after_commit` (the pages'
live updates connect there).

The keys (each journal is posted at most once, whatever retries or two sweeps do):

- ``buyin:tournament:<id>:<registration>``: a buy-in, the player's wallet into the pool
  (``pool:tournament:<id>``), an entry fee to the stake limits and the takings (R-PROT-4);
- ``unregister:tournament:<id>:<registration>``: that buy-in back in full (R-TOUR-2);
- ``refund:pool:tournament:<id>``: every buy-in back at a cancel or void, the pool closed
  (R-TOUR-2, R-TOUR-5, R-TOUR-6);
- ``rake:tournament:<id>``, ``overlay:tournament:<id>``, ``prize:tournament:<id>``: at the
  finish, the rake to the house, the house's overlay up to the guarantee, the prizes by rank
  (R-TOUR-5), the pool closed at zero.

Rounds are played at free deals-rummy tables opened through :func:`games.services.open_round_table`.
When such a table's game is over, :func:`table_over` records who went through (connected to
``games.services.after_commit`` by ``TournamentsConfig.ready``), and the round's last table
ends the round. :func:`sweep`, every tick of the game timers, opens registrations, starts or
cancels what is due, records any table whose end the hook missed, and moves on each tournament
whose round is over (:func:`advance`: the next round seated, or after the final the ranking and
the prizes).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games import seating
from games import services as tables
from games.engine import table as table_engine

# ``new_seed`` is looked up here at each round, so the simulator can seed it (tournaments.simulate).
from games.engine.shuffle import new_seed as new_seed
from games.engine.shuffle import seed_from_hex, seed_hex
from games.errors import GameError
from games.four_eyes import Closed
from games.models import Table, TableStatus, TableTemplate
from protection import money_play
from protection import players as protected
from tournaments import engine
from tournaments.engine import Status, Step, TournamentRuleError
from tournaments.models import Registration, Round, RoundTable, StaffRequest, Tournament
from wallet.errors import Code, WalletError
from wallet.ledger import (
    AccountSpec,
    Leg,
    Locks,
    Plan,
    cashier_spec,
    execute,
    house_spec,
    pool_spec,
    user_spec,
)
from wallet.limits import check_stake
from wallet.models import Currency, JournalKind

log = logging.getLogger(__name__)


class TournamentError(Exception):
    """A request the tournament refuses; nothing was written. ``code`` for programs, ``message``
    in plain words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"TournamentError({self.code!r}, {self.message!r})"


_WALLET_CODES = {Code.INSUFFICIENT_FUNDS: "insufficient_balance", Code.BELOW_MINIMUM: "insufficient_balance"}


def _from_wallet(error: WalletError) -> TournamentError:
    return TournamentError(_WALLET_CODES.get(error.code, str(error.code.value)), error.message)


@dataclass(frozen=True)
class Changed:
    """What one write changed, published after it commits: the tournament's ``version`` and
    ``status`` as it left them, what happened (``type``) and its figures."""

    tournament_id: int
    version: int
    status: str
    type: str
    data: dict[str, Any] = field(default_factory=dict)


#: Called after each write commits, in order (the pages' live updates register here).
after_commit: list[Callable[[Changed], None]] = []


def _publish(tournament: Tournament, type_: str, **data: Any) -> None:
    tournament.version += 1
    Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version)
    changed = Changed(tournament.pk, tournament.version, tournament.status, type_, data)
    transaction.on_commit(lambda: _announce(changed))


def _announce(changed: Changed) -> None:
    for hook in list(after_commit):
        try:
            hook(changed)
        except Exception:  # a page's update must not undo a committed change
            log.exception("tournament %s: a hook failed on %s", changed.tournament_id, changed.type)


def now() -> datetime:
    return timezone.now()


def now_ms() -> int:
    """The time a round's tables open at, in ms (looked up at each round, so the simulator can
    run them on its own clock, as it does the tables')."""
    return tables.now_ms()


def _lock(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update(of=("self",)).get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentError("no_tournament", f"there is no tournament {tournament_id}") from None


def _go(tournament: Tournament, step: Step) -> None:
    try:
        tournament.status = engine.move(Status(tournament.status), step).value
    except TournamentRuleError as error:
        raise TournamentError(error.code, error.message) from None


# --- creation and registration ----------------------------------------------------------------


def create(
    *,
    name: str,
    currency: str = Currency.CHIPS,
    buy_in: int = 0,
    rake_percent: int = 0,
    guarantee: int = 0,
    min_players: int,
    max_players: int,
    table_size: int = 6,
    qualify: int = 2,
    prize_bps: Sequence[int] = (10_000,),
    start_at: datetime | None = None,
    registration_opens_at: datetime | None = None,
    bots_allowed: bool = False,
    move_seconds: int = 30,
    by: Any = None,
) -> Tournament:
    """Announce a tournament (R-TOUR-1): every setting fixed now, checked once, with the free
    deals-rummy template its rounds are played on (not offered in the lobby). Registration opens
    at ``registration_opens_at`` (the sweep's :func:`open_registration`), at once if empty."""
    name = (name or "").strip()
    if not name or len(name) > 80:
        raise TournamentError("bad_settings", "a tournament needs a name of 1 to 80 characters")
    if currency not in Currency.values:
        raise TournamentError("bad_settings", f"the currency is one of {', '.join(Currency.values)}")
    if bots_allowed and currency != Currency.CHIPS:
        raise TournamentError("bad_settings", "bots play only in practice tournaments")
    for number, what in ((buy_in, "buy-in"), (guarantee, "guarantee")):
        if isinstance(number, bool) or not isinstance(number, int):
            raise TournamentError("bad_settings", f"the {what} is a whole number of paise")
    try:
        engine.check_settings(
            minimum=min_players,
            maximum=max_players,
            table_size=table_size,
            qualify=qualify,
            prize_bps=list(prize_bps),
            buy_in=buy_in,
            rake_percent=rake_percent,
            guarantee=guarantee,
        )
    except TournamentRuleError as error:
        raise TournamentError(error.code, error.message) from None
    if not 5 <= move_seconds <= 120:
        raise TournamentError("bad_settings", "a move takes 5 to 120 seconds")
    with transaction.atomic():
        template = TableTemplate.objects.create(
            name=f"Tournament: {name}"[:80],
            variant="deals",
            currency=Currency.CHIPS,  # the tables are free: no money ever moves at them
            seats=table_size,
            entry_fee=0,
            deals=max(2, table_size),
            rake_percent=0,
            move_seconds=move_seconds,
            bots_allowed=bots_allowed,
            active=False,
        )
        tournament = Tournament.objects.create(
            name=name,
            currency=currency,
            buy_in=buy_in,
            rake_percent=rake_percent,
            guarantee=guarantee,
            min_players=min_players,
            max_players=max_players,
            table_size=table_size,
            qualify=qualify,
            prize_bps=list(prize_bps),
            start_at=start_at,
            registration_opens_at=registration_opens_at,
            bots_allowed=bots_allowed,
            move_seconds=move_seconds,
            template=template,
            created_by=by if getattr(by, "pk", None) else None,
        )
        _publish(tournament, "announced")
    if registration_opens_at is None or registration_opens_at <= now():
        return open_registration(tournament.pk)
    return tournament


def open_registration(tournament_id: int) -> Tournament:
    """R-TOUR-2: registration opens (announced -> registering)."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        _go(tournament, Step.OPEN)
        tournament.save(update_fields=["status"])
        _publish(tournament, "registration_open")
    return tournament


def _registered(tournament: Tournament) -> QuerySet[Registration]:
    return Registration.objects.filter(tournament=tournament, status="registered")


def register(tournament_id: int, user: Any) -> Registration:
    """R-TOUR-2: enter a tournament that is registering, paying its buy-in into its pool.

    A money tournament asks protection first, as a money table does: money play allowed in the
    player's region, no break or self-exclusion in force, and room in the daily stake limit for
    the buy-in (R-PROT-1..4). A sit-and-go that this entry fills starts right after."""
    with transaction.atomic():
        protected.lock(user)  # the player's row first, then the tournament's: one order
        tournament = _lock(tournament_id)
        if tournament.status != Status.REGISTERING:
            raise TournamentError("registration_closed", "registration for this tournament is not open")
        if getattr(user, "is_bot", False) and not tournament.bots_allowed:
            raise TournamentError(
                "bots_not_allowed", "bots play only in practice tournaments that allow them"
            )
        if getattr(user, "is_staff", False) and tournament.currency != Currency.CHIPS:
            raise TournamentError("staff_no_money_play", "staff accounts cannot play for money")
        if _registered(tournament).filter(player_id=user.pk).exists():
            raise TournamentError("already_registered", "you are already registered for this tournament")
        if _registered(tournament).count() >= tournament.max_players:
            raise TournamentError("tournament_full", "this tournament is full")
        if tournament.currency != Currency.CHIPS:
            _money_play(user, tournament.buy_in)
        registration = Registration.objects.create(
            tournament=tournament, player_id=user.pk, buy_in=tournament.buy_in
        )
        if tournament.buy_in:
            _charge_buy_in(tournament, registration)
        count = _registered(tournament).count()
        _publish(tournament, "registered", player=user.pk, players=count)
        full = tournament.sit_and_go and count >= tournament.max_players
    if full:
        try:
            start(tournament_id)
        except TournamentError as error:  # started meanwhile, or the sweep's next tick does it
            log.info("tournament %s: not started at the last registration: %s", tournament_id, error.code)
    return registration


def _money_play(user: Any, stake: int) -> None:
    """The checks of a money table's entry, for a buy-in (``games.services`` makes the same):
    money play allowed for the player now, then the daily stake limit."""
    refusal = money_play.refusal(user)
    if refusal is not None:
        raise TournamentError(refusal.code, refusal.message)
    if stake:
        try:
            check_stake(user, stake)
        except WalletError as error:
            raise _from_wallet(error) from None


def _charge_buy_in(tournament: Tournament, registration: Registration) -> None:
    currency = Currency(tournament.currency)
    wallet, pool = user_spec(registration.player_id, currency), pool_spec(tournament.pool_ref, currency)

    def plan(locks: Locks) -> Plan:
        if locks[pool.ref].closed:
            raise WalletError(Code.ACCOUNT_CLOSED, "this tournament's prize pool is settled")
        return Plan([Leg(wallet.ref, pool.ref, registration.buy_in)])

    try:
        execute(
            key=f"buyin:{tournament.ref}:{registration.pk}",
            kind=JournalKind.ENTRY_FEE,
            currency=currency,
            accounts=[wallet, pool],
            meta={
                "pool": tournament.pool_ref,
                "tournament": tournament.pk,
                "registration": registration.pk,
                "user": registration.player_id,
                "fee": registration.buy_in,
                "variant": "tournament",
            },
            plan=plan,
            created_by_id=registration.player_id,
        )
    except WalletError as error:
        raise _from_wallet(error) from None


def unregister(tournament_id: int, user: Any) -> Registration:
    """R-TOUR-2: leave a tournament before its start; the buy-in comes back in full."""
    with transaction.atomic():
        protected.lock(user)
        tournament = _lock(tournament_id)
        registration = _registered(tournament).filter(player_id=user.pk).first()
        if registration is None:
            raise TournamentError("not_registered", "you are not registered for this tournament")
        if tournament.status != Status.REGISTERING:
            raise TournamentError(
                "already_started", "the tournament has started: it is too late to unregister"
            )
        if registration.buy_in:
            _refund_one(tournament, registration)
        registration.status = "unregistered"
        registration.unregistered_at = now()
        registration.save(update_fields=["status", "unregistered_at"])
        _publish(tournament, "unregistered", player=user.pk, players=_registered(tournament).count())
    return registration


def _refund_one(tournament: Tournament, registration: Registration) -> None:
    currency = Currency(tournament.currency)
    wallet, pool = user_spec(registration.player_id, currency), pool_spec(tournament.pool_ref, currency)
    legs = [Leg(pool.ref, wallet.ref, registration.buy_in)]
    execute(
        key=f"unregister:{tournament.ref}:{registration.pk}",
        kind=JournalKind.REFUND,
        currency=currency,
        accounts=[pool, wallet],
        meta={
            "pool": tournament.pool_ref,
            "tournament": tournament.pk,
            "registration": registration.pk,
            "user": registration.player_id,
            "reason": "unregistered before the start",
        },
        plan=lambda _locks: Plan(legs),
        legs_for_hash=legs,
        created_by_id=registration.player_id,
    )


# --- start, cancel, void ----------------------------------------------------------------------


def start(tournament_id: int, *, at: datetime | None = None) -> Tournament:
    """R-TOUR-1, R-TOUR-2: at its start (the time, or a sit-and-go full) a registering tournament
    runs with its first round seated, or, short of its minimum, is cancelled with every buy-in
    back. Before its start it waits (``not_due``)."""
    at = at or now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status != Status.REGISTERING:
            raise TournamentError("not_now", f"a tournament that is {tournament.status} cannot start")
        count = _registered(tournament).count()
        verdict = engine.can_run(
            registered=count,
            minimum=tournament.min_players,
            maximum=tournament.max_players,
            sit_and_go=tournament.sit_and_go,
            time_come=tournament.start_at is not None and tournament.start_at <= at,
        )
        if verdict is engine.Verdict.WAIT:
            raise TournamentError("not_due", "the tournament's start has not come yet")
        if verdict is engine.Verdict.CANCEL:
            _end_with_refunds(
                tournament, Step.CANCEL, "short", f"short of players: {count} of {tournament.min_players}"
            )
            return tournament
        _go(tournament, Step.START)
        tournament.started_at = at
        tournament.save(update_fields=["status", "started_at"])
        _publish(tournament, "started", players=count)
        _seat_round(tournament, 1)
    return tournament


def _end_with_refunds(tournament: Tournament, step: Step, cause: str, reason: str) -> None:
    """Cancel or void: every buy-in back (R-TOUR-2, R-TOUR-6), no rake and no prize; the pool closed."""
    _go(tournament, step)
    # The statement's words follow the ledger's reason: a void's reads "voided by the staff".
    _refund_all(tournament, f"voided by staff (R-TOUR-6): {reason}" if step is Step.VOID else reason)
    tournament.ended_at = now()
    tournament.end_reason = reason
    tournament.save(update_fields=["status", "ended_at", "end_reason"])
    if tournament.buy_in:
        _registered(tournament).update(status="refunded")
    _publish(tournament, tournament.status, cause=cause, reason=reason)


def _refund_all(tournament: Tournament, reason: str) -> None:
    currency = Currency(tournament.currency)
    pool = pool_spec(tournament.pool_ref, currency)
    paid = [(r.pk, r.player_id, r.buy_in) for r in _registered(tournament) if r.buy_in]
    wallets = [user_spec(player, currency) for _, player, _ in paid]
    legs = [Leg(pool.ref, user_spec(player, currency).ref, amount) for _, player, amount in paid]

    def plan(locks: Locks) -> Plan:
        if locks[pool.ref].balance != sum(amount for *_, amount in paid):
            raise AssertionError(f"{tournament.pool_ref} holds {locks[pool.ref].balance}, its buy-ins {paid}")
        return Plan(list(legs), close={pool.ref}, allow_empty=True)

    execute(
        key=f"refund:{tournament.pool_ref}",
        kind=JournalKind.REFUND,
        currency=currency,
        accounts=[pool, *wallets],
        meta={
            "pool": tournament.pool_ref,
            "tournament": tournament.pk,
            "reason": reason,
            "registrations": len(paid),
        },
        plan=plan,
        legs_for_hash=legs,
    )


def cancel(tournament_id: int, reason: str) -> Tournament:
    """Cancel a tournament that has not started (the staff's, once confirmed by a second member):
    every buy-in back, no rake, no prize (R-TOUR-2, R-TOUR-5)."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        _end_with_refunds(tournament, Step.CANCEL, "staff", reason)
    return tournament


def void(tournament_id: int, reason: str) -> Tournament:
    """R-TOUR-6: void a running tournament (once a second staff member confirmed): its tables
    still playing are voided too, every buy-in comes back, no rake is kept and no prize paid."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        _end_with_refunds(tournament, Step.VOID, "staff", reason)
        playing = RoundTable.objects.filter(round__tournament=tournament, ended_at__isnull=True)
        for round_table in playing:
            round_table.ended_at = now()
            round_table.save(update_fields=["ended_at"])
            if round_table.table_id is not None:
                try:
                    tables.void(round_table.table_id, reason)
                except GameError as error:
                    log.info("table %s of a voided tournament: %s", round_table.table_id, error.code)
        Round.objects.filter(tournament=tournament, ended_at__isnull=True).update(ended_at=now())
    return tournament


# --- four eyes ----------------------------------------------------------------------------------


def request(tournament_id: int, what: str, reason: str, by: Any) -> StaffRequest:
    """The first pair of eyes (R-MONEY-7): ask to ``cancel`` a tournament not yet running, or to
    ``void`` a running one. Nothing happens until a different staff member confirms; until then
    the asker may withdraw it (:func:`withdraw`) or another member decline it (:func:`decline`).
    One request waits per tournament."""
    reason = _staff_reason(by, reason, "say why: the players will read it")
    if what not in ("cancel", "void"):
        raise TournamentError("bad_request", "a request is to cancel or to void")
    with transaction.atomic():
        tournament = _lock(tournament_id)
        try:
            engine.move(Status(tournament.status), Step(what))
        except TournamentRuleError as error:
            raise TournamentError(error.code, error.message) from None
        return _four_eyes(lambda: StaffRequest.ask(by, reason, tournament=tournament, step=what))


def _staff_reason(by: Any, reason: str, missing: str) -> str:
    """Only staff act on a tournament's four eyes, always with a reason (the view checks the
    permission)."""
    if not getattr(by, "is_staff", False):
        raise TournamentError("not_staff", "only staff may cancel or void a tournament")
    reason = (reason or "").strip()
    if not reason:
        raise TournamentError("reason_required", missing)
    return reason


def _four_eyes(step: Callable[[], StaffRequest]) -> StaffRequest:
    """One step of :class:`games.four_eyes.SecondStaffRequest` on a tournament's request, its
    refusals as the tournaments' own."""
    try:
        return step()
    except StaffRequest.DoesNotExist:
        raise TournamentError("no_request", "there is no such request") from None
    except GameError as error:
        raise TournamentError(error.code, error.message) from None
    except WalletError as error:
        raise TournamentError("same_staff", error.message) from None


def confirm(request_id: int, by: Any) -> Tournament:
    """The second pair of eyes: a staff member other than the one who asked confirms, and the
    tournament is cancelled or voided in the same transaction, with the first member's reason.
    Refused once the request is confirmed, withdrawn or declined."""
    if not getattr(by, "is_staff", False):
        raise TournamentError("not_staff", "only staff may cancel or void a tournament")
    with transaction.atomic():
        asked = _four_eyes(lambda: StaffRequest.take(request_id, by))
        if asked.step == "void":
            return void(asked.tournament_id, asked.reason)
        return cancel(asked.tournament_id, asked.reason)


def withdraw(request_id: int, reason: str, by: Any) -> StaffRequest:
    """The member who asked takes their request back, with a reason: nothing is done to the
    tournament, and a new request may be asked. Refused for anyone else (they decline it), and
    once the request is confirmed or closed."""
    reason = _staff_reason(by, reason, "say why you withdraw it")
    with transaction.atomic():
        return _four_eyes(lambda: StaffRequest.close(request_id, by, Closed.WITHDRAWN, reason))


def decline(request_id: int, reason: str, by: Any) -> StaffRequest:
    """A second member says no to another's request, with a reason: nothing is done to the
    tournament, and a new request may be asked. Refused for the member who asked (they withdraw
    it), and once the request is confirmed or closed."""
    reason = _staff_reason(by, reason, "say why you decline it")
    with transaction.atomic():
        return _four_eyes(lambda: StaffRequest.close(request_id, by, Closed.DECLINED, reason))


# --- rounds -----------------------------------------------------------------------------------


def _still_in(tournament: Tournament) -> list[Registration]:
    return list(_registered(tournament).filter(knocked_out_round__isnull=True).select_related("player"))


def _seat_round(tournament: Tournament, number: int) -> Round:
    """R-TOUR-3: seat the players still in at random at balanced tables, each a free deals
    table of as many deals as it seats, linked players apart (``games.seating.pairs_apart``)."""
    left = _still_in(tournament)
    players = {r.player_id: r.player for r in left}
    final = engine.is_final(len(players), tournament.table_size)
    apart = seating.pairs_apart(players)
    seed = new_seed()
    seated = engine.seat(list(players), tournament.table_size, seed, apart)
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        players=len(players),
        final=final,
        seed=seed_hex(seed),
        apart=sorted(sorted(pair) for pair in apart),
    )
    for ids in seated.tables:
        qualify = 1 if final else engine.qualifiers_at(len(ids), tournament.qualify)
        table = tables.open_round_table(
            tournament.template, [players[i] for i in ids], qualify=qualify, at=now_ms()
        )
        RoundTable.objects.create(round=round_, table=table, players=list(ids), qualify=qualify)
    _publish(
        tournament, "round_seated", round=number, players=len(players), tables=len(seated.tables), final=final
    )
    return round_


def seating_of(round_: Round) -> engine.Seating:
    """Re-derive a round's seating from its revealed seed and the pairs kept apart (anyone can)."""
    players = [p for rt in round_.tables.all() for p in rt.players]
    apart = [frozenset(pair) for pair in round_.apart]
    return engine.seat(players, round_.tournament.table_size, seed_from_hex(round_.seed), apart)


def on_table_written(written: tables.Written) -> None:
    """``games.services.after_commit`` hook: a round's table whose game is over is recorded."""
    if written.status not in (TableStatus.FINISHED, TableStatus.CANCELLED):
        return
    if not RoundTable.objects.filter(table_id=written.table_id, ended_at__isnull=True).exists():
        return
    try:
        table_over(written.table_id)
    except TournamentError as error:
        log.info("table %s: %s", written.table_id, error.code)
    except Exception:  # the table's write is committed: the sweep records it instead
        log.exception("table %s: its end could not be recorded now; the sweep will", written.table_id)


def table_over(table_id: int) -> bool:
    """Record a round's table whose game is over (R-TOUR-3): who went through (most chips
    first), and for the others the round they went out in and their chips (R-TOUR-4); the
    round's last table ends the round (:func:`advance` then moves on). Nothing for a table
    that is not over or already recorded. True if recorded."""
    round_id = (
        RoundTable.objects.filter(table_id=table_id).values_list("round__tournament_id", flat=True).first()
    )
    if round_id is None:
        return False
    with transaction.atomic():
        tournament = _lock(round_id)
        round_table = RoundTable.objects.select_related("round").get(table_id=table_id)
        if round_table.ended_at is not None or tournament.status != Status.RUNNING:
            return False
        table = Table.objects.get(pk=table_id)
        if table.status not in (TableStatus.FINISHED, TableStatus.CANCELLED):
            return False
        state = table_engine.TableState.from_json(table.state)
        chips = {int(p.name): p.chips for p in state.players}
        qualified = [int(name) for name in state.qualified]
        round_ = round_table.round
        round_table.qualified, round_table.chips, round_table.ended_at = (
            qualified,
            {str(k): v for k, v in chips.items()},
            now(),
        )
        round_table.save(update_fields=["qualified", "chips", "ended_at"])
        entries = _registered(tournament).filter(player_id__in=round_table.players)
        for registration in entries:
            through = registration.player_id in qualified
            if round_.final or not through:
                registration.knocked_out_round = round_.number
                registration.chips = chips.get(registration.player_id, 0)
                registration.won = round_.final and qualified[:1] == [registration.player_id]
                registration.save(update_fields=["knocked_out_round", "chips", "won"])
        _publish(tournament, "table_over", round=round_.number, table=table_id, qualified=qualified)
        if not RoundTable.objects.filter(round=round_, ended_at__isnull=True).exists():
            round_.ended_at = now()
            round_.save(update_fields=["ended_at"])
            _publish(tournament, "round_over", round=round_.number)
    return True


def advance(tournament_id: int) -> bool:
    """A running tournament whose round is over moves on (R-TOUR-3): after the final, the
    ranking and the prizes; else the next round seated. The sweep's, within a second of the
    round's last table (so the thread that wrote that table's last move never seats a round of
    a hundred tables). Nothing while a round is in play. True if it moved."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status != Status.RUNNING:
            return False
        if Round.objects.filter(tournament=tournament, ended_at__isnull=True).exists():
            return False
        last = Round.objects.filter(tournament=tournament).order_by("-number").first()
        if last is None:  # started with no round: cannot happen, start seats round 1 with it
            return False
        # Every table sends one player through at least (a player who leaves forfeits, and the
        # last one left at a table goes through), so a round that is not the final leaves two
        # players or more; a staff void of one table is refused (the tournament's is the void),
        # so no table ends without a result.
        if last.final:
            _finish(tournament)
        else:
            _seat_round(tournament, last.number + 1)
    return True


# --- the finish -------------------------------------------------------------------------------


def _finish(tournament: Tournament) -> None:
    """R-TOUR-3..5: rank every player once, take the rake, add the house's overlay up to the
    guarantee, pay the prize table in whole paise, close the pool at zero."""
    entries = list(_registered(tournament).order_by("registered_at", "id"))
    finishes = [
        engine.Finish(
            player=r.player_id,
            round_reached=r.knocked_out_round or 0,
            chips=r.chips or 0,
            registered=index,
            won=r.won,
        )
        for index, r in enumerate(entries)
    ]
    ranked = engine.ranking(finishes)
    money = engine.prize_pool(sum(r.buy_in for r in entries), tournament.rake_percent, tournament.guarantee)
    prizes = engine.split_prizes(money.pool, tournament.prize_bps, len(ranked))
    by_player = {r.player_id: r for r in entries}
    for place, player in enumerate(ranked, start=1):
        registration = by_player[player]
        registration.rank = place
        registration.prize = prizes[place - 1] if place <= len(prizes) else 0
        registration.save(update_fields=["rank", "prize"])
    _pay_out(tournament, money, [(player, prize) for player, prize in zip(ranked, prizes, strict=False)])
    _go(tournament, Step.FINISH)
    tournament.rake, tournament.overlay, tournament.pool = money.rake, money.overlay, money.pool
    tournament.ended_at = now()
    tournament.save(update_fields=["status", "rake", "overlay", "pool", "ended_at"])
    _publish(tournament, "finished", winner=ranked[0], pool=money.pool, prizes=list(prizes))


def _move(
    key: str, kind: JournalKind, source: AccountSpec, to: AccountSpec, amount: int, meta: dict[str, Any]
) -> None:
    """One fixed leg of a tournament's money, ``amount`` from ``source`` to ``to`` (account specs)."""
    legs = [Leg(source.ref, to.ref, amount)]
    execute(
        key=key,
        kind=kind,
        currency=source.currency,
        accounts=[source, to],
        meta={**meta, "variant": "tournament"},
        plan=lambda _locks: Plan(legs),
        legs_for_hash=legs,
    )


def _pay_out(tournament: Tournament, money: engine.PrizePool, prizes: Sequence[tuple[int, int]]) -> None:
    currency = Currency(tournament.currency)
    pool = pool_spec(tournament.pool_ref, currency)
    meta = {"pool": tournament.pool_ref, "tournament": tournament.pk}
    if money.rake:
        house = house_spec(tournament.ref, currency)
        extra = {"rake_percent": tournament.rake_percent, "buy_ins": money.buy_ins}
        _move(f"rake:{tournament.ref}", JournalKind.RAKE, pool, house, money.rake, {**meta, **extra})
    if money.overlay:
        # The house's own money enters the ledger through the cashier, the one account that
        # may go below zero (as practice chips do): no rake balance is assumed to cover it.
        source = cashier_spec(tournament.pk, currency)
        extra = {"guarantee": tournament.guarantee, "overlay": money.overlay}
        _move(
            f"overlay:{tournament.ref}", JournalKind.OVERLAY, source, pool, money.overlay, {**meta, **extra}
        )
    paid = [(player, prize) for player, prize in prizes if prize > 0]
    wallets = [user_spec(player, currency) for player, _ in paid]
    legs = [Leg(pool.ref, wallet.ref, prize) for wallet, (_, prize) in zip(wallets, paid, strict=True)]

    def plan(locks: Locks) -> Plan:
        if locks[pool.ref].balance != money.pool:
            raise AssertionError(
                f"{tournament.pool_ref} holds {locks[pool.ref].balance}, its prize pool {money.pool}"
            )
        return Plan(list(legs), close={pool.ref}, allow_empty=True)

    execute(
        key=f"prize:{tournament.ref}",
        kind=JournalKind.PRIZE,
        currency=currency,
        accounts=[pool, *wallets],
        meta={**meta, "prizes": [[player, prize] for player, prize in paid], "variant": "tournament"},
        plan=plan,
        legs_for_hash=legs,
    )


# --- the sweep ----------------------------------------------------------------------------------


def sweep(*, at: datetime | None = None) -> int:
    """Every tick of the game timers (``games.timers.each_tick``): open the registrations that
    are due, start (or cancel, short of players) the tournaments whose start has come, start
    the sit-and-goes that are full, and record any round table whose end was not recorded (the
    hook runs once after the table's commit; a process that died in between leaves it here).
    Each in its own transaction; one that fails does not stop the others. How many moved."""
    at = at or now()
    moved = 0
    due_open = Tournament.objects.filter(status=Status.ANNOUNCED, registration_opens_at__lte=at)
    for tournament_id in list(due_open.values_list("id", flat=True)):
        moved += _try(open_registration, tournament_id)
    registering = Tournament.objects.filter(status=Status.REGISTERING)
    rows = registering.values_list("id", "start_at", "min_players", "max_players", "bots_allowed")
    for tournament_id, start_at, minimum, maximum, bots_allowed in list(rows):
        due = start_at is not None and start_at <= at
        if bots_allowed:
            _bots_for(tournament_id, due=due, minimum=minimum, at=at)
        if due or (start_at is None and _registered_count(tournament_id) >= maximum):
            moved += _try(lambda tid: start(tid, at=at), tournament_id)
    missed = RoundTable.objects.filter(
        ended_at__isnull=True,
        round__tournament__status=Status.RUNNING,
        table__status__in=[TableStatus.FINISHED, TableStatus.CANCELLED],
    )
    for table_id in list(missed.values_list("table_id", flat=True)):
        moved += _try(table_over, table_id)
    between = Tournament.objects.filter(status=Status.RUNNING).exclude(rounds__ended_at__isnull=True)
    for tournament_id in list(between.values_list("id", flat=True)):
        moved += _try(advance, tournament_id)
    return moved


#: A person alone in a practice sit-and-go that allows bots waits this long for other people
#: before bots take the places left (as a practice table fills with bots, games.bots).
BOTS_AFTER = timedelta(seconds=30)


def _bots_for(tournament_id: int, *, due: bool, minimum: int, at: datetime) -> None:
    """Practice tournaments that allow bots: at a scheduled start, bots up to the minimum (so it
    runs rather than is cancelled, when a person entered); a sit-and-go whose first person has
    waited :data:`BOTS_AFTER`, bots in every place left (so it starts)."""
    people = Registration.objects.filter(
        tournament_id=tournament_id, status="registered", player__is_bot=False
    )
    first = people.order_by("registered_at").values_list("registered_at", flat=True).first()
    if first is None:
        return
    count = _registered_count(tournament_id)
    sit_and_go = Tournament.objects.filter(pk=tournament_id, start_at__isnull=True).exists()
    if due and count < minimum:
        _try(lambda tid: fill_with_bots(tid, minimum - count), tournament_id)
    elif sit_and_go and first <= at - BOTS_AFTER:
        _try(fill_with_bots, tournament_id)


def _registered_count(tournament_id: int) -> int:
    return Registration.objects.filter(tournament_id=tournament_id, status="registered").count()


def _try(step: Callable[[int], Any], key: int) -> int:
    try:
        step(key)
    except TournamentError as error:
        log.info("tournament sweep: %s: %s", key, error.code)
        return 0
    except Exception:
        log.exception("tournament sweep: %s failed", key)
        return 0
    return 1


# --- bots -------------------------------------------------------------------------------------


def fill_with_bots(tournament_id: int, count: int | None = None) -> int:
    """A practice tournament that allows bots: register ``count`` bots (every place left when
    None), as a practice table is filled (``games.bots``). How many registered."""
    from games.bots import bot_users

    tournament = Tournament.objects.get(pk=tournament_id)
    if not tournament.bots_allowed or tournament.status != Status.REGISTERING:
        return 0
    taken = set(_registered(tournament).values_list("player_id", flat=True))
    room = tournament.max_players - len(taken)
    wanted = room if count is None else min(count, room)
    done = 0
    for bot in bot_users(wanted, taken):
        try:
            register(tournament_id, bot)
        except TournamentError as error:
            if error.code == "registration_closed":
                break
            log.info("bot %s not registered: %s", bot.pk, error.code)
            continue
        done += 1
    return done
