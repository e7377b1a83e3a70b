"""Signals, recorded as play happens: who logged in or sat down from where, what paid, what
document was shown. Each is one insert, sent in one round trip with the look-ups that find the
accounts sharing it; only a match writes more (``fairplay.links.note``). Nothing here runs on a
move.

- Log-in (the web form, through Django's ``user_logged_in``; the API's token, by its view) and
  sitting down at a table (``games.arrivals``): the client's address (``accounts.client_ip``,
  behind the trusted proxies), the first-party device id (``fairplay.device``) and the user
  agent, cut to 200 characters.
- A deposit (``wallet.cashier.deposit_started``): a keyed hash of the payment instrument.
- An identity check (``protection.kyc.submitted``): the keyed hash of the document's number
  (protection keeps it with the last four; the number itself is kept nowhere).

An address is shared by crowds (a carrier's NAT, an office, a college): one seen on more than
:data:`ADDRESS_CROWD` other accounts in the last :data:`ADDRESS_HOURS` hours links nobody.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable
from contextlib import nullcontext
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from accounts.client_ip import client_ip
from fairplay import links
from fairplay.cases import open_case
from fairplay.device import device_of
from fairplay.models import Signal, SignalKind
from hotpath.statements import Insert, Prepared, Statement, execute_many
from protection import kyc
from protection.fingerprint import instrument_hash
from protection.models import Verification

log = logging.getLogger(__name__)

AGENT_LENGTH = 200
#: Accounts linked through an address seen on at most this many others...
ADDRESS_CROWD = 8
#: ... within this many hours.
ADDRESS_HOURS = 24
#: The latest sightings of an address read to find who else used it.
ADDRESS_ROWS = 200
#: At most this many other accounts are linked through one device, instrument or document.
SHARED_MOST = 50

_INSERT = Insert(
    Signal, ["user", "kind", "at", "address", "device", "agent", "instrument", "document", "table_id"]
)


def _sharing(field: str) -> Prepared:
    return Prepared(
        lambda value, user_id: (
            Signal.objects.filter(**{field: value})
            .exclude(user_id=user_id)
            .order_by()
            .values_list("user_id")
            .distinct()[:SHARED_MOST]
        ),
        arity=2,
    )


SAME = {reason: _sharing(reason) for reason in links.STRONG_REASONS}
#: Accounts whose identity check showed the same document (kept beyond the signals' retention).
SAME_DOCUMENT_CHECKED = Prepared(
    lambda value, user_id: (
        Verification.objects.filter(document_hash=value)
        .exclude(user_id=user_id)
        .order_by()
        .values_list("user_id")[:SHARED_MOST]
    ),
    arity=2,
)


def _same_address_sql() -> str:
    """The other accounts among an address's latest :data:`ADDRESS_ROWS` sightings within the
    window, at most one more than a crowd: the server reads the rows (its index on address and
    time) and sends back a few ids, never the sightings themselves."""
    table = Signal._meta.db_table
    # Only the model's own names and the module's constants are formatted in.
    return (
        f"SELECT DISTINCT user_id FROM (SELECT user_id FROM {table} "  # noqa: S608
        f"WHERE address = %s AND user_id <> %s AND at >= %s ORDER BY at DESC LIMIT {ADDRESS_ROWS}) "
        f"AS latest LIMIT {ADDRESS_CROWD + 1}"
    )


def _same_address(address: str, user_id: int, since: datetime) -> Statement:
    at = Signal._meta.get_field("at").get_db_prep_value(since, connection)
    return _same_address_sql(), [address, user_id, at]


def record(
    kind: str,
    user_id: int,
    *,
    address: str | None = None,
    device: str = "",
    agent: str = "",
    instrument: str = "",
    document: str = "",
    table_id: int | None = None,
    at: datetime | None = None,
) -> Signal:
    """Insert one signal and link ``user_id`` to the accounts sharing any of it (one round trip;
    a match writes its link). ``instrument`` and ``document`` are keyed hashes already."""
    at = at or timezone.now()
    row = (user_id, kind, at, address or "", device, agent[:AGENT_LENGTH], instrument, document, table_id)
    reads: list[tuple[str, Statement]] = []
    for reason, value in (("device", device), ("instrument", instrument), ("document", document)):
        if value:
            reads.append((reason, SAME[reason].statement(value, user_id)))
    if document:
        reads.append(("document", SAME_DOCUMENT_CHECKED.statement(document, user_id)))
    if address:
        reads.append(("address", _same_address(address, user_id, at - timedelta(hours=ADDRESS_HOURS))))
    results = execute_many([_INSERT.statement([row]), *(statement for _, statement in reads)])
    others: dict[str, set[int]] = {}
    for (reason, _), result in zip(reads, results[1:], strict=True):
        ids = {int(row[0]) for row in result.rows}
        if reason == "address" and len(ids) > ADDRESS_CROWD:
            continue  # a crowd's address: a carrier's NAT, not a person
        if ids:
            others.setdefault(reason, set()).update(ids)
    if others:
        links.note(user_id, others, at)
    return Signal(
        user_id=user_id,
        kind=kind,
        at=at,
        address=address or "",
        device=device,
        agent=agent,
        instrument=instrument,
        document=document,
        table_id=table_id,
    )


def _address(request: Any) -> str | None:
    found = client_ip(request)
    try:
        return str(ipaddress.ip_address(found))
    except ValueError:
        return None


def _agent(request: Any) -> str:
    text = str(getattr(request, "META", {}).get("HTTP_USER_AGENT", "") or "")
    return "".join(ch for ch in text[:AGENT_LENGTH] if ch.isprintable())


def from_request(kind: str, request: Any, user_id: int, *, table_id: int | None = None) -> None:
    """Record a log-in or a seat from ``request``'s client. A failure is logged, never raised:
    a signal is worth less than the log-in or the seat it describes."""
    _safely(
        f"a {kind} signal of user {user_id}",
        lambda: record(
            kind,
            user_id,
            address=_address(request),
            device=device_of(request),
            agent=_agent(request),
            table_id=table_id,
        ),
    )


def _safely(what: str, run: Callable[[], object]) -> None:
    """Run ``run``; a failure is logged, never raised. Inside a caller's transaction it runs in a
    savepoint, so a failed signal leaves that transaction usable."""
    try:
        with transaction.atomic() if connection.in_atomic_block else nullcontext():
            run()
    except Exception:
        log.exception("fair play: %s was not recorded", what)


def logged_in(request: Any, user: Any) -> None:
    """A log-in: the web form (``user_logged_in``) or the API's token."""
    if request is not None and getattr(user, "pk", None) is not None:
        from_request(SignalKind.LOGIN, request, int(user.pk))


