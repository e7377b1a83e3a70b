"""The auditor: recompute the ledger from its entries and list every difference.

Checks, each over the whole ledger in a few queries:

- every account's cached balance is the sum of its entries, and its version the number of
  its entries, numbered 1, 2, 3 ... without a gap;
- every entry's balance after is the previous entry's balance after plus its amount;
- every transfer has exactly two entries, ``-amount`` on the debit account and ``+amount``
  on the credit account, in the transfer's journal, currency matching both accounts;
- each currency sums to zero over all accounts (money is neither created nor lost);
- no account except the cashier is, or ever was, below zero; a closed account holds zero;
- every withdrawal's status agrees with its journals: a hold that was not reversed; requested
  with no decision; paid with a payout journal, rejected with a release journal, returned
  with a payout and a compensating journal; no decision or correction reversed.
"""

from __future__ import annotations

from django.db import connection

from wallet.models import Account, ReconcileRun


def withdrawal_problems(limit: int = 50) -> list[str]:
    """Withdrawals whose status disagrees with the ledger."""
    from wallet.models import Journal, JournalKind, Withdrawal

    expected: dict[str, tuple[str | None, bool]] = {
        Withdrawal.Status.REQUESTED: (None, False),
        Withdrawal.Status.PAID: (JournalKind.WITHDRAWAL_PAID, False),
        Withdrawal.Status.REJECTED: (JournalKind.WITHDRAWAL_RELEASED, False),
        Withdrawal.Status.RETURNED: (JournalKind.WITHDRAWAL_PAID, True),
    }
    reversed_ids = set(Journal.objects.filter(reverses__isnull=False).values_list("reverses_id", flat=True))
    problems = []
    rows = Withdrawal.objects.select_related("hold_journal", "decision_journal", "correction_journal")
    for withdrawal in rows.order_by("id").iterator():
        kind, corrected = expected.get(withdrawal.status, ("?", False))
        decision = withdrawal.decision_journal
        why = []
        hold = withdrawal.hold_journal
        if hold.kind != JournalKind.WITHDRAWAL_HOLD or hold.pk in reversed_ids:
            why.append("its hold was reversed or is not a hold")
        if (decision.kind if decision else None) != kind:
            why.append(f"decision journal {decision.kind if decision else 'none'}, expected {kind or 'none'}")
        if decision is not None and decision.pk in reversed_ids:
            why.append("its decision journal was reversed")
        if corrected != (withdrawal.correction_journal_id is not None):
            why.append("a correction journal " + ("missing" if corrected else "without the returned status"))
        elif withdrawal.correction_journal_id in reversed_ids:
            why.append("its correction journal was reversed")
        if why:
            problems.append(f"withdrawal {withdrawal.pk} is {withdrawal.status} but " + "; ".join(why))
            if len(problems) >= limit:
                break
    return problems


