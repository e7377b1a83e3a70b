"""The ledger's own SQL: one portable posting path, and PostgreSQL's fast path.

The posting path is the hot path of the whole site, so it skips the ORM: a posting is one
locking ``SELECT`` (followed by the reads its checks need) and the writes.

- **The portable path** runs on every database (SQLite and PostgreSQL alike): the lock, then
  the journal, its transfers, their entries and the balance updates as plain statements through
  Django's cursor.
- **PostgreSQL's fast path** (``WALLET_FAST_PATH``, on by default) does the same in fewer round
  trips: the lock is pipelined with the ``BEGIN`` and the reads, and the write is a single
  statement (data-modifying CTEs). Its statements run through ``statements.execute_many``, as
  the hot path of a move does: server-side prepared unless ``PREPARED_STATEMENTS`` is off.
  docs/PERFORMANCE.md ("The two posting paths") measures what it buys; the ledger's property
  tests run on both paths.

Queries still appear in ``connection.queries`` (and so in ``CaptureQueriesContext``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections

from hotpath import statements


class JournalRow(NamedTuple):
    key: str
    kind: str
    currency: str
    meta_json: str
    content_hash: str
    created_at: Any
    created_by_id: int | None
    reverses_id: int | None


class AccountUpdate(NamedTuple):
    id: int
    balance: int
    version: int
    state: int  # 0 unchanged, 1 close, 2 reopen


def fast() -> bool:
    """Whether postings take PostgreSQL's fast path (see the module's notes)."""
    return _on_postgresql() and bool(getattr(settings, "WALLET_FAST_PATH", True))


_vendors: dict[str, str] = {}


def _on_postgresql() -> bool:
    """Whether the default database is PostgreSQL: its kind, looked up once (a look-up of the
    thread's connection costs more than the rest of :func:`fast`)."""
    engine = settings.DATABASES[DEFAULT_DB_ALIAS]["ENGINE"]
    vendor = _vendors.get(engine)
    if vendor is None:
        vendor = _vendors[engine] = connections[DEFAULT_DB_ALIAS].vendor
    return vendor == "postgresql"


def fetch(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Run one statement of the ledger and return its rows."""
    return statements.execute(sql, params).rows


def bigints(values: Iterable[int]) -> str:
    """A PostgreSQL array literal of integers (cheaper to send than a list adapted value by value)."""
    return "{" + ",".join(map(str, map(int, values))) + "}"


def _columns(rows: Sequence[Sequence[int]], width: int) -> list[str]:
    """Each column of ``rows`` (``width`` integers each) as an array literal."""
    return [bigints(column) for column in zip(*rows, strict=True)] if rows else ["{}"] * width


def texts(values: Iterable[str]) -> str:
    """A PostgreSQL array literal of strings, each quoted."""
    quoted = ('"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"' for value in values)
    return "{" + ",".join(quoted) + "}"


# --- locking --------------------------------------------------------------------------------

_LOCK_PG = (
    "SELECT id, kind, ref, owner_id, balance, version, allow_negative, closed_at IS NOT NULL "
    "FROM wallet_account WHERE currency = %s AND ref = ANY(%s::text[]) ORDER BY id FOR UPDATE"
)


Read = statements.Statement

#: An account to create: kind, currency, ref, owner id, whether it may go below zero.
NewAccount = tuple[str, str, str, int | None, bool]


def select_for_update(
    currency: str,
    refs: list[str],
    reads: Sequence[Read] = (),
    *,
    create: Sequence[NewAccount] = (),
    now: Any = None,
    before: Sequence[Read] = (),
) -> tuple[list[tuple[Any, ...]], list[list[tuple[Any, ...]]]]:
    """Lock the accounts by ref in id order, then run ``reads``; return the lock's rows and the
    rows of each of ``before`` and ``reads``. ``before`` run first (a lock taken before the
    accounts'). With ``create``, those accounts are inserted (unless they exist), created at
    ``now``, after ``before`` and before the lock.

    PostgreSQL takes row locks; its fast path sends ``before``, the insert, the lock and the
    reads in one round trip (the server runs them in turn: the lock sees the new accounts, and
    the reads run after the lock is granted, so they see everything committed before it).
    SQLite holds the whole database for the transaction.
    """
    if fast():
        first = [*before, _create_pg(create, now)] if create else before
        answers = statements.execute_many([*first, (_LOCK_PG, [currency, texts(refs)]), *reads])
        lock = answers[len(first)]
        done = [answer.rows for answer in answers[: len(before)]]
        return lock.rows, done + [answer.rows for answer in answers[len(first) + 1 :]]
    done = [result.rows for result in statements.execute_many(before)] if before else []
    if create:
        _create_portable(create, now)
    placeholders = ", ".join(["%s"] * len(refs))
    for_update = " FOR UPDATE" if connections[DEFAULT_DB_ALIAS].features.has_select_for_update else ""
    rows = fetch(
        "SELECT id, kind, ref, owner_id, balance, version, allow_negative, closed_at IS NOT NULL "  # noqa: S608
        f"FROM wallet_account WHERE currency = %s AND ref IN ({placeholders}) ORDER BY id{for_update}",
        [currency, *refs],
    )
    return rows, done + [fetch(sql, params) for sql, params in reads]


_CREATE_PG = (
    "INSERT INTO wallet_account "
    "(kind, currency, ref, owner_id, allow_negative, balance, version, created_at) "
    "SELECT a.kind, a.currency, a.ref, a.owner_id, a.allow_negative, 0, 0, %s "
    "FROM unnest(%s::text[], %s::text[], %s::text[], %s::bigint[], %s::boolean[]) "
    "AS a(kind, currency, ref, owner_id, allow_negative) "
    "ON CONFLICT (ref, currency) DO NOTHING RETURNING id"
)


def _create_pg(rows: Sequence[NewAccount], now: Any) -> Read:
    owners = "{" + ",".join("NULL" if row[3] is None else str(int(row[3])) for row in rows) + "}"
    flags = "{" + ",".join("t" if row[4] else "f" for row in rows) + "}"
    columns = [texts(str(row[i]) for row in rows) for i in range(3)]
    return _CREATE_PG, [now, *columns, owners, flags]


def _create_portable(rows: Sequence[NewAccount], now: Any) -> None:
    """Insert accounts unless they exist (the fast path sends :func:`_create_pg` with its lock)."""
    conn = connections[DEFAULT_DB_ALIAS]
    values = ", ".join(["(%s, %s, %s, %s, %s, 0, 0, %s)"] * len(rows))
    created_at = conn.ops.adapt_datetimefield_value(now)
    with conn.cursor() as cursor:
        cursor.execute(
            "INSERT INTO wallet_account "  # noqa: S608 (only %s placeholders are formatted in)
            "(kind, currency, ref, owner_id, allow_negative, balance, version, created_at) "
            f"VALUES {values} ON CONFLICT (ref, currency) DO NOTHING",
            [value for row in rows for value in (*row, created_at)],
        )


# --- writing --------------------------------------------------------------------------------

_WRITE_PG = """
WITH j AS (
    INSERT INTO wallet_journal
        ("key", kind, currency, meta, content_hash, created_at, created_by_id, reverses_id)
    VALUES (%s, %s, %s, %s::jsonb, %s, %s, %s, %s)
    ON CONFLICT ("key") DO NOTHING
    RETURNING id
), t AS (
    INSERT INTO wallet_transfer (journal_id, debit_id, credit_id, amount, currency)
    SELECT j.id, leg.debit, leg.credit, leg.amount, %s
    FROM j, unnest(%s::bigint[], %s::bigint[], %s::bigint[]) WITH ORDINALITY AS leg(debit, credit, amount, n)
    ORDER BY leg.n
    RETURNING id
), numbered AS (
    SELECT id, row_number() OVER (ORDER BY id) AS n FROM t
), e AS (
    INSERT INTO wallet_entry (account_id, journal_id, transfer_id, amount, balance_after, version)
    SELECT side.account, (SELECT id FROM j), numbered.id, side.amount, side.balance, side.version
    FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[], %s::bigint[], %s::bigint[]) WITH ORDINALITY
        AS side(account, leg, amount, balance, version, n)
    JOIN numbered ON numbered.n = side.leg
    ORDER BY side.n
), u AS (
    UPDATE wallet_account AS a
    SET balance = acc.balance, version = acc.version,
        closed_at = CASE acc.state WHEN 1 THEN %s::timestamptz WHEN 2 THEN NULL ELSE a.closed_at END
    FROM j, unnest(%s::bigint[], %s::bigint[], %s::bigint[], %s::bigint[]) AS acc(id, balance, version, state)
    WHERE a.id = acc.id
    RETURNING a.id
)
SELECT CASE
    WHEN j.id IS NULL AND NOT %s::boolean THEN NULL  -- the key was taken: nothing written
    WHEN j.id IS NOT NULL AND moved.n = %s THEN j.id
    -- Not every account moved, or the key was taken with the caller's statements to follow:
    -- fail the statement, and so what is sent after it. (Not a constant, which the planner
    -- would fold, and fail, whatever the condition.)
    ELSE (CASE WHEN j.id IS NULL THEN 'ledger bug: the key taken under the caller''s lock (' || moved.n || ')'
        ELSE 'ledger bug: ' || moved.n || ' accounts updated' END)::bigint
END
FROM (SELECT count(*) AS n FROM u) AS moved LEFT JOIN j ON true
"""


def write(
    journal: JournalRow,
    legs: Sequence[tuple[int, int, int]],
    entries: Sequence[tuple[int, int, int, int, int]],
    accounts: Sequence[AccountUpdate],
    *,
    commit: bool = False,
    then: Sequence[Read] = (),
) -> tuple[int | None, list[list[tuple[Any, ...]]]]:
    """Insert the journal, its transfers and entries and move the balances, then run ``then``;
    return the journal's id (None if the key exists) and the rows of each of ``then``.

    ``legs``: (debit id, credit id, amount); ``entries``: (account id, leg number from 1,
    signed amount, balance after, version). When the key is already taken nothing is written,
    and with ``then`` to follow that is an error (``wallet.ledger.Then``). With ``commit`` (a
    caller that owns the transaction and runs nothing after the write), the fast path sends
    ``then`` and the ``COMMIT`` in the write's round trip; the portable path runs ``then`` and
    leaves the commit to the ``atomic`` block.
    """
    if fast():
        return _write_pg(journal, legs, entries, accounts, commit, then)
    journal_id = _write_portable(journal, legs, entries, accounts)
    if journal_id is None and then:
        raise AssertionError(f"ledger bug: the key taken under the caller's lock ({journal.key!r})")
    return journal_id, [result.rows for result in statements.execute_many(then)] if then else []


def _write_pg(
    journal: JournalRow,
    legs: Sequence[tuple[int, int, int]],
    entries: Sequence[tuple[int, int, int, int, int]],
    accounts: Sequence[AccountUpdate],
    commit: bool,
    then: Sequence[Read],
) -> tuple[int | None, list[list[tuple[Any, ...]]]]:
    params: list[Any] = [
        journal.key,
        journal.kind,
        journal.currency,
        journal.meta_json,
        journal.content_hash,
        journal.created_at,
        journal.created_by_id,
        journal.reverses_id,
        journal.currency,
        *_columns(legs, 3),
        *_columns(entries, 5),
        journal.created_at,
        *_columns([(account.id, account.balance, account.version, account.state) for account in accounts], 4),
        bool(then),
        len(accounts),
    ]
    # The statement itself fails if an account did not move, before anything can follow it.
    written, *followed = statements.execute_many([(_WRITE_PG, params), *then], commit=commit)
    ((journal_id,),) = written.rows
    return None if journal_id is None else int(journal_id), [result.rows for result in followed]


def _write_portable(
    journal: JournalRow,
    legs: Sequence[tuple[int, int, int]],
    entries: Sequence[tuple[int, int, int, int, int]],
    accounts: Sequence[AccountUpdate],
) -> int | None:
    created_at = connection.ops.adapt_datetimefield_value(journal.created_at)
    with connection.cursor() as cursor:
        cursor.execute(
            'INSERT INTO wallet_journal ("key", kind, currency, meta, content_hash, created_at, '
            "created_by_id, reverses_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
            'ON CONFLICT ("key") DO NOTHING RETURNING id',
            [
                journal.key,
                journal.kind,
                journal.currency,
                journal.meta_json,
                journal.content_hash,
                created_at,
                journal.created_by_id,
                journal.reverses_id,
            ],
        )
        row = cursor.fetchone()
        if row is None:
            return None
        journal_id = int(row[0])
        if legs:
            values = ", ".join(["(%s, %s, %s, %s, %s)"] * len(legs))
            params: list[Any] = []
            for debit, credit, amount in legs:
                params += [journal_id, debit, credit, amount, journal.currency]
            cursor.execute(
                "INSERT INTO wallet_transfer (journal_id, debit_id, credit_id, amount, currency) "  # noqa: S608
                f"VALUES {values} RETURNING id",
                params,
            )
            # The ids of one multi-row insert follow the order of its VALUES.
            transfer_ids = sorted(row[0] for row in cursor.fetchall())
            values = ", ".join(["(%s, %s, %s, %s, %s, %s)"] * len(entries))
            params = []
            for account_id, leg, amount, balance, version in entries:
                params += [account_id, journal_id, transfer_ids[leg - 1], amount, balance, version]
            cursor.execute(
                "INSERT INTO wallet_entry "  # noqa: S608 (only %s placeholders are formatted in)
                "(account_id, journal_id, transfer_id, amount, balance_after, version) "
                f"VALUES {values}",
                params,
            )
        if accounts:
            cases = " ".join(["WHEN %s THEN %s"] * len(accounts))
            sets = [f"balance = CASE id {cases} END", f"version = CASE id {cases} END"]
            params = [value for account in accounts for value in (account.id, account.balance)]
            params += [value for account in accounts for value in (account.id, account.version)]
            changing = [account for account in accounts if account.state]
            if changing:
                sets.append(
                    f"closed_at = CASE id {' '.join(['WHEN %s THEN %s'] * len(changing))} ELSE closed_at END"
                )
                for account in changing:
                    params += [account.id, created_at if account.state == 1 else None]
            ids = ", ".join(["%s"] * len(accounts))
            cursor.execute(
                f"UPDATE wallet_account SET {', '.join(sets)} WHERE id IN ({ids})",  # noqa: S608
                [*params, *(account.id for account in accounts)],
            )
            if cursor.rowcount != len(accounts):
                raise AssertionError(f"ledger bug: updated {cursor.rowcount} of {len(accounts)} accounts")
    return journal_id
