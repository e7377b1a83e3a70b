"""Statements sent to PostgreSQL in one round trip, through libpq's own pipeline.

A hot path (a move at a table, a posting of the ledger) sends a few statements that depend on
nothing the client computes in between: the ``BEGIN``, a lock, the reads that must follow it;
or the writes and the ``COMMIT``. :func:`run` sends them together and reads every answer
back, with libpq's pipeline mode (``psycopg.pq``) and psycopg's own adaptation
(``psycopg.adapt.Transformer``: the same dumpers and loaders as its cursors). A psycopg
cursor does the same through several layers of Python generators for each statement; on
loopback that machinery cost more CPU than the round trips it saved (docs/PERFORMANCE.md,
"What we tried"). Here it is one call into libpq per statement and one wait for the answers.

Each statement is prepared on the server the first time the connection sends it (a name per
SQL text and parameter types; the round trip's own ``BEGIN`` and ``COMMIT`` too, so the server
parses none of them again), unless ``prepare`` is off (behind a pooler that cannot keep
prepared statements). Waiting on the socket releases the GIL, so other threads run meanwhile.

This module imports psycopg only: the caller (``statements.execute_many``) keeps Django's side
of it (the connection, its errors, its query log).
"""

from __future__ import annotations

import re
import select
import weakref
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import abc, errors, pq
from psycopg.adapt import PyFormat, Transformer
from psycopg.types.numeric import Int8Dumper

#: What :func:`run` gives for each statement: its rows (none for a write without
#: ``RETURNING``) and the number of rows it changed or returned.
Answer = tuple[list[tuple[Any, ...]], int]

_PLACEHOLDER = re.compile(r"%[s%]")
_BEGIN, _COMMIT, _ROLLBACK = b"BEGIN", b"COMMIT", b"ROLLBACK"
#: Around a statement's first run, when its plan is made (a generic plan, kept for the
#: connection): no sequential scan where an index can serve. The hot paths read and lock a
#: handful of rows by key; planned while a table is a few pages (a new site: the ledger's lock
#: with 400 to 1,500 accounts), they scanned the whole table at every run, until the server
#: re-planned them (after a VACUUM or an ANALYZE of the table, with its own settings: docs/WALLET.md).
#: If the round trip fails, its transaction (or the implicit one up to the sync) takes the setting
#: back with it.
_INDEXES_ONLY, _ANY_SCAN = b"SET enable_seqscan = off", b"RESET enable_seqscan"
_OK = (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK)


class _Session:
    """What one connection keeps: the adaptation context and the statements it has prepared."""

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        # A cursor is only the adaptation context here (it never executes): the connection's
        # adapters, with one type for every integer, so a statement is prepared once, not once
        # per width of its numbers.
        self.context = psycopg.Cursor(connection)
        self.context.adapters.register_dumper(int, Int8Dumper)
        # One transformer for every round trip, as a cursor keeps one for all its queries: the
        # dumpers and loaders it has looked up stay with it.
        self.adapt = Transformer.from_context(self.context)
        self.prepared: dict[tuple[bytes, tuple[int, ...]], bytes] = {}


_sessions: weakref.WeakKeyDictionary[psycopg.Connection[Any], _Session] = weakref.WeakKeyDictionary()
_queries: dict[str, bytes] = {}


def _query(sql: str) -> bytes:
    """``sql`` with psycopg's ``%s`` placeholders numbered as the server wants them (``$1``...)."""
    found = _queries.get(sql)
    if found is None:
        number = 0

        def place(match: re.Match[str]) -> str:
            nonlocal number
            if match.group() == "%%":
                return "%"
            number += 1
            return f"${number}"

        found = _queries[sql] = _PLACEHOLDER.sub(place, sql).encode()
    return found


