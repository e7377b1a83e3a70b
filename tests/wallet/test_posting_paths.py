"""The same operations posted through the portable path (``WALLET_FAST_PATH=0``) and through
PostgreSQL's fast path, where a posting of known legs is one statement (``wallet_post()``):
the same answers (journals, replays, refusals with their codes and words) and, row by row, the
same ledger (accounts, journals, transfers, entries)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from tests.conftest import make_user
from tests.wallet.support import _fast_password_hashing  # noqa: F401 (fixture)
from wallet import cashier, sql
from wallet import operations as ops
from wallet.errors import WalletError
from wallet.ledger import cashier_spec, post, reverse, user_spec
from wallet.models import Account, Entry, Journal, JournalKind, Transfer
from wallet.reconcile import reconcile

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def scenario(users: list[Any], staff: Any) -> list[Callable[[], Journal]]:
    """Every kind of answer of the postings with known legs, and a few of the others."""
    a, b, c, d, e, newcomer, broke = (user.pk for user in users)

    def pay(key: str, *legs: tuple[int, int, int]) -> Callable[[], Journal]:
        transfers = [(user_spec(x), user_spec(y), amount) for x, y, amount in legs]
        return lambda: post(key, JournalKind.ADJUSTMENT, transfers, meta={"test": True})

    def hold(uid: int, seat: str, amount: int) -> Callable[[], Journal]:
        return lambda: ops.hold_seat(uid, seat, amount, point_value=10, points=200, table_ref="table:t1")

    def deal(number: int, *transfers: tuple[str, str, int]) -> Callable[[], Journal]:
        return lambda: ops.settle_deal("table:t1", number, list(transfers), point_value=10, rake_percent=10)

    def join(uid: int, pool: str, capacity: int | None = 3) -> Callable[[], Journal]:
        return lambda: ops.charge_entry_fee(uid, pool, 1_000, capacity=capacity, variant="101")

    calls: list[Callable[[], Journal]] = [
        *(
            (
                lambda uid=uid: post(
                    f"fund:{uid}", JournalKind.ADJUSTMENT, [(cashier_spec(uid), user_spec(uid), 50_000)]
                )
            )
            for uid in (a, b, c, d, e)
        ),
        pay("t:1", (a, b, 1_000)),
        pay("t:2", (a, b, 700), (b, a, 300)),
        pay("t:2", (a, b, 700), (b, a, 300)),  # a retry
        pay("t:2", (a, b, 701), (b, a, 300)),  # a conflict
        pay("t:3", (c, d, 10**9)),  # insufficient funds
        pay("t:4", (a, a, 5)),  # one account twice
        pay("t:5", (a, newcomer, 100)),  # the newcomer's account created
        pay("t:6", (broke, a, 100)),  # refused: the new account is not kept
        join(a, "pool:1"),
        join(b, "pool:1"),
        join(c, "pool:1"),
        join(d, "pool:1"),  # full
        join(a, "pool:1"),  # a retry
        lambda: ops.charge_rejoin_fee(a, "pool:1", 1_000, rejoin_number=1, variant="101"),
        lambda: ops.charge_rejoin_fee(d, "pool:1", 1_000, rejoin_number=1, variant="101"),  # not in it
        lambda: ops.charge_rejoin_fee(broke, "pool:1", 1_000, rejoin_number=1, variant="101"),
        join(e, "pool:2", None),
        join(b, "pool:2", None),
        lambda: ops.refund_entry(b, "pool:2"),
        join(d, "pool:2", None),
        lambda: ops.pay_winner("pool:1", a, rake_percent=10, variant="101"),
        join(e, "pool:1"),  # settled
        join(a, "pool:1"),  # a retry after the pool closed: still answered
        hold(a, "seat:1", 2_000),
        hold(b, "seat:2", 2_000),
        hold(c, "seat:3", 3_000),
        hold(c, "seat:3", 3_000),  # a retry
        hold(b, "seat:1", 2_000),  # the seat's key with another request
        hold(d, "seat:4", 10**9),  # insufficient: the seat is not kept
        hold(d, "seat:5", 100),  # below the minimum
        deal(1, ("seat:1", "seat:2", 50), ("seat:3", "seat:2", 20)),
        deal(1, ("seat:1", "seat:2", 50), ("seat:3", "seat:2", 20)),  # a retry
        deal(2, ("seat:1", "seat:2", 300)),  # the seat cannot cover it
        deal(3, ("seat:1", "seat:99", 1)),  # a seat never held
        lambda: ops.top_up_seat(a, "seat:1", 500, deal_number=1, table_ref="table:t1"),
        lambda: ops.top_up_seat(a, "seat:2", 500, deal_number=1, table_ref="table:t1"),  # not hers
        lambda: ops.release_seat("seat:3"),
        deal(4, ("seat:3", "seat:1", 10)),  # released
        lambda: ops.top_up_seat(c, "seat:3", 500, deal_number=4, table_ref="table:t1"),  # released
        deal(5, ("seat:2", "seat:1", 40), ("seat:1", "seat:2", 10)),
        lambda: cashier.topup_chips(a),
        lambda: reverse(Journal.objects.get(key="t:1"), "a test", staff),
    ]
    return calls


def answers(calls: list[Callable[[], Journal]]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for call in calls:
        try:
            journal = call()
        except WalletError as error:
            out.append(("refused", error.code, str(error)))
        else:
            out.append(("posted", journal.key, journal.replayed, journal.kind, journal.meta))
    return out


def ledger_rows() -> dict[str, list[tuple[Any, ...]]]:
    """The ledger by what each row means (refs and keys, not ids, which the sequences give)."""
    refs = dict(Account.objects.values_list("id", "ref"))
    keys = dict(Journal.objects.values_list("id", "key"))
    transfers = list(
        Transfer.objects.order_by("id").values_list(
            "id", "journal_id", "debit_id", "credit_id", "amount", "currency"
        )
    )
    place: dict[int, int] = {}  # each transfer's place in its journal
    counted: dict[int, int] = {}
    for transfer_id, journal_id, *_ in transfers:
        place[transfer_id] = counted[journal_id] = counted.get(journal_id, 0) + 1
    return {
        "accounts": sorted(
            (currency, ref, kind, owner, balance, version, negative, closed is not None)
            for ref, currency, kind, owner, balance, version, negative, closed in Account.objects.values_list(
                "ref", "currency", "kind", "owner_id", "balance", "version", "allow_negative", "closed_at"
            )
        ),
        "journals": [
            (key, kind, currency, meta, digest, by, keys.get(reverses))
            for key, kind, currency, meta, digest, by, reverses in Journal.objects.order_by("id").values_list(
                "key", "kind", "currency", "meta", "content_hash", "created_by_id", "reverses_id"
            )
        ],
        "transfers": [
            (keys[journal_id], place[transfer_id], refs[debit], refs[credit], amount, currency)
            for transfer_id, journal_id, debit, credit, amount, currency in transfers
        ],
        "entries": [
            (keys[journal_id], refs[account], place[transfer], amount, balance, version)
            for journal_id, account, transfer, amount, balance, version in Entry.objects.order_by(
                "id"
            ).values_list("journal_id", "account_id", "transfer_id", "amount", "balance_after", "version")
        ],
    }


def run_on(path_fast: bool, settings: Any, users: list[Any], staff: Any) -> tuple[list[Any], dict[str, Any]]:
    settings.WALLET_FAST_PATH = path_fast
    with connection.cursor() as cursor:  # (TRUNCATE: the append-only triggers refuse DELETE)
        cursor.execute("TRUNCATE wallet_entry, wallet_transfer, wallet_journal, wallet_account CASCADE")
    got = answers(scenario(users, staff))
    assert reconcile() == []
    return got, ledger_rows()


def test_both_posting_paths_answer_alike_and_write_the_same_rows(settings, monkeypatch):
    users = [make_user(name) for name in ("ann", "bala", "chitra", "dev", "esha", "farah", "gopal")]
    staff = make_user("staff", staff=True, role=None)
    portable_answers, portable_rows = run_on(False, settings, users, staff)

    in_one: list[bool] = []
    real = sql.post_once

    def counted(*args: Any, **kwargs: Any) -> Any:
        posted = real(*args, **kwargs)
        in_one.append(posted.journal_id is not None)
        return posted

    monkeypatch.setattr(sql, "post_once", counted)
    fast_answers, fast_rows = run_on(True, settings, users, staff)

    assert fast_answers == portable_answers
    for table in ("accounts", "journals", "transfers", "entries"):
        assert fast_rows[table] == portable_rows[table], table
    # The fast run posted its known legs in one statement: written, and answered without a write.
    assert in_one.count(True) >= 15
    assert in_one.count(False) >= 15
    refusals = {answer[1] for answer in portable_answers if answer[0] == "refused"}
    assert refusals >= {
        "idempotency_conflict",
        "insufficient_funds",
        "bad_request",
        "pool_full",
        "not_in_pool",
        "account_closed",
        "not_found",
        "wrong_account",
        "below_minimum",
    }
