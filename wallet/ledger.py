"""The one write path of the ledger.

Every movement of money is a *journal* of *transfers*; each transfer debits one account and
credits another, so debits equal credits by construction (TigerBeetle, pgledger). A posting:

1. locks the accounts it touches with one ``SELECT ... ORDER BY id FOR UPDATE`` (a fixed
   order, so two postings can never deadlock on each other's accounts), creating missing
   accounts first;
2. runs the caller's plan under the locks: business checks (pool full, balance) and amounts
   computed from the locked balances;
3. writes the journal, its transfers and entries and the new cached balances and versions
   (one statement on PostgreSQL, see ``wallet.sql``). The journal insert claims the
   idempotency key with ``ON CONFLICT (key) DO NOTHING``: when the key is already taken
   nothing at all is written, and the original journal is returned if the request is the
   same (same content hash) or ``idempotency_conflict`` raised if it differs. When the plan
   refuses (a ``WalletError``), the key is looked up too, so the retry of a posting that
   succeeded returns it even if the same request would now be refused (pool now full).

Every entry records the account's balance and version after it, and ``UNIQUE(account,
version)`` makes a lost update impossible to miss. Journals, transfers and entries are
append-only (database triggers); corrections are reversing journals (:func:`reverse`).

Amounts are integers in hundredths of the currency unit (paise for INR, R-MONEY-1).
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any, NamedTuple

import orjson
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounts.text import visible
from hotpath import statements
from wallet import sql
from wallet.errors import Code, WalletError
from wallet.models import Account, AccountKind, Currency, Journal, JournalKind
from wallet.money import money

#: The largest amount one transfer may move: ₹10 lakh crore. Far above any real posting and
#: far below BIGINT, so sums of many of them cannot overflow.
MAX_AMOUNT = 10**15

#: Default number of house and cashier shards (settings ``WALLET_HOUSE_SHARDS``,
#: ``WALLET_CASHIER_SHARDS``). See docs/WALLET.md, "Hot accounts".
DEFAULT_SHARDS = 16

Meta = Mapping[str, Any]


# --- accounts -------------------------------------------------------------------------------


class AccountSpec(NamedTuple):
    """An account named by what it is; created on first use, unless ``held`` (a seat named by
    its ref alone: it must exist already, its owner is not checked, and a missing one is
    ``not_found``). (The hot path's values are named tuples: a third of a frozen dataclass's
    cost to make.)"""

    kind: AccountKind
    currency: Currency
    ref: str
    owner_id: int | None = None
    held: bool = False

    @property
    def allow_negative(self) -> bool:
        return self.kind == AccountKind.CASHIER


def user_spec(user_id: int, currency: Currency = Currency.INR) -> AccountSpec:
    return AccountSpec(AccountKind.USER, currency, f"user:{user_id}", user_id)


def withdrawal_hold_spec(user_id: int, currency: Currency = Currency.INR) -> AccountSpec:
    return AccountSpec(AccountKind.WITHDRAWAL_HOLD, currency, f"withdrawal_hold:{user_id}", user_id)


def tax_spec(currency: Currency = Currency.INR) -> AccountSpec:
    """The tax withheld from players' winnings, owed to the tax authority (R-PROT-8)."""
    return AccountSpec(AccountKind.TAX, currency, "tax:0")


def pool_spec(pool_ref: str, currency: Currency = Currency.INR) -> AccountSpec:
    _check_ref(pool_ref, "pool:")
    return AccountSpec(AccountKind.POOL, currency, pool_ref)


def seat_spec(seat_ref: str, owner_id: int, currency: Currency = Currency.INR) -> AccountSpec:
    _check_ref(seat_ref, "seat:")
    return AccountSpec(AccountKind.SEAT, currency, seat_ref, owner_id)


def held_seat_spec(seat_ref: str, currency: Currency = Currency.INR) -> AccountSpec:
    """A seat that money is held on already, whoever owns it (a deal's settlement)."""
    _check_ref(seat_ref, "seat:")
    return AccountSpec(AccountKind.SEAT, currency, seat_ref, held=True)


def house_spec(table_ref: str, currency: Currency = Currency.INR) -> AccountSpec:
    """The house shard that takes the rake of ``table_ref`` (a stable hash of the ref)."""
    shards = int(getattr(settings, "WALLET_HOUSE_SHARDS", DEFAULT_SHARDS))
    shard = zlib.crc32(table_ref.encode()) % shards
    return AccountSpec(AccountKind.HOUSE, currency, f"house:{shard}")


