"""What a websocket client may ask of a table, checked and applied at most once per action id.

A client action is ``{"id": "<client id>", "type": "discard", "card": "7H"}``. :func:`check`
refuses malformed ones without touching the database. :func:`perform` applies a well-formed
one through :mod:`games.services` and records the answer in an :class:`ActionReceipt` in
the same transaction, so the same id sent again (after a reconnect, to another server
process) gets the same answer and is never applied twice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import services
from games.engine.actions import ActionError, action_from_json
from games.errors import GameError
from games.models import ActionReceipt, Table
from games.views_state import grouping_labels
from hotpath import statements
from hotpath.statements import Insert, Prepared, Statement

#: Moves in the deal, handed to :func:`games.services.act` with their fields.
DEAL_ACTIONS = ("draw", "discard", "drop", "finish", "declare", "show", "save_grouping")

#: Table actions, which take no fields.
TABLE_ACTIONS: dict[str, Callable[[int, Any], Table]] = {
    "rejoin": services.rejoin,
    "split_accept": lambda table_id, user: services.answer_split(table_id, user, True),
    "split_decline": lambda table_id, user: services.answer_split(table_id, user, False),
    "auto_drop": lambda table_id, user: services.set_auto_drop(table_id, user, True),
    "im_back": services.im_back,
    "leave": services.leave,
    "leave_after_deal": lambda table_id, user: services.leave_after_deal(table_id, user, True),
    "stay": lambda table_id, user: services.leave_after_deal(table_id, user, False),
}

ACTIONS = (*DEAL_ACTIONS, *TABLE_ACTIONS)
MAX_ID_LENGTH = 64
#: Receipts older than this are pruned; a client never retries an action that old.
RECEIPT_DAYS = 1


def check(frame: Mapping[str, Any]) -> tuple[str, str]:
    """The id and type of a well-formed action; :class:`GameError` for a malformed one."""
    client_id = frame.get("id")
    # Printable: a control character (a NUL above all, which no text column can hold) is refused
    # here, as bad input, not met later as a database error.
    if not (isinstance(client_id, str) and 1 <= len(client_id) <= MAX_ID_LENGTH and client_id.isprintable()):
        raise GameError(
            "bad_id", f"an action needs an 'id': a string of 1 to {MAX_ID_LENGTH} printable characters"
        )
    kind = frame.get("type")
    if kind not in ACTIONS:
        raise GameError("unknown_type", f"unknown type {kind!r}: choose one of {', '.join(ACTIONS)}")
    if kind in DEAL_ACTIONS:
        try:
            # The shape only: the player and the time are the server's, added by services.act.
            action_from_json({**frame, "player": "check", "at": 0})
        except ActionError as error:
            raise GameError.from_engine(error) from None
    return client_id, kind


def _apply(table_id: int, user: Any, kind: str, frame: Mapping[str, Any]) -> Table:
    if kind in DEAL_ACTIONS:
        fields = {key: value for key, value in frame.items() if key != "id"}
        return services.act(table_id, user, fields)
    return TABLE_ACTIONS[kind](table_id, user)


def perform(table_id: int, user: Any, frame: Mapping[str, Any]) -> dict[str, Any]:
    """Apply a checked action once; the answer frame: ``{"ack": id, "v": N}`` or
    ``{"error": code, "message": words, "id": id}``.

    Locks the table row first (as every write does), then looks for the id's receipt: a
    second request with the same id waits for the first and gets its answer. The write itself
    reuses that lock (``services.holding``), and the receipt is written in the same
    transaction, with no savepoint: an action refused by the rules rolls all of it back, and
    its answer is then recorded on its own (:func:`_refused`).
    """
    client_id, kind = check(frame)
    # Nothing runs in this transaction after the write: when it is this block's own, the
    # write's round trip carries the COMMIT (services.holding).
    owner = statements.owns_transaction()
    try:
        with transaction.atomic():
            try:
                locked, (receipt,) = services.lock_and_read(
                    table_id, [_RECEIPT.statement(table_id, user.pk, client_id)]
                )
            except Table.DoesNotExist:
                return {"error": "no_table", "message": "there is no such table", "id": client_id}
            answer = _answer_of(receipt)
            table = None
            if answer is None:
                recorded: list[int] = []

                def receipt_of(written: Table) -> list[Statement]:
                    # Sent with the write's own statements, in its round trip.
                    recorded.append(written.version)
                    return [
                        _INSERT_RECEIPT.statement(
                            [_receipt_row(table_id, user, client_id, kind, written.version)]
                        )
                    ]

                with services.holding(locked, also=receipt_of, commit=owner):
                    table = _apply(table_id, user, kind, frame)
                if recorded:
                    answer = ActionReceipt(client_id=client_id, version=table.version).answer()
                else:  # the action wrote nothing of the table
                    answer = _record(table_id, user, client_id, kind, version=table.version)
            return _with_grouping(answer, kind, table_id, user, table)
    except GameError as error:
        return _refused(table_id, user, client_id, kind, error)


#: The answer already given to an action id at a table, if any (the receipt's fields).
_RECEIPT = Prepared(
    lambda table_id, user_id, client_id: ActionReceipt.objects.filter(
        table_id=table_id, user_id=user_id, client_id=client_id
    ).values_list("client_id", "version", "error", "message"),
    arity=3,
)


_INSERT_RECEIPT = Insert(
    ActionReceipt, ["table", "user", "client_id", "type", "version", "error", "message", "created_at"]
)


def _record(
    table_id: int,
    user: Any,
    client_id: str,
    kind: str,
    *,
    version: int | None = None,
    error: str = "",
    message: str = "",
) -> dict[str, Any]:
    """Write an action's receipt (in the caller's transaction) and return its answer."""
    _INSERT_RECEIPT.run([_receipt_row(table_id, user, client_id, kind, version, error, message)])
    return ActionReceipt(client_id=client_id, version=version, error=error, message=message).answer()


def _receipt_row(
    table_id: int,
    user: Any,
    client_id: str,
    kind: str,
    version: int | None,
    error: str = "",
    message: str = "",
) -> tuple[Any, ...]:
    return (table_id, user.pk, client_id, kind, version, error, message, timezone.now())


def _answered(table_id: int, user: Any, client_id: str) -> dict[str, Any] | None:
    return _answer_of(_RECEIPT.rows(table_id, user.pk, client_id))


def _answer_of(found: Sequence[tuple[Any, ...]]) -> dict[str, Any] | None:
    """The answer a receipt's row (of :data:`_RECEIPT`) records; None for no row."""
    if not found:
        return None
    client, version, error, message = found[0]
    return ActionReceipt(client_id=client, version=version, error=error, message=message).answer()


def _refused(table_id: int, user: Any, client_id: str, kind: str, error: GameError) -> dict[str, Any]:
    """Record and answer an action the rules refused: nothing of it was written. Under the
    table's lock again, so that the same id sent twice at once still gets one answer."""
    with transaction.atomic():
        services.lock(table_id)
        answer = _answered(table_id, user, client_id)
        if answer is None:
            code, words = error.code[:40], error.message[:300]
            answer = _record(table_id, user, client_id, kind, error=code, message=words)
        return answer


def _with_grouping(
    answer: dict[str, Any], kind: str, table_id: int, user: Any, table: Table | None
) -> dict[str, Any]:
    if kind == "save_grouping" and "ack" in answer:
        # The engine's labels of the groups and the hand's points (docs/PROTOCOL.md).
        labels = grouping_labels(table or Table.objects.get(pk=table_id), user)
        if labels is not None:
            answer["grouping"] = labels
    return answer


def prune_receipts() -> int:
    """Delete receipts older than :data:`RECEIPT_DAYS`; returns how many."""
    cutoff = timezone.now() - timedelta(days=RECEIPT_DAYS)
    deleted, _ = ActionReceipt.objects.filter(created_at__lt=cutoff).delete()
    return deleted