def on_user_logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    logged_in(request, user)


def sat_down(request: Any, user_id: int, table_id: int) -> None:
    """A seat taken through a page or the API (``games.arrivals``)."""
    from_request(SignalKind.JOIN, request, user_id, table_id=table_id)


def deposited(user_id: int, instrument: str) -> None:
    """A deposit started (``wallet.cashier.deposit_started``): the instrument's keyed hash."""
    _safely(
        f"a deposit signal of user {user_id}",
        lambda: record(SignalKind.DEPOSIT, user_id, instrument=instrument_hash(instrument)),
    )


def identity_sent(user_id: int, document: str) -> None:
    """An identity check submitted (``protection.kyc.submitted``) with the document's keyed
    hash. When that document is verified on another account, the check waits for staff
    (``protection.kyc.decide``) and a "linked accounts" case says why."""
    _safely(f"an identity signal of user {user_id}", lambda: _identity(user_id, document))


def _identity(user_id: int, document: str) -> None:
    record(SignalKind.IDENTITY, user_id, document=document)
    elsewhere = kyc.verified_elsewhere(user_id, document)
    if elsewhere:
        open_case(
            "linked_accounts",
            [user_id, *elsewhere],
            {"identity_verified_on": elsewhere, "submitted_by": user_id},
            score=1.0,
            key=f"identity:{user_id}",
        )
