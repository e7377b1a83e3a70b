"""Game money: entry and rejoin fees, refunds, prizes and splits, 21-card seats and deals.

Each function is one posting through :func:`wallet.ledger.execute`: one transaction that
locks the accounts it touches (in id order), claims an idempotency key derived from the game
event (``entry:<pool>:<user>``, ``prize:<pool>``, ``deal:<table>:<n>`` ...) and checks the
rules under those locks. Calling a function again with the same event returns the original
journal and moves no money; calling it with the same event but different figures raises
``idempotency_conflict``. Payouts and refunds take an optional ``key`` for the one case where
the same event happens twice: paying a pool again after its first payout was reversed.

Amounts are integer paise (R-MONEY-1). Rake: ``floor(amount × percent / 100)`` paise, computed
exactly (the percent may be an int, ``Decimal`` or ``Fraction``, never a float).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

# R-POOL-8's arithmetic is a rule of the game: the engine (the bottom layer, no Django, no
# project import) owns it; the wallet applies it to the pool it has locked.
from games.engine.pool import split_payouts
from wallet import sql
from wallet.errors import Code, WalletError, rupees
from wallet.ledger import (
    AccountSpec,
    Known,
    Leg,
    Locks,
    Plan,
    check_amount,
    execute,
    held_seat_spec,
    house_spec,
    pool_spec,
    seat_spec,
    user_spec,
)
from wallet.models import AccountKind, Currency, Journal, JournalKind
from wallet.money import money

if TYPE_CHECKING:
    from accounts.models import User

#: R-21-8: joining a 21-card table needs at least this many points of balance.


def _uid(user: User | int) -> int:
    if isinstance(user, bool):
        raise WalletError(Code.BAD_REQUEST, "A user or a user id is required.")
    if isinstance(user, int):
        return user
    if user.pk is None:
        raise WalletError(Code.BAD_REQUEST, "The user is not saved.")
    return int(user.pk)


def rake_for(amount: int, rake_percent: int | Decimal | Fraction) -> int:
    """The house rake on ``amount`` paise: ``floor(amount × percent / 100)`` (R-MONEY-2, R-MONEY-3).

    >>> rake_for(15000, 10), rake_for(999, 10), rake_for(1000, Decimal("12.5"))
    (1500, 99, 125)
    """
    percent = _check_percent(rake_percent)
    return int(amount * percent // 100)


def _check_percent(rake_percent: object) -> Fraction:
    if isinstance(rake_percent, bool) or not isinstance(rake_percent, int | Decimal | Fraction):
        raise WalletError(
            Code.BAD_REQUEST, f"The rake percent must be an int, Decimal or Fraction, not {rake_percent!r}."
        )
    percent = Fraction(rake_percent)
    if not 0 <= percent < 100:
        raise WalletError(
            Code.BAD_REQUEST, f"The rake percent must be from 0 to below 100, not {rake_percent}."
        )
    return percent


def _percent_meta(rake_percent: int | Decimal | Fraction) -> str:
    return str(Fraction(rake_percent))


# --- pools ----------------------------------------------------------------------------------


# The players of a pool: accounts that paid an entry fee into it and were not refunded
# (a refund out of an open pool is a player who left before the start, see refund_entry).
_PLAYERS = (
    "SELECT t.debit_id FROM wallet_account p JOIN wallet_transfer t ON t.credit_id = p.id "
    "JOIN wallet_journal j ON j.id = t.journal_id "
    "WHERE p.ref = %s AND p.currency = %s AND j.kind = 'entry_fee' "
    "EXCEPT "
    "SELECT t.credit_id FROM wallet_account p JOIN wallet_transfer t ON t.debit_id = p.id "
    "JOIN wallet_journal j ON j.id = t.journal_id "
    "WHERE p.ref = %s AND p.currency = %s AND j.kind = 'refund'"
)

# Net money each account put into a pool: fees in, minus anything moved back to it.
_CONTRIBUTIONS = (
    "SELECT a.id, a.kind, a.ref, a.owner_id, SUM(m.amount) FROM ("
    "  SELECT t.debit_id AS account_id, t.amount FROM wallet_account p"
    "  JOIN wallet_transfer t ON t.credit_id = p.id WHERE p.ref = %s AND p.currency = %s"
    "  UNION ALL"
    "  SELECT t.credit_id AS account_id, -t.amount FROM wallet_account p"
    "  JOIN wallet_transfer t ON t.debit_id = p.id WHERE p.ref = %s AND p.currency = %s"
    ") m JOIN wallet_account a ON a.id = m.account_id "
    "GROUP BY a.id, a.kind, a.ref, a.owner_id HAVING SUM(m.amount) <> 0 ORDER BY a.id"
)


def _players_read(pool: AccountSpec) -> sql.Read:
    """The read (run right after the lock) of a pool's players' account ids."""
    return _PLAYERS, [pool.ref, pool.currency, pool.ref, pool.currency]


def _contributions_read(pool: AccountSpec) -> sql.Read:
    """The read of {account: (kind, ref, owner id, net paise)} paid into a pool."""
    return _CONTRIBUTIONS, [pool.ref, pool.currency, pool.ref, pool.currency]


def _contributions(rows: list[tuple[Any, ...]]) -> dict[int, tuple[str, str, int | None, int]]:
    return {row[0]: (row[1], row[2], row[3], int(row[4])) for row in rows}


def pool_entrants(pool_ref: str, currency: Currency = Currency.INR) -> list[int]:
    """Ids of the users playing in the pool (paid an entry fee, not refunded), in the order they joined."""
    rows = sql.fetch(
        "SELECT a.owner_id FROM wallet_account p "
        "JOIN wallet_transfer t ON t.credit_id = p.id JOIN wallet_journal j ON j.id = t.journal_id "
        "JOIN wallet_account a ON a.id = t.debit_id "
        "WHERE p.ref = %s AND p.currency = %s AND j.kind = 'entry_fee' "
        "AND NOT EXISTS (SELECT 1 FROM wallet_transfer r JOIN wallet_journal rj ON rj.id = r.journal_id "
        "  WHERE r.debit_id = p.id AND r.credit_id = a.id AND rj.kind = 'refund') "
        "ORDER BY t.id",
        [pool_spec(pool_ref, currency).ref, currency],
    )
    return list(dict.fromkeys(row[0] for row in rows))


def _pool_closed_error(pool_ref: str) -> WalletError:
    return WalletError(Code.ACCOUNT_CLOSED, f"The pool game {pool_ref} is already settled.")


def _pay_into_pool(
    uid: int,
    pool_ref: str,
    fee: int,
    *,
    key: str,
    kind: JournalKind,
    currency: Currency,
    meta: Mapping[str, Any],
    check: Callable[[Locks, AccountSpec, AccountSpec], None],
    read_players: bool,
    capacity: int | None = None,
    member: bool = False,
) -> Journal:
    """Move ``fee`` from the user's wallet into an open pool, after the caller's ``check`` has
    passed under the locks (with the pool's players read when ``read_players``). ``capacity``
    and ``member`` say what the check is, for the posting in one statement (``Known``): fewer
    players than the capacity, or the player among them."""
    wallet, pool = user_spec(uid, currency), pool_spec(pool_ref, currency)
    legs = [Leg(wallet.ref, pool.ref, fee)]
    known = Known(
        legs,
        open=[pool.ref],
        players=pool.ref if read_players else None,
        capacity=capacity,
        member=wallet.ref if member else None,
    )

    def plan(locks: Locks) -> Plan:
        if locks[pool.ref].closed:
            raise _pool_closed_error(pool_ref)
        check(locks, wallet, pool)
        return Plan(legs)

    return execute(
        key=key,
        kind=kind,
        currency=currency,
        accounts=[wallet, pool],
        meta=meta,
        plan=plan,
        created_by_id=uid,
        reads=[_players_read(pool)] if read_players else [],
        known=known,
    )


def charge_entry_fee(
    user: User | int,
    pool_ref: str,
    fee: int,
    *,
    capacity: int | None = None,
    currency: Currency = Currency.INR,
    variant: str = "",
    meta: Mapping[str, Any] | None = None,
) -> Journal:
    """Move the entry fee from the user's wallet into the pool's prize pool (R-POOL-1, R-MONEY-2).

    Idempotent per (pool, user). With ``capacity``, the number of entries already in the pool
    is counted under the pool's lock, so of many players racing for the last seat exactly one
    is charged and the others get ``pool_full``.
    """
    uid = _uid(user)
    check_amount(fee, what="entry fee")
    if capacity is not None and (isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1):
        raise WalletError(
            Code.BAD_REQUEST, f"The capacity must be a positive whole number, not {capacity!r}."
        )

    def check(locks: Locks, wallet: AccountSpec, pool: AccountSpec) -> None:
        if capacity is not None and len(locks.reads[0]) >= capacity:
            raise WalletError(Code.POOL_FULL, f"The pool game {pool_ref} is full ({capacity} players).")

    return _pay_into_pool(
        uid,
        pool_ref,
        fee,
        key=f"entry:{pool_ref}:{uid}",
        kind=JournalKind.ENTRY_FEE,
        currency=currency,
        meta={
            **(meta or {}),
            "pool": pool_ref,
            "user": uid,
            "fee": fee,
            "capacity": capacity,
            "variant": variant,
        },
        check=check,
        read_players=capacity is not None,
        capacity=capacity,
    )


def charge_rejoin_fee(
    user: User | int,
    pool_ref: str,
    fee: int,
    *,
    rejoin_number: int,
    currency: Currency = Currency.INR,
    variant: str = "",
    meta: Mapping[str, Any] | None = None,
) -> Journal:
    """Charge the rejoin fee (the entry fee again) into the prize pool (R-POOL-4, R-MONEY-2).

    Only a player who paid an entry fee into this pool may rejoin; ``rejoin_number`` (1, 2,
    ...) counts the user's rejoins in this pool and makes each one its own idempotent event.
    Whether a rejoin is allowed by the scores is the game's decision (games.engine.pool).
    """
    uid = _uid(user)
    check_amount(fee, what="rejoin fee")
    if isinstance(rejoin_number, bool) or not isinstance(rejoin_number, int) or rejoin_number < 1:
        raise WalletError(Code.BAD_REQUEST, f"The rejoin number must be 1 or more, not {rejoin_number!r}.")

    def check(locks: Locks, wallet: AccountSpec, pool: AccountSpec) -> None:
        if locks[wallet.ref].id not in {row[0] for row in locks.reads[0]}:
            raise WalletError(Code.NOT_IN_POOL, f"Only a player of {pool_ref} may rejoin it.")

    return _pay_into_pool(
        uid,
        pool_ref,
        fee,
        key=f"rejoin:{pool_ref}:{uid}:{rejoin_number}",
        kind=JournalKind.REJOIN_FEE,
        currency=currency,
        meta={
            **(meta or {}),
            "pool": pool_ref,
            "user": uid,
            "fee": fee,
            "rejoin": rejoin_number,
            "variant": variant,
        },
        check=check,
        read_players=True,
        member=True,
    )


def refund_pool(
    pool_ref: str,
    *,
    currency: Currency = Currency.INR,
    reason: str = "never started",
    meta: Mapping[str, Any] | None = None,
    key: str | None = None,
) -> Journal:
    """Give every player back all they paid into a pool that never started, and close it (R-MONEY-4).

    Idempotent per pool. A pool nobody paid into is closed with an empty journal.
    """
    pool = pool_spec(pool_ref, currency)
    # Who paid in, read before locking so they can be locked with the pool in one go; the
    # plan checks the list again under the locks.
    payer_specs = [
        AccountSpec(AccountKind(kind), currency, ref, owner_id)
        for kind, ref, owner_id, _ in _contributions(sql.fetch(*_contributions_read(pool))).values()
    ]

    def plan(locks: Locks) -> Plan:
        account = locks[pool.ref]
        if account.closed:
            raise _pool_closed_error(pool_ref)
        contributions = _contributions(locks.reads[0])
        if not {ref for _, ref, _, _ in contributions.values()} <= set(locks):
            raise WalletError(
                Code.BAD_REQUEST, f"Someone joined {pool_ref} while it was being refunded; retry."
            )
        if sum(amount for *_, amount in contributions.values()) != account.balance:
            raise AssertionError(
                f"ledger bug: {pool_ref} holds {account.balance}, contributions {contributions}"
            )
        legs = [Leg(pool.ref, ref, amount) for _, ref, _, amount in contributions.values() if amount > 0]
        return Plan(legs, close={pool.ref}, allow_empty=True)

    return execute(
        key=key or f"refund:{pool_ref}",
        kind=JournalKind.REFUND,
        currency=currency,
        accounts=[pool, *payer_specs],
        meta={**(meta or {}), "pool": pool_ref, "reason": reason},
        plan=plan,
        reads=[_contributions_read(pool)],
    )


def refund_entry(
    user: User | int,
    pool_ref: str,
    *,
    currency: Currency = Currency.INR,
    reason: str = "left before the start",
    meta: Mapping[str, Any] | None = None,
) -> Journal:
    """Give a player who leaves a pool game before it starts all they paid into it (R-MONEY-4).

    The seat is free again (``capacity`` no longer counts the player). Idempotent per (pool,
    user): a player who left cannot pay into that pool again under the same entry key, so the
    game must not seat them there again. Once the game runs, leaving forfeits the fee instead
    (R-MONEY-5): the wallet has nothing to do then.
    """
    uid = _uid(user)
    pool, wallet = pool_spec(pool_ref, currency), user_spec(uid, currency)

    def plan(locks: Locks) -> Plan:
        account = locks[pool.ref]
        if account.closed:
            raise _pool_closed_error(pool_ref)
        if locks[wallet.ref].id not in {row[0] for row in locks.reads[0]}:
            raise WalletError(Code.NOT_IN_POOL, f"The player is not in {pool_ref}.")
        paid = _contributions(locks.reads[1]).get(locks[wallet.ref].id)
        if paid is None or paid[3] <= 0:  # pragma: no cover - a player has paid in
            raise AssertionError(f"ledger bug: a player of {pool_ref} paid nothing in")
        return Plan([Leg(pool.ref, wallet.ref, paid[3])])

    return execute(
        key=f"leave:{pool_ref}:{uid}",
        kind=JournalKind.REFUND,
        currency=currency,
        accounts=[pool, wallet],
        meta={**(meta or {}), "pool": pool_ref, "user": uid, "reason": reason},
        plan=plan,
        created_by_id=uid,
        reads=[_players_read(pool), _contributions_read(pool)],
    )


def pay_winner(
    pool_ref: str,
    winner: User | int,
    *,
    rake_percent: int | Decimal | Fraction,
    currency: Currency = Currency.INR,
    variant: str = "",
    meta: Mapping[str, Any] | None = None,
    key: str | None = None,
) -> Journal:
    """Pay the whole prize pool less the rake to the last player left, and close the pool.

    R-MONEY-2 (the rake is taken once, here), R-MONEY-3 (winnings = prize pool − rake).
    Afterwards the pool account is exactly zero. Idempotent per pool.
    """
    uid = _uid(winner)
    _check_percent(rake_percent)
    pool, wallet, house = (
        pool_spec(pool_ref, currency),
        user_spec(uid, currency),
        house_spec(pool_ref, currency),
    )

    def plan(locks: Locks) -> Plan:
        account = locks[pool.ref]
        if account.closed:
            raise _pool_closed_error(pool_ref)
        if locks[wallet.ref].id not in {row[0] for row in locks.reads[0]}:
            raise WalletError(Code.NOT_IN_POOL, f"The winner did not play in {pool_ref}.")
        if account.balance <= 0:
            raise WalletError(Code.EMPTY_POOL, f"The pool game {pool_ref} holds no money.")
        rake = rake_for(account.balance, rake_percent)
        legs = [Leg(pool.ref, wallet.ref, account.balance - rake)]
        if rake:
            legs.append(Leg(pool.ref, house.ref, rake))
        return Plan(legs, close={pool.ref})

    return execute(
        key=key or f"prize:{pool_ref}",
        kind=JournalKind.PRIZE,
        currency=currency,
        accounts=[pool, wallet, house],
        meta={
            **(meta or {}),
            "pool": pool_ref,
            "winner": uid,
            "rake_percent": _percent_meta(rake_percent),
            "variant": variant,
        },
        plan=plan,
        reads=[_players_read(pool)],
    )


def pay_split(
    pool_ref: str,
    shares: Sequence[tuple[User | int, int]],
    *,
    rake_percent: int | Decimal | Fraction,
    currency: Currency = Currency.INR,
    variant: str = "",
    meta: Mapping[str, Any] | None = None,
    key: str | None = None,
) -> Journal:
    """Pay a split (R-POOL-8): ``shares`` are (player, paise) in seat order, after the rake.

    The shares must add up to exactly the prize pool less the rake (``split_mismatch``
    otherwise); the rake goes to the house and the pool closes at exactly zero.
    """
    _check_percent(rake_percent)
    amounts = [(_uid(user), amount) for user, amount in shares]
    if not amounts:
        raise WalletError(Code.BAD_REQUEST, "A split needs at least one player.")
    if len({uid for uid, _ in amounts}) != len(amounts):
        raise WalletError(Code.BAD_REQUEST, "A player appears twice in the split.")
    for _, amount in amounts:
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise WalletError(
                Code.BAD_AMOUNT, f"A split share must be whole paise, 0 or more; got {amount!r}."
            )
    return _split(pool_ref, amounts, None, rake_percent, currency, variant, meta, key)


def pay_split_by_drops(
    pool_ref: str,
    players: Sequence[User | int],
    drops_left: Sequence[int],
    *,
    entry_fee: int,
    rake_percent: int | Decimal | Fraction,
    currency: Currency = Currency.INR,
    variant: str = "",
    meta: Mapping[str, Any] | None = None,
    key: str | None = None,
) -> Journal:
    """Split the pool by drops remaining (R-POOL-8), computing the shares from the locked pool.

    ``players`` and ``drops_left`` are in seat order. The shares come from
    ``games.engine.pool.split_payouts`` on the prize pool after the rake.
    """
    _check_percent(rake_percent)
    check_amount(entry_fee, what="entry fee")
    uids = [_uid(user) for user in players]
    if len(uids) != len(drops_left) or not uids:
        raise WalletError(Code.BAD_REQUEST, "Give one drops-remaining number per player.")
    if len(set(uids)) != len(uids):
        raise WalletError(Code.BAD_REQUEST, "A player appears twice in the split.")
    for left in drops_left:
        if isinstance(left, bool) or not isinstance(left, int) or left < 0:
            raise WalletError(
                Code.BAD_REQUEST, f"Drops remaining must be whole numbers from 0 up, not {left!r}."
            )
    by_drops = {"entry_fee": entry_fee, "drops_left": list(drops_left)}
    return _split(pool_ref, [(uid, 0) for uid in uids], by_drops, rake_percent, currency, variant, meta, key)


def _split(
    pool_ref: str,
    amounts: list[tuple[int, int]],
    by_drops: dict[str, Any] | None,
    rake_percent: int | Decimal | Fraction,
    currency: Currency,
    variant: str,
    meta: Mapping[str, Any] | None,
    key: str | None,
) -> Journal:
    pool, house = pool_spec(pool_ref, currency), house_spec(pool_ref, currency)
    wallets = [user_spec(uid, currency) for uid, _ in amounts]

    def plan(locks: Locks) -> Plan:
        account = locks[pool.ref]
        if account.closed:
            raise _pool_closed_error(pool_ref)
        if not {locks[wallet.ref].id for wallet in wallets} <= {row[0] for row in locks.reads[0]}:
            raise WalletError(Code.NOT_IN_POOL, f"A player of the split did not play in {pool_ref}.")
        if account.balance <= 0:
            raise WalletError(Code.EMPTY_POOL, f"The pool game {pool_ref} holds no money.")
        rake = rake_for(account.balance, rake_percent)
        prize = account.balance - rake
        if by_drops is None:
            shares = [amount for _, amount in amounts]
        else:
            shares = list(
                split_payouts(
                    prize_pool=prize, entry_fee=by_drops["entry_fee"], drops_left=by_drops["drops_left"]
                )
            )
        if sum(shares) != prize or len(shares) != len(wallets) or min(shares) < 0:
            raise WalletError(
                Code.SPLIT_MISMATCH,
                f"The split shares add up to {rupees(sum(shares))} "
                f"but the prize pool after rake is {rupees(prize)}.",
            )
        legs = [
            Leg(pool.ref, wallet.ref, share) for wallet, share in zip(wallets, shares, strict=True) if share
        ]
        if rake:
            legs.append(Leg(pool.ref, house.ref, rake))
        return Plan(legs, close={pool.ref})

    request: dict[str, Any] = {
        **(meta or {}),
        "pool": pool_ref,
        "rake_percent": _percent_meta(rake_percent),
        "variant": variant,
    }
    if by_drops is None:
        request["shares"] = [[uid, amount] for uid, amount in amounts]
    else:
        request["players"] = [uid for uid, _ in amounts]
        request.update(by_drops)
    return execute(
        key=key or f"split:{pool_ref}",
        kind=JournalKind.SPLIT,
        currency=currency,
        accounts=[pool, house, *wallets],
        meta=request,
        plan=plan,
        reads=[_players_read(pool)],
    )


# --- points tables: seats and deals -----------------------------------------------------------


def hold_seat(
    user: User | int,
    seat_ref: str,
    amount: int,
    *,
    point_value: int,
    points: int,
    table_ref: str,
    currency: Currency = Currency.INR,
    meta: Mapping[str, Any] | None = None,
) -> Journal:
    """Hold ``amount`` of the user's wallet on their seat while they play (R-21-8, R-PTS-4).

    ``amount`` must be at least ``points`` × ``point_value``, the most the variant's deal can
    lose (``below_minimum``). ``seat_ref`` names one sitting (``seat:<id>``), so the hold is
    idempotent per seat.
    """
    uid = _uid(user)
    check_amount(amount, what="amount to hold")
    check_amount(point_value, what="point value")
    check_amount(points, what="points held")
    minimum = points * point_value
    if amount < minimum:
        raise WalletError(
            Code.BELOW_MINIMUM,
            f"Joining needs at least {points} points, {money(minimum, currency)}, held for the table.",
        )
    facts = {"point_value": point_value}
    return _onto_open_seat(uid, seat_ref, amount, f"seat_hold:{seat_ref}", table_ref, currency, meta, facts)


def _onto_open_seat(
    uid: int,
    seat_ref: str,
    amount: int,
    key: str,
    table_ref: str,
    currency: Currency,
    meta: Mapping[str, Any] | None,
    facts: Mapping[str, Any],
) -> Journal:
    """A hold or a top-up: ``amount`` from the wallet onto the player's seat, while it is open."""
    wallet, seat = user_spec(uid, currency), seat_spec(seat_ref, uid, currency)
    legs = [Leg(wallet.ref, seat.ref, amount)]

    def plan(locks: Locks) -> Plan:
        if locks[seat.ref].closed:
            raise WalletError(Code.ACCOUNT_CLOSED, f"The seat {seat.ref} was already released.")
        return Plan(legs)

    return execute(
        key=key,
        kind=JournalKind.SEAT_HOLD,
        currency=currency,
        accounts=[wallet, seat],
        meta={**(meta or {}), "seat": seat_ref, "table": table_ref, "user": uid, "amount": amount, **facts},
        plan=plan,
        created_by_id=uid,
        known=Known(legs, open=[seat.ref]),
    )


def top_up_seat(
    user: User | int,
    seat_ref: str,
    amount: int,
    *,
    deal_number: int,
    table_ref: str,
    currency: Currency = Currency.INR,
    meta: Mapping[str, Any] | None = None,
) -> Journal:
    """R-21-9, R-PTS-4: move ``amount`` from the user's wallet onto their open seat after deal
    ``deal_number``, so the seat is back at its hold for the next deal. Idempotent per seat
    and deal; ``insufficient_funds`` when the wallet cannot cover it (the caller stands the
    player up instead)."""
    uid = _uid(user)
    check_amount(amount, what="top-up")
    key, facts = f"seat_topup:{seat_ref}:{deal_number}", {"top_up_after_deal": deal_number}
    return _onto_open_seat(uid, seat_ref, amount, key, table_ref, currency, meta, facts)


def release_seat(
    seat_ref: str, *, currency: Currency = Currency.INR, meta: Mapping[str, Any] | None = None
) -> Journal:
    """Give the whole seat balance back to its player's wallet and close the seat (R-21-8, R-PTS-4)."""
    rows = sql.fetch(
        "SELECT owner_id FROM wallet_account WHERE ref = %s AND currency = %s AND kind = 'seat'",
        [seat_spec(seat_ref, 0, currency).ref, currency],
    )
    if not rows or rows[0][0] is None:
        raise WalletError(Code.NOT_FOUND, f"No money was ever held for {seat_ref}.")
    owner_id = int(rows[0][0])
    seat, wallet = seat_spec(seat_ref, owner_id, currency), user_spec(owner_id, currency)

    def plan(locks: Locks) -> Plan:
        held = locks[seat.ref]
        if held.closed:
            raise WalletError(Code.ACCOUNT_CLOSED, f"The seat {seat_ref} was already released.")
        legs = [Leg(seat.ref, wallet.ref, held.balance)] if held.balance > 0 else []
        return Plan(legs, close={seat.ref}, allow_empty=True)

    return execute(
        key=f"seat_release:{seat_ref}",
        kind=JournalKind.SEAT_RELEASE,
        currency=currency,
        accounts=[seat, wallet],
        meta={**(meta or {}), "seat": seat_ref, "user": owner_id},
        plan=plan,
        created_by_id=owner_id,
    )


def seat_transfers(settlement: Any, seat_refs: Sequence[str]) -> list[tuple[str, str, int]]:
    """Map the seat-index transfers of ``games.engine.points21.settle`` to seat refs."""
    return [(seat_refs[t.payer], seat_refs[t.payee], t.points) for t in settlement.transfers]


def settle_deal(
    table_ref: str,
    deal_number: int,
    transfers: Sequence[tuple[str, str, int]],
    *,
    point_value: int,
    rake_percent: int | Decimal | Fraction,
    currency: Currency = Currency.INR,
    variant: str = "points21",
    meta: Mapping[str, Any] | None = None,
) -> Journal:
    """Settle one points deal between seats (R-21-7, R-PTS-3, R-MONEY-3).

    ``transfers`` are (paying seat ref, receiving seat ref, points), e.g. the pairwise
    transfers of ``games.engine.points21.settle`` mapped to seat refs. Each seat's money
    moves by its net points × ``point_value``; every seat that comes out ahead pays
    ``floor(gain × rake_percent / 100)`` to the house. The money moves from the seats that
    lose to the seats that win (losers in the order they first appear paying winners in the
    same order), so no seat ever dips below zero mid-journal; the pairwise points are kept in
    the journal's meta.
    """
    check_amount(point_value, what="point value")
    _check_percent(rake_percent)
    if isinstance(deal_number, bool) or not isinstance(deal_number, int) or deal_number < 0:
        raise WalletError(Code.BAD_REQUEST, f"The deal number must be 0 or more, not {deal_number!r}.")
    net: dict[str, int] = {}
    for payer, payee, points in transfers:
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise WalletError(Code.BAD_AMOUNT, f"Points must be whole and 0 or more; got {points!r}.")
        if payer == payee:
            raise WalletError(Code.BAD_REQUEST, f"{payer} cannot pay itself.")
        net[payer] = net.get(payer, 0) - points * point_value
        net[payee] = net.get(payee, 0) + points * point_value
    seats = list(net)
    house = house_spec(table_ref, currency)
    # The seats are locked by ref alone: a seat never held is not_found (no read before the lock).
    specs = [held_seat_spec(ref, currency) for ref in seats]

    # The legs follow from the points alone (not from the locked balances): known before the lock.
    owed = {ref: -net[ref] for ref in seats if net[ref] < 0}  # what each losing seat pays
    due = {ref: net[ref] for ref in seats if net[ref] > 0}  # what each winning seat gets
    legs: list[Leg] = []
    winners = iter(list(due))
    winner = next(winners, None)
    for loser in owed:
        while owed[loser] > 0 and winner is not None:
            amount = min(owed[loser], due[winner])
            legs.append(Leg(loser, winner, amount))
            owed[loser] -= amount
            due[winner] -= amount
            if due[winner] == 0:
                winner = next(winners, None)
    for ref in seats:
        rake = rake_for(net[ref], rake_percent) if net[ref] > 0 else 0
        if rake:
            legs.append(Leg(ref, house.ref, rake))

    def plan(locks: Locks) -> Plan:
        for ref in seats:
            if locks[ref].closed:
                raise WalletError(Code.ACCOUNT_CLOSED, f"The seat {ref} was already released.")
        return Plan(legs, allow_empty=True)

    return execute(
        key=f"deal:{table_ref}:{deal_number}",
        kind=JournalKind.DEAL_SETTLEMENT,
        currency=currency,
        accounts=[*specs, house],
        meta={
            **(meta or {}),
            "table": table_ref,
            "deal": deal_number,
            "point_value": point_value,
            "rake_percent": _percent_meta(rake_percent),
            "variant": variant,
            "transfers": [[payer, payee, points] for payer, payee, points in transfers],
        },
        plan=plan,
        known=Known(legs, open=seats),
    )