def cashier_spec(user_id: int, currency: Currency = Currency.INR) -> AccountSpec:
    """The cashier shard that a user's deposits and withdrawals go through."""
    shards = int(getattr(settings, "WALLET_CASHIER_SHARDS", DEFAULT_SHARDS))
    return AccountSpec(AccountKind.CASHIER, currency, f"cashier:{user_id % shards}")


def _check_ref(ref: str, prefix: str) -> None:
    if not ref.startswith(prefix) or len(ref) == len(prefix) or len(ref) > 120:
        raise WalletError(Code.BAD_REQUEST, f"{ref!r} is not a valid reference: expected {prefix}<id>.")


def get_account(spec: AccountSpec) -> Account | None:
    """The account named by ``spec``, or None if nothing was ever posted to it."""
    return Account.objects.filter(ref=spec.ref, currency=spec.currency).first()


def balance_of(spec: AccountSpec) -> int:
    """The cached balance of an account (0 for an account never used)."""
    [balance] = balances_of(spec)
    return balance


def balances_of(*specs: AccountSpec) -> list[int]:
    """The cached balances of several accounts, in the order given (0 for one never used), in
    one query: a wallet page shows a player's rupees, chips and held withdrawals together."""
    if not specs:
        return []
    wanted = Q()
    for spec in specs:
        wanted |= Q(ref=spec.ref, currency=spec.currency)
    rows = Account.objects.filter(wanted).values_list("ref", "currency", "balance")
    found = {(ref, currency): balance for ref, currency, balance in rows}
    return [found.get((spec.ref, spec.currency), 0) for spec in specs]


@dataclass
class Locked:
    """An account row locked for this transaction; ``balance`` and ``version`` move as legs apply."""

    id: int
    kind: str
    ref: str
    owner_id: int | None
    balance: int
    version: int
    allow_negative: bool
    closed: bool
    touched: bool = False
    close: bool = False
    reopen: bool = False


class Locks(dict[str, Locked]):
    """The locked accounts by ref, the rows of the reads run right after the lock and of the
    statements run before it."""

    reads: list[list[tuple[Any, ...]]]
    before: list[list[tuple[Any, ...]]]


class Then(list[sql.Read]):
    """Statements of the caller's that run in a posting's transaction right after its write, in
    the write's round trip on PostgreSQL, and only when the posting writes its journal (not on
    a refusal, nor on a retry answered from the ledger: ``journal.replayed``). They may name the
    new journal by its key (``statements.IdOf(Journal, "key", key)``). ``rows`` holds what each
    returned.

    The caller must hold a lock under which nobody else can take the posting's key (the cashier
    holds the deposit's row, the withdrawal's, or the player's): a key found taken at the write,
    with statements to follow, fails the write rather than run them without their journal."""

    rows: list[list[tuple[Any, ...]]]


def lock(
    currency: Currency,
    specs: Iterable[AccountSpec],
    reads: Sequence[sql.Read] = (),
    before: Sequence[sql.Read] = (),
) -> Locks:
    """Lock the accounts named by ``specs`` in id order (one query), creating missing ones.

    ``reads`` (SQL, params) run after the lock is granted, in the same round trip on
    PostgreSQL; their rows are in ``locks.reads``. ``before`` run first, once, in the same round
    trip (a lock the caller takes before the accounts'); their rows are in ``locks.before``.
    Must run inside ``transaction.atomic()``.
    """
    wanted = {spec.ref: spec for spec in specs}
    for spec in wanted.values():
        if spec.currency != currency:
            raise WalletError(Code.BAD_REQUEST, "All transfers of one journal must be in one currency.")
    locks = _select_for_update(currency, list(wanted), reads, before=before)
    first = locks.before
    missing = [spec for ref, spec in wanted.items() if ref not in locks]
    never_held = [spec.ref for spec in missing if spec.held]
    if never_held:
        raise WalletError(Code.NOT_FOUND, f"No money is held for {', '.join(never_held)}.")
    if missing:
        # Create them, lock again and read again (the reads must come after every lock): one
        # round trip on PostgreSQL.
        new = [(spec.kind, spec.currency, spec.ref, spec.owner_id, spec.allow_negative) for spec in missing]
        locks = _select_for_update(currency, list(wanted), reads, create=new)
        locks.before = first
    for ref, spec in wanted.items():
        row = locks[ref]
        if row.kind != spec.kind or (spec.owner_id is not None and row.owner_id != spec.owner_id):
            raise WalletError(Code.WRONG_ACCOUNT, f"{ref} is not a {spec.kind} account of that owner.")
    return locks