def run(
    connection: psycopg.Connection[Any],
    statements: Sequence[tuple[str, Sequence[Any]]],
    *,
    prepare: bool = True,
    begin: bool = False,
    commit: bool = False,
    rollback: bool = False,
) -> list[Answer]:
    """Send ``statements`` (SQL with ``%s`` placeholders, and their values) in one round trip,
    after a ``BEGIN`` if ``begin`` and before a ``COMMIT`` if ``commit``, and return each
    statement's answer.

    The server runs them one after the other, each with its own snapshot. If one fails, the
    ones after it do not run (nor the ``COMMIT``) and its error is raised, as psycopg raises
    it; a transaction it was in is then aborted, for its owner to roll back.
    """
    pgconn = connection.pgconn
    if pgconn.status != pq.ConnStatus.OK:
        raise psycopg.OperationalError("the connection is closed")
    session = _sessions.get(connection)
    if session is None:
        session = _sessions[connection] = _Session(connection)
    adapt = session.adapt
    # Every value is adapted before anything is sent: a value PostgreSQL cannot take (a NUL in
    # a text) raises here, with nothing sent and the connection as it was.
    dumped = []
    for sql, values in statements:
        params = adapt.dump_sequence(values, [PyFormat.AUTO] * len(values))
        dumped.append((_query(sql), params, adapt.types or (), adapt.formats))
    # What each answer of the pipeline is, in order: a statement's index; None for a command of
    # the round trip's own (BEGIN, COMMIT, a setting); for a PREPARE, its key (so that a failed
    # one is not taken as prepared).
    sent: list[tuple[bytes, tuple[int, ...]] | int | None] = []
    # A statement prepared now gets its plan at its first run: planned for its indexes.
    planning = prepare and any((query, types) not in session.prepared for query, _, types, _ in dumped)
    # Commands of the round trip's own, before and after the statements.
    first = [command for command, wanted in ((_BEGIN, begin), (_INDEXES_ONLY, planning)) if wanted]
    last = [
        command
        for command, wanted in ((_ANY_SCAN, planning), (_COMMIT, commit), (_ROLLBACK, rollback))
        if wanted
    ]
    pgconn.enter_pipeline_mode()
    try:
        for command in first:
            _send(pgconn, session, sent, command, None, (), None, prepare, None)
        for index, (query, params, types, formats) in enumerate(dumped):
            _send(pgconn, session, sent, query, params, types, formats, prepare, index)
        for command in last:
            _send(pgconn, session, sent, command, None, (), None, prepare, None)
        pgconn.pipeline_sync()
        results = _answers(pgconn)
    except BaseException:
        # Left in the middle of the pipeline (a lost connection, an interrupted wait): what the
        # server has done is unknown, so the connection is closed and its owner opens another.
        connection.close()
        raise
    pgconn.exit_pipeline_mode()  # every answer up to the sync is read
    return _read(connection, session, adapt, sent, results, len(statements))


def _send(
    pgconn: pq.abc.PGconn,
    session: _Session,
    sent: list[tuple[bytes, tuple[int, ...]] | int | None],
    query: bytes,
    params: Sequence[Any] | None,
    types: tuple[int, ...],
    formats: Sequence[Any] | None,
    prepare: bool,
    answer: int | None,
) -> None:
    """Queue one statement (``answer``: its index, or None for a command of the round trip's own)
    and note each answer to come in ``sent``. Prepared, the statement is parsed by the server
    once for the connection, the round trip's own commands (``BEGIN``, ``COMMIT``) included."""
    if not prepare:
        pgconn.send_query_params(query, params, types or None, formats)
    else:
        key = (query, types)
        name = session.prepared.get(key)
        if name is None:
            name = session.prepared[key] = b"pgpipe_%d" % len(session.prepared)
            pgconn.send_prepare(name, query, types or None)
            sent.append(key)
        pgconn.send_query_prepared(name, params, formats)
    sent.append(answer)


def _read(
    connection: psycopg.Connection[Any],
    session: _Session,
    adapt: abc.Transformer,
    sent: list[tuple[bytes, tuple[int, ...]] | int | None],
    results: list[pq.abc.PGresult],
    count: int,
) -> list[Answer]:
    answers: list[Answer] = [([], 0)] * count
    failure: psycopg.Error | None = None
    for what, result in zip(sent, results, strict=True):
        status = result.status
        if status not in _OK:
            if isinstance(what, tuple):  # a PREPARE that did not run (or failed): not prepared
                session.prepared.pop(what, None)
            if failure is None and status != pq.ExecStatus.PIPELINE_ABORTED:
                failure = errors.error_from_result(result, encoding=connection.info.encoding)
            continue
        if isinstance(what, int):
            if status == pq.ExecStatus.TUPLES_OK:
                adapt.set_pgresult(result)
                rows = adapt.load_rows(0, result.ntuples, tuple)
                answers[what] = (rows, len(rows))
            else:
                answers[what] = ([], result.command_tuples or 0)
    if failure is not None:
        raise failure
    return answers


def _answers(pgconn: pq.abc.PGconn) -> list[pq.abc.PGresult]:
    """Flush what was sent and read every result up to the pipeline's sync."""
    fileno = pgconn.socket
    while pgconn.flush():
        _wait(fileno, select.POLLOUT)
    results: list[pq.abc.PGresult] = []
    while True:
        pgconn.consume_input()
        ended = False
        while not pgconn.is_busy():
            result = pgconn.get_result()
            if result is None:  # the end of one statement's results (twice: nothing more yet)
                if ended:
                    break
                ended = True
                continue
            ended = False
            if result.status == pq.ExecStatus.PIPELINE_SYNC:
                return results
            results.append(result)
        if pgconn.status != pq.ConnStatus.OK:
            raise psycopg.OperationalError("the connection was lost")
        _wait(fileno, select.POLLIN)


def _wait(fileno: int, event: int) -> None:
    """Block (without the GIL) until the socket is ready for ``event``."""
    poller = select.poll()
    poller.register(fileno, event)
    poller.poll()
