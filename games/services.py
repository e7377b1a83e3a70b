"""Every write to a table, each in one transaction (the zulip "actions" module of the games app).

Each function locks the table row (``select_for_update``), reads the engine state, applies
one command with :func:`games.engine.table.apply`, performs the money intents through
:mod:`wallet.operations` (whose idempotency keys derive from the table: ``pool:table:<id>``,
``seat:<seat id>``, ``deal:table:<id>:<n>``), appends the events with consecutive versions,
saves, and only after commit hands what it wrote (:class:`Written`) to the after-commit hooks
that ``GamesConfig.ready`` connects (live play, the timers). When the state says a deal
is due (``waiting_for == "deal"``) the next deal is started in the same transaction with
fresh seeds, so a table never rests in that state.

Players are named in the engine by their user id as a string.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, overload

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import seating, views_state
from games.action_log import logged
from games.engine import table as engine
from games.engine.actions import ActionError, action_from_json, check_action
from games.engine.deal import DealState, Timing, deal_result
from games.engine.events import Event

# ``new_seed`` is looked up here at each deal, so the simulator can seed it (games.simulate).
from games.engine.shuffle import new_seed as new_seed
from games.engine.shuffle import seed_hex
from games.engine.variants import variant_named
from games.errors import GameError
from games.lobby import joinable_statuses, play_now_candidates
from games.models import (
    Deal,
    DealHand,
    Seat,
    SeatStatus,
    Table,
    TableEvent,
    TableStatus,
    TableTemplate,
    Visibility,
)
from hotpath.statements import Insert, Prepared, Statement, Update, execute_many, instance
from protection import money_play
from wallet import operations as ops
from wallet.errors import WalletError
from wallet.ledger import balance_of, user_spec
from wallet.limits import check_stake, stake_left
from wallet.models import Currency


@dataclass(frozen=True)
class Published:
    """An event as published after commit: ``to`` is the one user id who may see it, or None."""

    table_id: int
    version: int
    type: str
    data: dict[str, Any]
    to: int | None


@dataclass(frozen=True)
class Written:
    """What one write committed, as the write knows it, so that no hook reads the table again:
    its events, and the table they left (state, status, deadline, template)."""

    table_id: int
    version: int
    status: str
    state: engine.TableState
    deadline: datetime | None
    deadline_version: int | None
    template_name: str
    currency: str
    bots_allowed: bool
    events: tuple[Published, ...]
    #: Each player's name and presence (``views_state.seats_at``), read in the write's last
    #: round trip for the snapshots the write publishes.
    seats: Mapping[int, tuple[str, bool]] | None = None

    @property
    def due(self) -> datetime | None:
        """The deadline this write set, if it set one."""
        return self.deadline if self.deadline_version == self.version else None


#: Called after each write commits, in order. Connected explicitly by ``GamesConfig.ready``
#: (:func:`games.live.publish` and the timers' hook); a write with no events calls none.
after_commit: list[Callable[[Written], None]] = []


def now_ms() -> int:
    return int(time.time() * 1000)


def timeout_at(table_id: int, state: engine.TableState, at: int) -> engine.Timeout:
    """The deadline's command; at the end of a points table's pause it carries what each seated
    player could top up (R-21-9, R-PTS-4): their wallet's balance, cut to what their daily stake
    limit leaves at a money table (R-PROT-4)."""
    if not state.is_points or state.phase is not engine.Phase.BETWEEN:
        return engine.Timeout(at)
    currency = Currency(TableTemplate.objects.get(tables__pk=table_id).currency)
    funds, limited = [], []
    for p in state.seated:
        if p.held >= state.seat_hold:
            continue
        balance = balance_of(user_spec(int(p.name), currency))
        left = None if currency == Currency.CHIPS else stake_left(int(p.name))
        if left is not None and left < min(balance, state.seat_hold - p.held):
            limited.append(p.name)
            balance = left
        funds.append((p.name, balance))
    return engine.Timeout(at, tuple(funds), tuple(limited))


def _money_play(user: Any, currency: str, stake: int) -> None:
    """At a money table, the one check point of money play (R-PROT-1..3) and the player's daily
    stake limit for ``stake`` paise (R-PROT-4); practice tables ask nothing."""
    if currency == Currency.CHIPS:
        return
    refusal = money_play.refusal(user)
    if refusal is not None:
        raise GameError(refusal.code, refusal.message)
    try:
        check_stake(user, stake)
    except WalletError as error:
        raise GameError.from_wallet(error) from None


def stake_of(rules: engine.Rules, variant: str) -> int:
    """What a seat puts at stake: a pool or deals game's entry fee, a points table's seat hold."""
    numbers = variant_named(variant)
    return numbers.seat_hold_points * rules.point_value if numbers.is_points else rules.entry_fee


def name_of(user: Any) -> str:
    return str(user.pk if hasattr(user, "pk") else user)


def rules_of(template: TableTemplate) -> engine.Rules:
    return engine.Rules(
        seats=template.seats,
        entry_fee=template.entry_fee,
        point_value=template.point_value,
        rake_percent=template.rake_percent,
        timing=Timing(
            move_ms=template.move_seconds * 1000,
            extra_ms=template.extra_seconds * 1000,
            show_ms=template.show_seconds * 1000,
        ),
        rejoin_ms=template.rejoin_seconds * 1000,
        start_ms=template.start_countdown_seconds * 1000,
        packs=template.packs,
        deals=template.deals,
    )


# --- the one write path ---------------------------------------------------------------------


@logged
def _run(
    table_id: int,
    command_for: Callable[[engine.TableState], engine.Command | None],
    *,
    at: int,
    expect_version: int | None = None,
    before: Callable[[Table, engine.TableState], None] | None = None,
    skip_locked: bool = False,
) -> Table | None:
    """Lock, apply, pay, record, publish on commit. Returns None when nothing applied, or,
    with ``skip_locked``, when another transaction holds the table (the sweep's case)."""
    held, _held.table = _held.table, None  # used once: a failed write must not leave it stale
    also, _held.also = _held.also, None
    commit, _held.commit = _held.commit, False
    held = held if held is not None and held.pk == table_id else None
    also = also if held is not None else None
    commit = commit and held is not None
    # A caller holding the lock owns the transaction and rolls all of it back on an error, so
    # the write needs no savepoint of its own there (``holding``).
    with transaction.atomic(savepoint=held is None):
        table = held if held is not None else lock(table_id, skip_locked=skip_locked)
        if table is None:
            return None
        if expect_version is not None and table.version != expect_version:
            return None
        state = engine.TableState.from_json(table.state)
        command = command_for(state)
        if command is None:
            return None
        if before is not None:
            before(table, state)
        progresses = []
        try:
            progress = engine.apply(state, command)
            progresses.append(progress)
            while progress.state.waiting_for == "deal":
                progress = engine.apply(progress.state, engine.NextDeal(at, new_seed(), new_seed()))
                progresses.append(progress)
        except ActionError as error:
            raise GameError.from_engine(error) from None
        try:
            for step in progresses:
                for intent in step.money:
                    _pay(table, intent, state.rules)
        except WalletError as error:
            raise GameError.from_wallet(error) from None
        for step in progresses:
            # A step that starts a deal may also end it (every other player on auto drop),
            # so the deal's row must exist before its result is recorded.
            if step.deal_started is not None:
                _record_deal_start(table, step.state.deal_number, step.deal_started)
            if step.deal_over is not None:
                _record_deal_over(table, step.deal_over, step.toss)
        final = progresses[-1].state
        events = [event for step in progresses for event in step.events]
        if _seating(final) != _seating(state):  # the hot path (a move) leaves the seats alone
            _sync_seats(table, final)
        published, insert_events = _append(table, events, at)
        table.state = final.to_json()
        table.status = _status(final)
        deadline = final.deadline_ms
        table.deadline = None if deadline is None else datetime.fromtimestamp(deadline / 1000, tz=UTC)
        table.deadline_version = None if deadline is None else table.version
        table.updated_at = timezone.now()
        saved = [table.state, table.status, table.version, table.deadline, table.deadline_version]
        # One round trip for the rest: the events, the table, the caller's own writes (an
        # action's receipt) and the seats the snapshots show; and the COMMIT, when the caller
        # owns the transaction and has nothing left to run in it (``holding``).
        results = execute_many(
            [
                *insert_events,
                _SAVE_TABLE.statement(table.pk, [*saved, table.updated_at]),
                *(also(table) if also is not None else ()),
                views_state.SEATS.statement(table.pk),
            ],
            commit=commit,
        )
        written = Written(
            table_id=table.pk,
            version=table.version,
            status=table.status,
            state=final,
            deadline=table.deadline,
            deadline_version=table.deadline_version,
            template_name=table.template.name,
            currency=table.template.currency,
            bots_allowed=table.template.bots_allowed,
            events=tuple(published),
            seats=views_state.seats_of(results[-1].rows),
        )
        transaction.on_commit(lambda: _announce(written))
    return table


@overload
def lock(table_id: int) -> Table: ...
@overload
def lock(table_id: int, *, skip_locked: bool) -> Table | None: ...


def lock(table_id: int, *, skip_locked: bool = False) -> Table | None:
    """Lock the table's row for this transaction and read it with its template.

    Only the table's row: ``of=("self",)`` keeps the template's row unlocked. A plain
    ``FOR UPDATE`` over the join would lock the template too, and every table of one template
    (all the 101 Pool tables of a lobby) would then take turns on that one row, one action at a
    time across the site. :class:`Table.DoesNotExist` when there is none; with ``skip_locked``,
    None when another transaction holds it.

    Every action starts here, so the statement is built once (:mod:`statements`). The
    table's other columns (its deadline, its timestamps) load if they are read."""
    rows = (_LOCK_SKIPPING if skip_locked else _LOCK).rows(table_id)
    if not rows:
        if skip_locked:
            return None
        raise Table.DoesNotExist(f"no table {table_id}")
    return _locked_table(rows[0])


def lock_and_read(table_id: int, reads: Sequence[Statement]) -> tuple[Table, list[list[tuple[Any, ...]]]]:
    """:func:`lock`, then ``reads`` in the same round trip: they run once the lock is granted,
    so they see everything committed before it. Their rows, in order."""
    found, *results = execute_many([_LOCK.statement(table_id), *reads])
    if not found.rows:
        raise Table.DoesNotExist(f"no table {table_id}")
    return _locked_table(found.rows[0]), [result.rows for result in results]


def _locked_table(row: Sequence[Any]) -> Table:
    split = len(_LOCKED_TABLE)
    table = instance(Table, _LOCKED_TABLE_COLUMNS, row[:split])
    table.template = instance(TableTemplate, _LOCKED_TEMPLATE_COLUMNS, row[split:])
    return table


#: What the lock reads of the table (the rest loads if used) and of its template (all of it).
_LOCKED_TABLE = ("id", "template__id", "status", "version", "state", "private", "invite_code")
_LOCKED_TEMPLATE_COLUMNS = tuple(field.attname for field in TableTemplate._meta.concrete_fields)
_LOCKED_TEMPLATE = tuple(f"template__{name}" for name in _LOCKED_TEMPLATE_COLUMNS)
_LOCKED_TABLE_COLUMNS = tuple(name.replace("__", "_") for name in _LOCKED_TABLE)  # template_id


def _lock_query(skip_locked: bool) -> Prepared:
    return Prepared(
        lambda table_id: (
            Table.objects.select_for_update(of=("self",), skip_locked=skip_locked)
            .filter(pk=table_id)
            .values_list(*_LOCKED_TABLE, *_LOCKED_TEMPLATE)
        ),
        arity=1,
    )


_LOCK, _LOCK_SKIPPING = _lock_query(skip_locked=False), _lock_query(skip_locked=True)


#: What the caller writes with the table, given the table as the write left it.
Also = Callable[[Table], Sequence[Statement]]


class _Held(threading.local):
    table: Table | None = None
    also: Also | None = None
    commit: bool = False


_held = _Held()


@contextmanager
def holding(table: Table, also: Also | None = None, *, commit: bool = False) -> Iterator[None]:
    """The caller has locked ``table`` (:func:`lock`) in the open transaction: the next write to
    it here reuses that row instead of locking it again, and takes no savepoint, so the caller
    must let an error roll back its whole transaction. The websocket's actions lock the table
    first to find their receipt (games.client_actions).

    ``also(table)``, if given, is called once the write has applied: its statements are sent
    with the write's own, in its last round trip (an action's receipt). It is not called when
    nothing was written.

    With ``commit`` the caller owns the transaction (``statements.owns_transaction``) and runs
    nothing more in it after the write: the write's last round trip carries the ``COMMIT``.
    Its after-commit hooks still run when the caller's ``atomic`` block ends."""
    _held.table, _held.also, _held.commit = table, also, commit
    try:
        yield
    finally:
        _held.table, _held.also, _held.commit = None, None, False


class _Deferred(threading.local):
    writes: list[Written] | None = None


_deferred = _Deferred()


@contextmanager
def deferring_hooks() -> Iterator[list[Written]]:
    """Within this block (in this thread), keep each committed write for the caller instead of
    running the after-commit hooks: a websocket action runs them itself, and publishes from the
    event loop once it has answered (:func:`games.live.perform`). The list it yields fills as
    writes commit."""
    writes: list[Written] = []
    _deferred.writes = writes
    try:
        yield writes
    finally:
        _deferred.writes = None


def run_hooks(written: Written, *, skip: Iterable[Callable[[Written], None]] = ()) -> None:
    """Run the after-commit hooks for a committed write, but those in ``skip``."""
    skipped = tuple(skip)
    for hook in list(after_commit):
        if hook not in skipped:
            hook(written)


def _announce(written: Written) -> None:
    if not written.events:
        return
    if _deferred.writes is not None:
        _deferred.writes.append(written)
        return
    run_hooks(written)


def _status(state: engine.TableState) -> str:
    if state.phase is engine.Phase.WAITING:
        return TableStatus.STARTING if state.countdown else TableStatus.WAITING
    if state.phase in (engine.Phase.PLAYING, engine.Phase.BETWEEN):
        return TableStatus.PLAYING
    return TableStatus.FINISHED if state.phase is engine.Phase.FINISHED else TableStatus.CANCELLED


#: A write's statements, built once (every move runs them).
_SAVE_TABLE = Update(Table, ["state", "status", "version", "deadline", "deadline_version", "updated_at"])
_INSERT_EVENTS = Insert(TableEvent, ["table", "version", "type", "data", "visibility", "user", "created_at"])


def _append(table: Table, events: Iterable[Event], at: int) -> tuple[list[Published], list[Statement]]:
    """Number the events from the table's version on; the insert that logs them (none for
    no events), for the caller to send. Each is logged at the game's time of its write, ``at``
    (the server's clock in live play, the simulator's own clock in a simulation), so the log's
    times are the times the players acted (fair play reads them for the bots' timing)."""
    rows = []
    published = []
    created_at = datetime.fromtimestamp(at / 1000, tz=UTC)
    for event in events:
        table.version += 1
        to = None if event.to is None else int(event.to)
        visibility = Visibility.EVERYONE if to is None else Visibility.USER
        rows.append((table.pk, table.version, event.type, event.data, visibility, to, created_at))
        published.append(Published(table.pk, table.version, event.type, event.data, to))
    return published, [_INSERT_EVENTS.statement(rows)] if rows else []


def _open_seat(table: Table, name: str) -> Seat:
    seat = Seat.objects.filter(table=table, user_id=int(name)).order_by("-id").first()
    if seat is None:
        raise GameError("not_at_table", "you are not at this table")
    return seat


def _seating(state: engine.TableState) -> list[tuple[str, engine.Status]]:
    return [(player.name, player.status) for player in state.players]


def _sync_seats(table: Table, state: engine.TableState) -> None:
    seats = {seat.user_id: seat for seat in Seat.objects.filter(table=table, left_at__isnull=True)}
    for position, player in enumerate(state.players):
        seat = seats.get(int(player.name))
        if seat is None:
            continue
        status = SeatStatus(player.status.value)
        left_at = timezone.now() if status is SeatStatus.LEFT else None
        if seat.status != status or seat.position != position or left_at:
            seat.status, seat.position, seat.left_at = status, position, left_at
            seat.save(update_fields=["status", "position", "left_at"])


def _pay(table: Table, intent: engine.Money, rules: engine.Rules) -> None:
    """Money moves at the table's own settings, copied into its state when it was opened
    (R-MONEY-6): editing the template afterwards changes nothing here."""
    template = table.template
    currency = Currency(template.currency)
    pool_ref = table.pool_ref
    variant = template.variant
    if isinstance(intent, engine.ChargeEntry):
        ops.charge_entry_fee(int(intent.player), pool_ref, intent.amount, currency=currency, variant=variant)
    elif isinstance(intent, engine.RefundEntry):
        ops.refund_entry(int(intent.player), pool_ref, currency=currency)
    elif isinstance(intent, engine.RefundAll):
        reason = "voided by staff (R-MONEY-7)" if intent.voided else "never started"
        ops.refund_pool(pool_ref, currency=currency, reason=reason)
    elif isinstance(intent, engine.ChargeRejoin):
        ops.charge_rejoin_fee(
            int(intent.player),
            pool_ref,
            intent.amount,
            rejoin_number=intent.number,
            currency=currency,
            variant=variant,
        )
    elif isinstance(intent, engine.PayWinner):
        ops.pay_winner(
            pool_ref,
            int(intent.player),
            rake_percent=rules.rake_percent,
            currency=currency,
            variant=variant,
        )
    elif isinstance(intent, engine.PaySplit):
        ops.pay_split(
            pool_ref,
            [(int(name), amount) for name, amount in zip(intent.players, intent.amounts, strict=True)],
            rake_percent=rules.rake_percent,
            currency=currency,
            variant=variant,
        )
    elif isinstance(intent, engine.HoldSeat):
        seat = _open_seat(table, intent.player)
        ops.hold_seat(
            int(intent.player),
            seat.seat_ref,
            intent.amount,
            point_value=rules.point_value,
            points=variant_named(variant).seat_hold_points,
            table_ref=table.table_ref,
            currency=currency,
        )
    elif isinstance(intent, engine.TopUpSeat):
        ops.top_up_seat(
            int(intent.player),
            _open_seat(table, intent.player).seat_ref,
            intent.amount,
            deal_number=intent.deal_number,
            table_ref=table.table_ref,
            currency=currency,
        )
    elif isinstance(intent, engine.ReleaseSeat):
        ops.release_seat(_open_seat(table, intent.player).seat_ref, currency=currency)
    elif isinstance(intent, engine.SettleDeal):
        refs = {name: _open_seat(table, name).seat_ref for t in intent.transfers for name in t[:2]}
        ops.settle_deal(
            table.table_ref,
            intent.deal_number,
            [(refs[payer], refs[payee], points) for payer, payee, points in intent.transfers],
            point_value=rules.point_value,
            rake_percent=rules.rake_percent,
            currency=currency,
            variant=variant,
        )
    else:  # pragma: no cover - every intent is handled above
        raise AssertionError(f"unknown money intent {intent!r}")


def _record_deal_start(table: Table, number: int, state: DealState) -> None:
    Deal.objects.create(
        table=table,
        number=number,
        commitment=state.commitment,
        players=list(state.players),
        dealer=state.seats[state.dealer].player,
    )


def _record_deal_over(table: Table, state: DealState, toss: dict[str, Any] | None) -> None:
    """R-DEAL-5: reveal the seed; keep every hand, grouping and score for replay. A deal that
    followed a toss also keeps the toss's seed, commitment and players in ``result["toss"]``."""
    result = deal_result(state)
    deal = Deal.objects.get(table=table, commitment=state.commitment)
    deal.seed = seed_hex(state.seed)
    deal.result = {**result.to_json(), "toss": toss}
    deal.finished_at = timezone.now()
    deal.save(update_fields=["seed", "result", "finished_at"])
    DealHand.objects.bulk_create(
        DealHand(
            deal=deal,
            user_id=int(player["player"]),
            outcome=player["outcome"],
            score=player["score"],
            hand=player["hand"],
            grouping=player["grouping"],
            net=player["net"],
        )
        for player in deal.result["players"]
    )


# --- the functions views, consumers, tasks and bots call ------------------------------------


def open_table(template: TableTemplate, *, at: int | None = None, private: bool = False) -> Table:
    """A new empty table of ``template``; a ``private`` one gets an invitation code."""
    from games.access import new_invite_code

    at = now_ms() if at is None else at
    state = engine.open_table(variant_named(template.variant), rules_of(template), at)
    for _ in range(5):  # a clash of two random codes is all but impossible; try again if it comes
        try:
            with transaction.atomic():
                return Table.objects.create(
                    template=template,
                    state=state.to_json(),
                    private=private,
                    invite_code=new_invite_code() if private else "",
                )
        except IntegrityError:
            continue
    raise GameError("try_again", "could not open a table just now: try again")


def open_round_table(
    template: TableTemplate, players: Sequence[Any], *, qualify: int, at: int | None = None
) -> Table:
    """A tournament round's table (R-TOUR-3): a free deals-rummy table of ``template`` for
    exactly ``players`` (users), of as many deals as players, from which ``qualify`` go
    through; all of them seated at once, so the game starts in this same transaction.

    The tournament chose the players: nobody else may join (the table is full), the open-seats
    limit does not refuse them (they registered for the tournament, which seats them), and no
    money moves at the table (the tournament took the buy-ins)."""
    at = now_ms() if at is None else at
    variant = variant_named(template.variant)
    if not variant.is_deals or template.entry_fee:
        raise GameError("bad_template", "a tournament's tables are free deals-rummy tables")
    count = len(players)
    rules = dataclasses.replace(rules_of(template), seats=count, deals=count, qualify=qualify, entry_fee=0)
    try:
        state = engine.open_table(variant, rules, at)
    except ValueError as error:
        raise GameError("bad_round_table", str(error)) from None
    with transaction.atomic():
        table = Table.objects.create(template=template, state=state.to_json())
        for user in players:
            name = name_of(user)

            def before(table: Table, state: engine.TableState, name: str = name) -> None:
                Seat.objects.create(table=table, user_id=int(name), position=len(state.players))

            _run(table.pk, lambda state, name=name: engine.Join(name, at), at=at, before=before)
    return Table.objects.select_related("template").get(pk=table.pk)


def open_private(user: Any, template: TableTemplate, *, at: int | None = None) -> Table:
    """Open a private table of ``template`` and sit ``user`` at it. Friends join with the
    table's invitation code or link; the rules and money are those of a public table."""
    at = now_ms() if at is None else at
    if not template.active:
        raise GameError("template_inactive", "this table is not offered any more")
    with transaction.atomic():
        table = open_table(template, at=at, private=True)
        return join(table.pk, user, at=at, code=table.invite_code)


def join(table_id: int, user: Any, *, at: int | None = None, code: str | None = None) -> Table:
    """Sit ``user`` at the table: pool charges the entry fee, 21-card holds 200 points (R-21-8).
    A private table needs its invitation ``code`` (or an earlier seat at it).

    When the table fills, the game starts in the same transaction.
    """
    at = now_ms() if at is None else at
    name = name_of(user)
    if getattr(user, "is_staff", False) and _currency_of(table_id) != Currency.CHIPS:
        raise GameError("staff_no_money_play", "staff accounts cannot play at money tables")
    if getattr(user, "is_bot", False):
        template = Table.objects.select_related("template").get(pk=table_id).template
        if not template.bots_allowed:
            raise GameError("bots_not_allowed", "bots play only on practice tables that allow them")

    def before(table: Table, state: engine.TableState) -> None:
        from games.access import check

        check(table, user, code)
        # The seat row comes first: a 21-card hold names it.
        if (not state.has(name) or state.player(name).status is engine.Status.LEFT) and (
            len(state.seated) < state.rules.seats
            and Seat.objects.filter(table=table, user_id=int(name), left_at__isnull=True).count() == 0
        ):
            _money_play(user, table.template.currency, stake_of(state.rules, table.template.variant))
            _keep_apart(user, table, state)
            _check_open_seats(user, table)
            Seat.objects.create(table=table, user_id=int(name), position=len(state.players))

    try:
        with transaction.atomic():
            _lock_player(user)  # the player's row first, then the table's: one order, no deadlock
            table = _run(table_id, lambda state: engine.Join(name, at), at=at, before=before)
    except IntegrityError:
        raise GameError("already_seated", "you are already at this table") from None
    assert table is not None
    return table


def _keep_apart(user: Any, table: Table, state: engine.TableState) -> None:
    """At a money table, nobody sits with a player fair play keeps them apart from
    (``games.seating``): ``linked_account``. Practice tables are open to all."""
    if table.template.currency == Currency.CHIPS:
        return
    me = int(name_of(user))
    seated = [int(p.name) for p in state.players if p.status is not engine.Status.LEFT and int(p.name) != me]
    if seated:
        seating.check_seat(me, seated)


def _lock_player(user: Any) -> None:
    """Serialise one player's joins and play-nows (the seat limit and play-now's idempotency
    are checked under this lock)."""
    from accounts.models import User

    # FOR NO KEY UPDATE: ledger writes naming the player take a key-share lock on this row
    # (protection.players.lock says why that matters).
    list(User.objects.select_for_update(no_key=True).filter(pk=user.pk).values_list("pk", flat=True))


def _check_open_seats(user: Any, table: Table | None) -> None:
    """A player sits at no more than ``TABLE_MAX_OPEN_SEATS`` open tables at once (bots aside)."""
    if getattr(user, "is_bot", False):
        return
    limit = int(getattr(settings, "TABLE_MAX_OPEN_SEATS", 3))
    open_seats = (
        Seat.objects.filter(user_id=user.pk, left_at__isnull=True)
        .exclude(table=table)
        .exclude(table__status__in=[TableStatus.FINISHED, TableStatus.CANCELLED])
        .count()
    )
    if open_seats >= limit:
        raise GameError(
            "too_many_tables", f"you already sit at {open_seats} tables, the most at once; leave one first"
        )


def _currency_of(table_id: int) -> str:
    return str(Table.objects.filter(pk=table_id).values_list("template__currency", flat=True).first())


def play_now(user: Any, template: TableTemplate, *, at: int | None = None) -> Table:
    """Seat ``user`` at a table of ``template`` that is waiting for players, or open a new one."""
    at = now_ms() if at is None else at
    if not template.active:
        raise GameError("template_inactive", "this table is not offered any more")
    if getattr(user, "is_staff", False) and template.currency != Currency.CHIPS:
        raise GameError("staff_no_money_play", "staff accounts cannot play at money tables")
    _money_play(user, template.currency, stake_of(rules_of(template), template.variant))
    statuses = joinable_statuses(template.variant)
    candidates = play_now_candidates(user, template)
    with transaction.atomic():
        _lock_player(user)
        # Idempotent for a few seconds: twenty clicks on "play now" are one seat and one fee.
        since = timezone.now() - timedelta(seconds=float(getattr(settings, "PLAY_NOW_SECONDS", 10)))
        recent = (
            Seat.objects.filter(
                user_id=user.pk,
                table__template=template,
                table__status__in=statuses,
                left_at__isnull=True,
                joined_at__gte=since,
            )
            .order_by("-id")
            .values_list("table_id", flat=True)
            .first()
        )
        if recent is not None:
            return Table.objects.select_related("template").get(pk=recent)
        _check_open_seats(user, None)  # before a table is opened for nothing
        return _seat_somewhere(user, template, candidates, at)


def _seat_somewhere(user: Any, template: TableTemplate, candidates: Any, at: int) -> Table:
    for table_id in list(candidates.values_list("id", flat=True)[:20]):
        try:
            return join(table_id, user, at=at)
        except GameError as error:
            if error.code not in (
                "table_full",
                "game_running",
                "table_closed",
                "left_table",
                "already_seated",
                "linked_account",  # another table, or a new one: never beside a linked account
            ):
                raise
    table = open_table(template, at=at)
    return join(table.pk, user, at=at)


def leave(table_id: int, user: Any, *, at: int | None = None) -> Table:
    """Leave: a refund before the start, a forfeit after (R-MONEY-5); 21-card releases the seat."""
    at = now_ms() if at is None else at
    name = name_of(user)
    table = _run(table_id, lambda state: engine.Leave(name, at), at=at)
    assert table is not None
    return table


def cancel(table_id: int, why: str, *, at: int | None = None) -> Table:
    """Staff cancel a table whose game has not started: every fee refunded, every seat
    released (R-MONEY-4); ``game_running`` once it has started."""
    at = now_ms() if at is None else at
    table = _run(table_id, lambda state: engine.Cancel(at, why), at=at)
    assert table is not None
    return table


def void(table_id: int, why: str, *, at: int | None = None) -> Table:
    """R-MONEY-7: void a running game, once a second staff member has confirmed (the back
    office's ``void`` requests). Pool: every fee back, no rake, no prize; 21-card: the deal in
    play dropped, every hold back. ``not_playing`` for a table that has not started (cancel it)
    or is over."""
    at = now_ms() if at is None else at
    table = _run(table_id, lambda state: engine.Void(at, why), at=at)
    assert table is not None
    return table


def act(table_id: int, user: Any, action: Mapping[str, Any] | Any, *, at: int | None = None) -> Table:
    """A move in the deal: draw, discard, drop, finish, declare, show, save_grouping.

    ``action`` is the JSON a client sends (``{"type": "discard", "card": "7H"}``); the player
    and the time are the server's, whatever the client says.
    """
    at = now_ms() if at is None else at
    name = name_of(user)
    try:
        if isinstance(action, Mapping):
            if action.get("type") == "timeout":
                raise GameError("bad_action", "a player cannot send a timeout")
            parsed = action_from_json({**action, "player": name, "at": at})
        else:
            check_action(action)
            if getattr(action, "player", None) != name:
                raise GameError("not_your_action", "an action names the player who sends it")
            parsed = action
    except ActionError as error:
        raise GameError.from_engine(error) from None
    table = _run(table_id, lambda state: parsed, at=at)
    assert table is not None
    return table


def leave_after_deal(table_id: int, user: Any, on: bool = True, *, at: int | None = None) -> Table:
    """Leave when the running deal ends (``on``), or stay after all (``on=False``)."""
    at = now_ms() if at is None else at
    table = _run(table_id, lambda state: engine.LeaveAfterDeal(name_of(user), on, at), at=at)
    assert table is not None
    return table


def set_auto_drop(table_id: int, user: Any, on: bool = True, *, at: int | None = None) -> Table:
    """R-DROP-4: auto drop from the next deals (``on``), or "I'm back" (``on=False``)."""
    at = now_ms() if at is None else at
    table = _run(table_id, lambda state: engine.SetAutoDrop(name_of(user), on, at), at=at)
    assert table is not None
    return table


def im_back(table_id: int, user: Any, *, at: int | None = None) -> Table:
    return set_auto_drop(table_id, user, False, at=at)


def rejoin(table_id: int, user: Any, *, at: int | None = None) -> Table:
    """R-POOL-4: pay the entry fee again and restart at the highest remaining score + 1."""
    at = now_ms() if at is None else at

    def before(table: Table, state: engine.TableState) -> None:
        _money_play(user, table.template.currency, state.rules.entry_fee)
        _keep_apart(user, table, state)

    table = _run(table_id, lambda state: engine.Rejoin(name_of(user), at), at=at, before=before)
    assert table is not None
    return table


def answer_split(table_id: int, user: Any, accept: bool, *, at: int | None = None) -> Table:
    """R-POOL-6: accept or decline the manual split on offer."""
    at = now_ms() if at is None else at
    table = _run(table_id, lambda state: engine.AnswerSplit(name_of(user), accept, at), at=at)
    assert table is not None
    return table


def start(table_id: int, *, at: int | None = None) -> Table | None:
    """Start the game once the countdown is over (the same as ``expire`` of the countdown)."""
    at = now_ms() if at is None else at

    def command(state: engine.TableState) -> engine.Command | None:
        if state.waiting_for != "countdown":
            raise GameError("not_ready", "the table is not counting down to a start")
        return engine.Timeout(at)

    return _run(table_id, command, at=at)


def expire(table_id: int, version: int, *, at: int | None = None, skip_locked: bool = False) -> bool:
    """Apply the table's deadline if the table is still at ``version`` and the deadline has
    passed; otherwise do nothing. Safe to call twice, late, or racing a move.

    Each move schedules a deadline, and nearly all of them find the table moved on: a plain
    read answers those without taking the table's row lock (which players' actions need).
    The version is checked again under the lock (``_run``), so a move racing this read still
    wins."""
    at = now_ms() if at is None else at
    if not Table.objects.filter(pk=table_id, version=version).exists():
        return False

    def command(state: engine.TableState) -> engine.Command | None:
        deadline = state.deadline_ms
        if deadline is None or at < deadline:
            return None
        return timeout_at(table_id, state, at)

    return _run(table_id, command, at=at, expect_version=version, skip_locked=skip_locked) is not None


def sweep(*, at: int | None = None) -> int:
    """Expire every table whose deadline has passed (the periodic job), the longest overdue
    first; returns how many moved.

    A table another transaction holds is passed over: a player's move there supersedes the
    deadline or leaves it to the next sweep, and two sweeps running at once (a slow one and
    the next) share the work instead of queueing on the same rows."""
    at = now_ms() if at is None else at
    when = datetime.fromtimestamp(at / 1000, tz=UTC)
    due = (
        Table.objects.filter(deadline__lte=when, deadline_version__isnull=False)
        .order_by("deadline", "id")
        .values_list("id", "deadline_version")
    )
    return sum(
        1
        for table_id, version in list(due)
        if version is not None and expire(table_id, version, at=at, skip_locked=True)
    )