def _select_for_update(
    currency: str,
    refs: list[str],
    reads: Sequence[sql.Read],
    create: Sequence[sql.NewAccount] = (),
    before: Sequence[sql.Read] = (),
) -> Locks:
    rows: list[tuple[Any, ...]] = []
    results: list[list[tuple[Any, ...]]] = []
    if refs:
        now = timezone.now() if create else None
        rows, results = sql.select_for_update(currency, refs, reads, create=create, now=now, before=before)
    locks = Locks(
        (
            row[2],
            Locked(
                id=row[0],
                kind=row[1],
                ref=row[2],
                owner_id=row[3],
                balance=row[4],
                version=row[5],
                allow_negative=bool(row[6]),
                closed=bool(row[7]),
            ),
        )
        for row in rows
    )
    locks.before, locks.reads = results[: len(before)], results[len(before) :]
    return locks


# --- amounts --------------------------------------------------------------------------------


def check_amount(amount: object, *, what: str = "amount") -> int:
    """Return ``amount`` if it is a whole number of paise in (0, MAX_AMOUNT]; else raise bad_amount."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise WalletError(
            Code.BAD_AMOUNT,
            f"The {what} must be a whole number of paise, not {type(amount).__name__} {amount!r}.",
        )
    if amount <= 0:
        raise WalletError(Code.BAD_AMOUNT, f"The {what} must be more than zero; got {amount} paise.")
    if amount > MAX_AMOUNT:
        raise WalletError(Code.BAD_AMOUNT, f"The {what} of {amount} paise is too big.")
    return amount


# --- postings -------------------------------------------------------------------------------


class Leg(NamedTuple):
    """One transfer of a plan: ``amount`` from the ``debit`` account to the ``credit`` account (refs)."""

    debit: str
    credit: str
    amount: int


@dataclass
class Plan:
    """What a posting writes, decided under the locks."""

    legs: list[Leg]
    close: set[str] = field(default_factory=set)
    reopen: set[str] = field(default_factory=set)
    allow_empty: bool = False


#: The canonical text's encoder: the standard library's, built once.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)
_SCALARS = frozenset({str, int, bool, type(None)})


def canonical_json(value: Any) -> str:
    """The one text of a JSON value: keys sorted, no spaces, ASCII only (what is hashed).

    The standard library's ``json.dumps(value, sort_keys=True, separators=(",", ":"),
    ensure_ascii=True, default=str)``, byte for byte: stored hashes depend on it. A value of
    plain strings, integers, booleans and None in dicts and lists (every posting's meta) is
    written by orjson, a sixth of the cost, when its text is the same: ASCII without DEL (which
    ``json`` escapes and orjson does not); anything else (a float, a non-ASCII string, a
    subclass) by ``json``.
    """
    if _plain(value):
        try:
            text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:  # an integer beyond 64 bits
            pass
        else:
            if text.isascii() and b"\x7f" not in text:
                return text.decode()
    return _CANONICAL.encode(value)


def _plain(value: Any) -> bool:
    """Whether ``value`` is made of the types that orjson and ``json`` write alike."""
    kind = type(value)
    if kind in _SCALARS:
        return True
    if kind is dict:
        return all(type(name) is str and _plain(item) for name, item in value.items())
    if kind is list or kind is tuple:
        return all(_plain(item) for item in value)
    return False


#: The canonical text of each kind and currency (a string), as content_hash needs them.
_QUOTED: dict[str, str] = {}


def _quoted(name: str) -> str:
    text = _QUOTED.get(name)
    if text is None:
        text = canonical_json(name)
        if len(_QUOTED) < 256:  # (kinds and currencies: a few dozen)
            _QUOTED[name] = text
    return text


def content_hash(kind: str, currency: str, meta: Meta | str, legs: Sequence[Leg] | None = None) -> str:
    """sha256 of what was asked: same key and same hash is a retry; a different hash is a conflict.

    The hash of the canonical text of ``{"currency", "kind", "legs", "meta"}``. ``meta`` may be
    given as its canonical text already (the posting stores that text too), which is spliced
    in where its keys sort, so it is encoded once.
    """
    meta_text = meta if isinstance(meta, str) else canonical_json(meta)
    text = '{"currency":' + _quoted(currency) + ',"kind":' + _quoted(kind)
    if legs is not None:
        text += ',"legs":' + canonical_json([[leg.debit, leg.credit, leg.amount] for leg in legs])
    text += ',"meta":' + meta_text + "}"
    return hashlib.sha256(text.encode()).hexdigest()


def execute(
    *,
    key: str,
    kind: JournalKind,
    currency: Currency,
    accounts: Iterable[AccountSpec],
    meta: Meta,
    plan: Callable[[Locks], Plan],
    legs_for_hash: Sequence[Leg] | None = None,
    created_by_id: int | None = None,
    reverses_id: int | None = None,
    reads: Sequence[sql.Read] = (),
    before: Sequence[sql.Read] = (),
    vet: Callable[[list[list[tuple[Any, ...]]]], None] | None = None,
    then: Then | None = None,
    commit: bool = False,
) -> Journal:
    """Lock ``accounts``, run ``plan`` under the locks and write it with ``key``, atomically.

    The building block of every operation. ``meta`` must describe the request completely: it
    is what a retry is compared on. ``reads`` are queries the plan needs, run after the lock
    (``locks.reads``). ``before`` are the caller's statements that run before the lock, in its
    round trip (a lock of the caller's own, taken first as it would be in a round trip of its
    own, and the reads under it); ``vet`` is given their rows as soon as they are back, before
    the key is looked at, and a ``WalletError`` it raises is the answer as it stands (nothing
    written). ``then`` are the caller's statements that go with the write (:class:`Then`).
    With ``commit``, a caller that owns the transaction (``statements.transaction``) and runs
    nothing after this call has the write carry its ``COMMIT``.
    Returns the new journal, or the original one on a retry.
    """
    if not key or len(key) > 200:
        raise WalletError(Code.BAD_REQUEST, "An idempotency key of 1 to 200 characters is required.")
    meta_json = canonical_json(meta)
    digest = content_hash(kind, currency, meta_json, legs_for_hash)
    row = sql.JournalRow(
        key=key,
        kind=kind,
        currency=currency,
        meta_json=meta_json,
        content_hash=digest,
        created_at=timezone.now(),
        created_by_id=created_by_id,
        reverses_id=reverses_id,
    )
    # No savepoint: a refusal (WalletError) is raised after the block, when nothing but empty
    # accounts was written, so an enclosing transaction stays usable; any other error marks
    # the enclosing transaction for rollback, as it must.
    refusal: WalletError | None = None
    existing: Journal | None = None
    journal_id: int | None = None
    key_free = stands = False
    # Nothing runs in this block after the write: when it owns the transaction, the write
    # carries the COMMIT in its round trip (wallet.sql).
    with statements.transaction() as owner:
        try:
            # The key is read with the lock, in its round trip: a retry is answered at once,
            # with no plan and no write (the lock waited for the original, if it was running).
            locks = lock(currency, accounts, [*reads, (_EXISTING, [key])], before)
            *locks.reads, taken = locks.reads
            if vet is not None:
                stands = True  # a refusal of the caller's is the answer, whatever the key
                vet(locks.before)
                stands = False
            if taken:
                existing, refusal = _existing_of(taken, digest)
            else:
                key_free = True
                legs, entries, updates = _apply(plan(locks), locks, currency)
        except WalletError as error:
            # A plan refused with the key read free under the lock, or the caller's vet, is
            # refused as it stands; a lock refused before the key was read looks for it first
            # (a retry of an answer).
            existing, refusal = (None, None) if key_free or stands else _existing(key, digest)
            refusal = None if existing is not None else refusal or error
        else:
            if existing is None and refusal is None:  # the key is free: write
                journal_id, followed = sql.write(
                    row, legs, entries, updates, commit=owner or commit, then=then or ()
                )
                if then is not None:
                    then.rows = followed
                if journal_id is None:  # taken a moment ago
                    existing, refusal = _existing(key, digest)
                    if existing is None and refusal is None:  # pragma: no cover
                        raise AssertionError(f"ledger bug: key {key!r} both taken and missing")
        if owner and journal_id is None:
            # Nothing to keep (a retry answered, a refusal; an account the lock created is
            # created again when it is used): the transaction ends without a COMMIT, whose
            # flush of the log the other postings would wait for.
            statements.roll_back()
    if existing is not None:
        return existing
    if refusal is not None:
        raise refusal
    if journal_id is None:  # pragma: no cover - unreachable: no refusal means a new journal
        raise AssertionError("ledger bug: no journal written")
    return _journal(
        journal_id, key, kind, currency, dict(meta), digest, row.created_at, created_by_id, reverses_id
    )


def post(
    key: str,
    kind: JournalKind | str,
    transfers: Sequence[tuple[Account | AccountSpec, Account | AccountSpec, int]],
    *,
    meta: Meta | None = None,
    created_by: Any = None,
) -> Journal:
    """Post ``transfers`` (debit, credit, amount) as one journal, atomically and idempotently.

    Same ``key`` and same content returns the original journal; same key and different
    content raises ``idempotency_conflict``. Raises ``insufficient_funds`` rather than take an
    account other than the cashier below zero.
    """
    kind = JournalKind(kind)
    if not transfers:
        raise WalletError(Code.BAD_REQUEST, "A journal needs at least one transfer.")
    specs: dict[str, AccountSpec] = {}
    legs: list[Leg] = []
    currencies = set()
    for debit, credit, amount in transfers:
        debit_spec, credit_spec = spec_of(debit), spec_of(credit)
        specs[debit_spec.ref] = debit_spec
        specs[credit_spec.ref] = credit_spec
        currencies |= {debit_spec.currency, credit_spec.currency}
        legs.append(Leg(debit_spec.ref, credit_spec.ref, check_amount(amount)))
    if len(currencies) != 1:
        raise WalletError(Code.BAD_REQUEST, "All transfers of one journal must be in one currency.")
    (currency,) = currencies
    meta = dict(meta or {})
    return execute(
        key=key,
        kind=kind,
        currency=Currency(currency),
        accounts=specs.values(),
        meta=meta,
        legs_for_hash=legs,
        plan=lambda _locks: Plan(legs),
        created_by_id=getattr(created_by, "pk", None),
    )


def spec_of(account: Account | AccountSpec) -> AccountSpec:
    """The spec naming an existing account."""
    if isinstance(account, AccountSpec):
        return account
    return AccountSpec(AccountKind(account.kind), Currency(account.currency), account.ref, account.owner_id)


def reverse(journal: Journal, reason: str, by_user: Any) -> Journal:
    """Correct ``journal`` with a new journal moving every transfer back (staff only, once).

    The reversal may take an account back to zero but never below it; a closed account that
    the reversal credits (a paid-out pool) is reopened.
    """
    if not getattr(by_user, "is_staff", False):
        raise WalletError(Code.NOT_STAFF, "Only staff may reverse a journal.")
    if not visible(reason):
        raise WalletError(Code.BAD_REQUEST, "A reversal needs a reason.")
    if journal.kind == JournalKind.REVERSAL:
        raise WalletError(Code.BAD_REQUEST, "A reversal cannot itself be reversed; post a new journal.")
    if journal.kind in (
        JournalKind.WITHDRAWAL_HOLD,
        JournalKind.WITHDRAWAL_PAID,
        JournalKind.WITHDRAWAL_RELEASED,
    ):
        raise WalletError(
            Code.BAD_REQUEST,
            "A withdrawal's journals are never reversed (the withdrawal would disagree with the "
            "ledger); correct a paid withdrawal with a compensating entry.",
        )
    original = list(journal.transfers.select_related("debit", "credit").order_by("-id"))
    specs = {
        account.ref: spec_of(account)
        for transfer in original
        for account in (transfer.debit, transfer.credit)
    }
    # Undo the transfers last-first, so every intermediate balance is one that existed before.
    legs = [Leg(debit=t.credit.ref, credit=t.debit.ref, amount=t.amount) for t in original]

    def plan(locks: Locks) -> Plan:
        return Plan(legs, reopen={leg.credit for leg in legs if locks[leg.credit].closed}, allow_empty=True)

    return execute(
        key=f"reversal:{journal.key}",
        kind=JournalKind.REVERSAL,
        currency=Currency(journal.currency),
        accounts=specs.values(),
        meta={"reverses": journal.key, "reason": reason.strip()},
        plan=plan,
        created_by_id=by_user.pk,
        reverses_id=journal.pk,
    )


# --- the writes -----------------------------------------------------------------------------


_EXISTING = (
    'SELECT id, "key", kind, currency, meta, content_hash, created_at, created_by_id, reverses_id '
    'FROM wallet_journal WHERE "key" = %s'
)


def _existing(key: str, digest: str) -> tuple[Journal | None, WalletError | None]:
    """The journal holding ``key`` if it is the same request, or the conflict if it is not."""
    return _existing_of(sql.fetch(_EXISTING, [key]), digest)


def _existing_of(rows: list[tuple[Any, ...]], digest: str) -> tuple[Journal | None, WalletError | None]:
    """:func:`_existing` from the rows of its read (:data:`_EXISTING`)."""
    if not rows:
        return None, None
    journal_id, key, kind, currency, meta, stored_hash, created_at, created_by_id, reverses_id = rows[0]
    if stored_hash != digest:
        message = f"The key {key!r} was already used for a different request ({kind})."
        return None, WalletError(Code.IDEMPOTENCY_CONFLICT, message)
    if isinstance(meta, str):
        meta = json.loads(meta)
    if isinstance(created_at, str):  # SQLite: naive UTC text
        created_at = parse_datetime(created_at)
    if created_at is not None and timezone.is_naive(created_at):
        created_at = created_at.replace(tzinfo=UTC)
    journal = _journal(
        journal_id, key, kind, currency, meta, stored_hash, created_at, created_by_id, reverses_id
    )
    journal.replayed = True
    return journal, None


def _journal(
    journal_id: int,
    key: str,
    kind: str,
    currency: str,
    meta: dict[str, Any],
    digest: str,
    created_at: Any,
    created_by_id: int | None,
    reverses_id: int | None,
) -> Journal:
    values = {
        "id": journal_id,
        "key": key,
        "kind": kind,
        "currency": currency,
        "meta": meta,
        "content_hash": digest,
        "created_at": created_at,
        "created_by_id": created_by_id,
        "reverses_id": reverses_id,
    }
    # The values are the model's already (meta a dict, an aware time): no conversion.
    return Journal.from_db(DEFAULT_DB_ALIAS, _JOURNAL_FIELDS, [values[name] for name in _JOURNAL_FIELDS])


#: Journal's columns in the order of its fields, as ``Model.from_db`` takes them.
_JOURNAL_FIELDS = [field.attname for field in Journal._meta.concrete_fields]


Written = tuple[list[tuple[int, int, int]], list[tuple[int, int, int, int, int]], list[sql.AccountUpdate]]


def _apply(plan: Plan, locks: Locks, currency: str = Currency.INR) -> Written:
    """Check the plan against the locked balances and compute its rows (nothing is written yet)."""
    if not plan.legs and not plan.allow_empty:
        raise WalletError(Code.BAD_REQUEST, "A journal needs at least one transfer.")
    for ref in plan.reopen:
        locks[ref].closed = False
        locks[ref].reopen = True
        locks[ref].touched = True
    legs: list[tuple[int, int, int]] = []
    entries: list[tuple[int, int, int, int, int]] = []
    for number, leg in enumerate(plan.legs, start=1):
        check_amount(leg.amount)
        if leg.debit == leg.credit:
            raise WalletError(Code.BAD_REQUEST, "A transfer needs two different accounts.")
        debit, credit = locks[leg.debit], locks[leg.credit]
        if credit.closed:
            raise WalletError(Code.ACCOUNT_CLOSED, f"{credit.ref} is closed and takes no more money.")
        if debit.balance - leg.amount < 0 and not debit.allow_negative:
            raise WalletError(Code.INSUFFICIENT_FUNDS, _insufficient(debit, leg.amount, currency))
        legs.append((debit.id, credit.id, leg.amount))
        for account, signed in ((debit, -leg.amount), (credit, leg.amount)):
            account.balance += signed
            account.version += 1
            account.touched = True
            entries.append((account.id, number, signed, account.balance, account.version))
    for ref in plan.close:
        account = locks[ref]
        if account.balance != 0:
            raise AssertionError(f"ledger bug: closing {ref} with balance {account.balance}")
        account.closed = True
        account.close = True
        account.touched = True
    updates = [
        sql.AccountUpdate(
            account.id, account.balance, account.version, 1 if account.close else 2 if account.reopen else 0
        )
        for account in locks.values()
        if account.touched
    ]
    return legs, entries, updates


def _insufficient(account: Locked, amount: int, currency: str = Currency.INR) -> str:
    have, need = money(account.balance, currency), money(amount, currency)
    if account.kind == AccountKind.USER:
        if currency == Currency.CHIPS:
            return f"You have {have}; this needs {need}. Top up your practice chips to play."
        return f"Your wallet balance is {have}; this needs {need}."
    return f"{account.ref} holds {have}; this needs {need}."