def reconcile(*, limit: int = 50) -> list[str]:
    """Every difference found, in plain words (at most ``limit`` per check); empty when all is well."""
    problems: list[str] = withdrawal_problems(limit)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT a.id, a.ref, a.currency, a.balance, a.version, "
            "COALESCE(e.total, 0), COALESCE(e.n, 0), COALESCE(e.top, 0) "
            "FROM wallet_account a LEFT JOIN ("
            "  SELECT account_id, SUM(amount) AS total, COUNT(*) AS n, MAX(version) AS top"
            "  FROM wallet_entry GROUP BY account_id"
            ") e ON e.account_id = a.id "
            "WHERE a.balance <> COALESCE(e.total, 0) OR a.version <> COALESCE(e.n, 0) "
            "OR a.version <> COALESCE(e.top, 0) ORDER BY a.id"
        )
        for account_id, ref, currency, balance, version, total, count, top in cursor.fetchmany(limit):
            problems.append(
                f"account {account_id} {ref} {currency}: cached balance {balance} version {version}, "
                f"but its entries sum to {total} over {count} entries (highest version {top})"
            )

        cursor.execute(
            "SELECT account_id, version, amount, balance_after, prev_balance, prev_version FROM ("
            "  SELECT account_id, version, amount, balance_after,"
            "  LAG(balance_after, 1, 0) OVER (PARTITION BY account_id ORDER BY version) AS prev_balance,"
            "  LAG(version, 1, 0) OVER (PARTITION BY account_id ORDER BY version) AS prev_version"
            "  FROM wallet_entry"
            ") chain WHERE prev_balance + amount <> balance_after OR version <> prev_version + 1 "
            "ORDER BY account_id, version"
        )
        for account_id, version, amount, after, prev_balance, prev_version in cursor.fetchmany(limit):
            problems.append(
                f"account {account_id} entry v{version}: {prev_balance} {amount:+} should be "
                f"{prev_balance + amount}, recorded {after} (previous version {prev_version})"
            )

        cursor.execute(
            "SELECT id, journal_id, amount, entries, debits, credits FROM ("
            "  SELECT t.id, t.journal_id, t.amount, COUNT(e.id) AS entries,"
            "  SUM(CASE WHEN e.account_id = t.debit_id AND e.amount = -t.amount THEN 1 ELSE 0 END) AS debits,"
            "  SUM(CASE WHEN e.account_id = t.credit_id AND e.amount = t.amount THEN 1 ELSE 0 END) AS credits"
            "  FROM wallet_transfer t LEFT JOIN wallet_entry e"
            "  ON e.transfer_id = t.id AND e.journal_id = t.journal_id"
            "  GROUP BY t.id, t.journal_id, t.amount"
            ") sides WHERE entries <> 2 OR debits <> 1 OR credits <> 1 ORDER BY id"
        )
        for transfer_id, journal_id, amount, count, debits, credits in cursor.fetchmany(limit):
            problems.append(
                f"transfer {transfer_id} (journal {journal_id}, {amount}): {count} entries, "
                f"{debits} matching debit, {credits} matching credit (expected 2, 1, 1)"
            )

        cursor.execute(
            "SELECT t.id, t.currency, d.currency, c.currency FROM wallet_transfer t "
            "JOIN wallet_account d ON d.id = t.debit_id JOIN wallet_account c ON c.id = t.credit_id "
            "JOIN wallet_journal j ON j.id = t.journal_id "
            "WHERE t.currency <> d.currency OR t.currency <> c.currency OR t.currency <> j.currency "
            "ORDER BY t.id"
        )
        for transfer_id, currency, debit_currency, credit_currency in cursor.fetchmany(limit):
            problems.append(
                f"transfer {transfer_id} in {currency} moves money from a {debit_currency} account "
                f"to a {credit_currency} account"
            )

        cursor.execute(
            "SELECT e.account_id, e.version, e.balance_after FROM wallet_entry e "
            "JOIN wallet_account a ON a.id = e.account_id "
            "WHERE e.balance_after < 0 AND NOT a.allow_negative ORDER BY e.account_id, e.version"
        )
        for account_id, version, after in cursor.fetchmany(limit):
            problems.append(f"account {account_id} went below zero at v{version}: {after}")

        cursor.execute(
            "SELECT id, ref, balance, closed_at IS NOT NULL FROM wallet_account "
            "WHERE (balance < 0 AND NOT allow_negative) OR (closed_at IS NOT NULL AND balance <> 0) "
            "OR (allow_negative AND kind <> 'cashier') ORDER BY id"
        )
        for account_id, ref, balance, closed in cursor.fetchmany(limit):
            state = "closed and" if closed else "a non-cashier account"
            problems.append(f"account {account_id} {ref} is {state} holds {balance}")

    problems.extend(_currency_sums())
    return problems


def _currency_sums() -> list[str]:
    problems = []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT currency, SUM(balance) FROM wallet_account GROUP BY currency ORDER BY currency"
        )
        for currency, total in cursor.fetchall():
            if total != 0:
                problems.append(f"{currency}: account balances sum to {total}, not 0")
        cursor.execute(
            "SELECT a.currency, SUM(e.amount) FROM wallet_entry e "
            "JOIN wallet_account a ON a.id = e.account_id GROUP BY a.currency ORDER BY a.currency"
        )
        for currency, total in cursor.fetchall():
            if total != 0:
                problems.append(f"{currency}: entries sum to {total}, not 0")
    return problems


def summary() -> dict[str, int]:
    """Counts for the reconcile report."""
    from wallet.models import Entry, Journal, Transfer

    return {
        "accounts": Account.objects.count(),
        "journals": Journal.objects.count(),
        "transfers": Transfer.objects.count(),
        "entries": Entry.objects.count(),
    }


def run(trigger: str) -> ReconcileRun:
    """Reconcile and keep the verdict and figures (the back office shows the last run)."""
    problems = reconcile()
    return ReconcileRun.objects.create(ok=not problems, problems=problems, figures=summary(), trigger=trigger)


def last_run() -> ReconcileRun | None:
    return ReconcileRun.objects.order_by("-at", "-id").first()
