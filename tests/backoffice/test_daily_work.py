"""The back office for the daily work of an operator's staff. Live tables (stuck ones
stand out), the player page and its statement, the withdrawal queue oldest first with one-click
decisions (four eyes), and the scheduled reconciliation with its banner."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone

from backoffice import actions, reports
from backoffice.models import AuditAction, AuditLog
from backoffice.players import STATEMENT
from games import services
from games.models import TableEvent
from tests.backoffice.support import (  # noqa: F401
    DAY1,
    DAY2,
    DAY3,
    EXPECTED,
    _fast_passwords,
    csv_by_key,
    deposit,
    seed,
)
from tests.backoffice.test_staff_roles import live_deal
from tests.conftest import make_user
from wallet import cashier, reconcile
from wallet.models import Account, ReconcileRun, Withdrawal
from wallet.money import money, rupees
from wallet.tasks import reconcile_ledger

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded(monkeypatch):
    return seed(monkeypatch)


@pytest.fixture
def risk(client):
    member = make_user("rita", staff=True, role="risk")
    client.force_login(member)
    return member


# Live tables


def test_live_tables_show_players_deal_pool_phase_and_what_the_table_waits_for(seeded, client, risk):
    table = live_deal(seeded)
    page = client.get(reverse("backoffice:tables")).content.decode()
    row = page[page.index(f"<td>{table.pk} · ") :]
    row = row[: row.index("</tr>")]
    assert "alice (Playing)" in row
    assert "bob (Playing)" in row
    assert "<td>2</td>" in row, "deal number 2"
    pool = table.state["prize_pool"]
    assert pool > 0
    assert f"pool {rupees(pool)}" in row
    assert "a move by alice" in row or "a move by bob" in row
    assert 'class="stuck"' not in page
    assert "Ask for a void" in row, "a running game offers the void (R-MONEY-7)"


def test_live_tables_a_table_without_a_player_action_past_the_threshold_stands_out(seeded, client, risk):
    table = live_deal(seeded)
    long_ago = timezone.now() - dt.timedelta(seconds=settings.STUCK_TABLE_SECONDS + 60)
    TableEvent.objects.filter(table=table).update(created_at=long_ago)
    page = client.get(reverse("backoffice:tables")).content.decode()
    assert '<tr class="stuck">' in page
    assert "1 stuck" in page
    home = client.get(reverse("backoffice:home")).content.decode()
    assert "Stuck tables: <strong>1</strong>" in home


def test_live_tables_a_waiting_pool_shows_its_pool_and_waits_for_players(seeded, client, risk):
    waiting = seeded.tables["D"]
    page = client.get(reverse("backoffice:tables")).content.decode()
    row = page[page.index(f"<td>{waiting.pk} · ") :]
    row = row[: row.index("</tr>")]
    assert "<td>players</td>" in row
    assert "pool ₹50.00" in row, "alice and bob entered with ₹25.00 each (from the ledger)"
    held = page[page.index(f"<td>{seeded.tables['C'].pk} · ") :]
    assert "held ₹" in held[: held.index("</tr>")], "a 21-card table shows its seats' holds"


# Player page


def test_player_search_finds_by_username_e_mail_id_and_display_name(seeded, client, risk):
    carol = seeded.users["carol"]
    carol.email, carol.display_name = "carol.k@example.com", "Queen of Hearts"
    carol.save(update_fields=["email", "display_name"])
    target = reverse("backoffice:player", args=[carol.pk])
    for text in ("carol", "CAROL.K@example", str(carol.pk), "queen of"):
        response = client.get(reverse("backoffice:players"), {"q": text})
        assert (response.status_code, response.url) == (302, target), text
    many = client.get(reverse("backoffice:players"), {"q": "a"}).content.decode()
    assert "alice" in many
    assert "dave" in many
    assert "No player matches" in client.get(reverse("backoffice:players"), {"q": "zzz"}).content.decode()


def test_player_page_shows_balances_held_seats_statement_games_cash_and_staff_actions(seeded, client, risk):
    alice = seeded.users["alice"]
    deposit(alice, 25_000_50)
    page = client.get(reverse("backoffice:player", args=[alice.pk])).content.decode()
    wallet = Account.objects.get(owner=alice, kind="user", currency="INR")
    assert rupees(wallet.balance) in page
    assert "₹25,000.50" in page, "the deposit is in the last entries and in the deposits"
    assert "Prize to the winner" in page
    assert "₹67.50" in page
    assert "Reversal (correction)" in page
    chips = Account.objects.filter(owner=alice, kind="user", currency="CHIPS").first()
    if chips is not None:
        assert money(chips.balance, "CHIPS") in page
    assert "₹200.00" in page, "her withdrawal"
    assert "Approved a withdrawal" in page
    assert "verified bank account" in page
    assert reverse("backoffice:statement", args=[alice.pk]) + "?format=csv" in page
    assert "Open seats" in page


def test_player_statement_csv_adds_up_to_each_balance(seeded, client, risk):
    alice = seeded.users["alice"]
    body = client.get(reverse("backoffice:statement", args=[alice.pk]), {"format": "csv"}).content.decode()
    rows = csv_by_key(body, STATEMENT)
    assert rows
    for account in Account.objects.filter(owner=alice):
        mine = [
            int(r["amount"])
            for r in rows
            if r["account"] == account.ref and r["currency"] == account.currency
        ]
        assert sum(mine) == account.balance, account.ref
    page = client.get(reverse("backoffice:statement", args=[alice.pk])).content.decode()
    assert page.count("<tr><td>") == len(rows)


def test_player_page_support_sees_games_and_seats_but_no_money(seeded, client):
    client.force_login(make_user("helper", staff=True, role="support"))
    alice = seeded.users["alice"]
    page = client.get(reverse("backoffice:player", args=[alice.pk])).content.decode()
    assert "Recent games" in page
    assert "Balances" not in page
    assert "₹" not in page
    assert client.get(reverse("backoffice:statement", args=[alice.pk])).status_code == 403


# Withdrawal queue


def test_withdrawal_queue_is_oldest_first_with_age_amount_player_and_balance(seeded, client):
    cashier_member = make_user("cash", staff=True, role="cashier")
    client.force_login(cashier_member)
    newer = cashier.request_withdrawal(seeded.users["dave"], 15000)
    page = client.get(reverse("backoffice:withdrawals")).content.decode()
    carol_at, dave_at = page.index(">carol</a>"), page.index(">dave</a>")
    assert carol_at < dave_at, "oldest first"
    assert "₹100.00" in page
    assert "₹150.00" in page
    carol_wallet = Account.objects.get(owner=seeded.users["carol"], kind="user", currency="INR")
    assert rupees(carol_wallet.balance) in page
    assert "days" in page[:carol_at] or "days" in page[carol_at:dave_at], "carol's has waited since March"
    home = client.get(reverse("backoffice:home")).content.decode()
    assert "Withdrawals waiting: <strong>2</strong>" in home
    assert newer.status == "requested"


def test_withdrawal_queue_approves_and_rejects_in_one_click_with_a_reason(seeded, client):
    client.force_login(make_user("cash", staff=True, role="cashier"))
    carol = seeded.withdrawals["carol"]
    url = reverse("backoffice:decide_withdrawal", args=[carol.pk])
    client.post(url, {"decision": "approve", "reason": ""})
    assert Withdrawal.objects.get(pk=carol.pk).status == "requested", "no reason, no decision"
    client.post(url, {"decision": "approve", "reason": "bank account verified"})
    assert Withdrawal.objects.get(pk=carol.pk).status == "paid"
    assert AuditLog.objects.filter(
        target=f"withdrawal:{carol.pk}", action=AuditAction.APPROVE_WITHDRAWAL
    ).exists()
    dave = cashier.request_withdrawal(seeded.users["dave"], 15000)
    client.post(
        reverse("backoffice:decide_withdrawal", args=[dave.pk]), {"decision": "reject", "reason": "KYC"}
    )
    assert Withdrawal.objects.get(pk=dave.pk).status == "rejected"


def test_withdrawal_queue_lists_a_payout_the_provider_has_not_taken(
    seeded, client, monkeypatch, django_capture_on_commit_callbacks
):
    """The gateway fails after the approval committed: the approval stands, the staff member is
    told, and the payout waits under its own heading until the sweep sends it (wallet.payouts)."""
    from wallet import providers

    class Down(providers.SandboxProvider):
        def send_payout(self, withdrawal: Withdrawal) -> str:
            raise TimeoutError("the gateway timed out")

    monkeypatch.setattr(cashier, "get_provider", Down)
    client.force_login(make_user("cash", staff=True, role="cashier"))
    carol = seeded.withdrawals["carol"]
    url = reverse("backoffice:decide_withdrawal", args=[carol.pk])
    with django_capture_on_commit_callbacks(execute=True) as sends:
        answer = client.post(url, {"decision": "approve", "reason": "bank account verified"}, follow=True)
    assert len(sends) == 1
    page = answer.content.decode()
    assert "the payment provider has not taken it yet" in page
    stored = Withdrawal.objects.get(pk=carol.pk)
    assert (stored.status, stored.provider_ref) == ("paid", "")
    sending = page[page.index("Approved, not yet taken by the provider") :]
    assert ">carol</a>" in sending
    assert "₹100.00" in sending
    assert ">carol</a>" not in page[: page.index("Approved, not yet taken by the provider")], (
        "no longer waiting"
    )
    home = client.get(reverse("backoffice:home")).content.decode()
    assert "Approved payouts not yet taken by the provider: <strong" in home


def test_withdrawal_queue_a_large_one_needs_a_second_staff_member(seeded, client):
    big_player = seeded.users["erin"]
    deposit(big_player, 50_000_00)
    big = cashier.request_withdrawal(big_player, 20_000_00)
    first = make_user("cash", staff=True, role="cashier")
    client.force_login(first)
    url = reverse("backoffice:decide_withdrawal", args=[big.pk])
    client.post(url, {"decision": "approve", "reason": "verified"})
    assert Withdrawal.objects.get(pk=big.pk).status == "requested"
    page = client.get(reverse("backoffice:withdrawals")).content.decode()
    assert "approved once by cash" in page
    client.post(url, {"decision": "approve", "reason": "again"})
    assert Withdrawal.objects.get(pk=big.pk).status == "requested", "the same member cannot be the second"
    client.force_login(make_user("cash2", staff=True, role="cashier"))
    client.post(url, {"decision": "approve", "reason": "second pair of eyes"})
    assert Withdrawal.objects.get(pk=big.pk).status == "paid"


def test_withdrawal_queue_support_may_not_open_it(seeded, client):
    client.force_login(make_user("helper", staff=True, role="support"))
    assert client.get(reverse("backoffice:withdrawals")).status_code == 403
    carol = seeded.withdrawals["carol"]
    response = client.post(
        reverse("backoffice:decide_withdrawal", args=[carol.pk]), {"decision": "approve", "reason": "x"}
    )
    assert response.status_code == 403
    assert Withdrawal.objects.get(pk=carol.pk).status == "requested"


# Reconciliation on a schedule


def test_reconciliation_runs_hourly_from_celery_beat_and_keeps_each_verdict(seeded):
    entry = settings.CELERY_BEAT_SCHEDULE["reconcile-ledger"]
    assert entry == {"task": "wallet.tasks.reconcile_ledger", "schedule": 3600.0}
    assert reconcile_ledger() is True
    run = ReconcileRun.objects.get()
    assert run.ok
    assert run.trigger == "schedule"
    assert run.problems == []
    assert run.figures["entries"] > 0
    call_command("wallet_reconcile")
    assert ReconcileRun.objects.first().trigger == "command"


def test_reconciliation_a_failing_run_stands_out_on_every_back_office_page(seeded, client, risk):
    for url in (reverse("backoffice:home"), reverse("backoffice:tables"), reverse("admin:index")):
        assert "reconcile-failing" not in client.get(url).content.decode()
    wallet = Account.objects.get(owner=seeded.users["dave"], kind="user", currency="INR")
    Account.objects.filter(pk=wallet.pk).update(balance=wallet.balance + 1)
    with pytest.raises(CommandError):
        call_command("wallet_reconcile")
    assert reconcile.last_run().ok is False
    urls = [
        reverse("backoffice:home"),
        reverse("backoffice:tables"),
        reverse("backoffice:players"),
        reverse("backoffice:player", args=[wallet.owner_id]),
        reverse("backoffice:voids"),
        reverse("backoffice:index"),
        reverse("backoffice:report", args=["rake"]),
        reverse("admin:index"),
        reverse("admin:games_table_changelist"),
    ]
    for url in urls:
        page = client.get(url).content.decode()
        assert 'class="reconcile-failing" role="alert"' in page, url
    report = client.get(reverse("backoffice:report", args=["reconcile"])).content.decode()
    assert "Last scheduled run" in report
    assert "PROBLEMS" in report


# Reports: takings


def test_takings_report_counts_fees_payouts_rake_refunds_and_settlements_by_variant_and_template(seeded):
    report = reports.takings(DAY1, DAY3, "INR")
    assert report.totals == {
        "entry_fees": 7500 + 20000 + 5000,
        "rejoin_fees": 0,
        "prizes": 6750 - 6750,  # paid on day 1, reversed on day 3
        "splits": 9000 + 8000,
        "rake": EXPECTED["rake_total"],
        "refunds": 0,
        "settlements": 300,
        "overlay": 0,  # no tournament that day: the house added nothing to a prize pool
    }
    by_template = {row["template"]: row for row in report.breakdowns[1].rows}
    assert by_template["61 pool"]["entry_fees"] == 20000
    assert by_template["61 pool"]["rake"] == 3000
    assert by_template["21 points"]["settlements"] == 300
    by_variant = {row["variant"]: row for row in report.breakdowns[0].rows}
    assert by_variant["pool101"]["entry_fees"] == 7500 + 5000
    assert {v: row["rake"] for v, row in by_variant.items()} == EXPECTED["rake_by_variant"]


def test_takings_report_csv_totals_equal_the_page_totals(seeded, client, risk):
    query = {"start": DAY1.isoformat(), "end": DAY3.isoformat(), "currency": "INR"}
    page = client.get(reverse("backoffice:report", args=["takings"]), query).content.decode()
    foot = page[page.index("<tfoot>") : page.index("</tfoot>")]
    body = client.get(reverse("backoffice:report", args=["takings"]), {**query, "format": "csv"})
    *_, total = csv_by_key(body.content.decode(), reports.takings_report.columns)
    for key in ("entry_fees", "rejoin_fees", "prizes", "splits", "rake", "refunds", "settlements"):
        assert rupees(int(total[key])) in foot, key
    assert "₹325.00" in foot, "the week's entry fees, the Indian way"


def test_takings_report_counts_the_refunds_of_a_void__R_MONEY_7(seeded, monkeypatch, client):
    table = live_deal(seeded)  # its clock runs ahead: the void comes after it
    later = services.now_ms() + 2 * 10**7
    monkeypatch.setattr(services, "now_ms", lambda: later)
    rita, ravi = make_user("rita2", staff=True, role="risk"), make_user("ravi2", staff=True, role="risk")
    request = actions.request_void(table.pk, "the server lost the deal", rita)
    actions.confirm_void(request.pk, "checked", ravi)
    today = timezone.localdate()
    report = reports.takings(today, today, "INR")
    fees = report.totals["entry_fees"]
    assert fees > 0
    assert report.totals["refunds"] == fees, "every fee back"
    assert report.totals["rake"] == 0
    assert report.totals["prizes"] == 0
    alice = seeded.users["alice"]
    client.force_login(ravi)
    page = client.get(reverse("backoffice:player", args=[alice.pk])).content.decode()
    assert "Voided a game (second of two)" in page, "the void of her table is a staff action on her"


def test_wallet_report_prints_a_daily_summary(seeded):
    out = io.StringIO()
    call_command("wallet_report", "daily", "--day", DAY2.isoformat(), stdout=out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    totals = {row["what"]: int(row["amount"]) for row in rows}
    assert totals["entry_fees"] == 20000
    assert totals["splits"] == 17000
    assert totals["rake"] == 3030
    assert totals["settlements"] == 300
    assert totals["deposits"] == 0
    assert totals["withdrawals_requested"] == 45000


@pytest.mark.django_db(transaction=True)
def test_reconciliation_the_embedded_schedule_runs_at_start_up_then_every_interval(monkeypatch, settings):
    """Inside daphne (embedded mode): a run at start-up, then one per interval."""
    import asyncio

    from wallet import schedule

    naps: list[float] = []

    async def nap(seconds: float) -> None:
        naps.append(seconds)
        if len(naps) == 2:
            raise asyncio.CancelledError

    monkeypatch.setattr(schedule.asyncio, "sleep", nap)
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(schedule._every(3600.0, schedule._reconcile))
    assert naps == [3600.0, 3600.0]
    assert list(ReconcileRun.objects.order_by("at", "id").values_list("trigger", "ok")) == [
        ("start-up", True),
        ("schedule", True),
    ]
    settings.GAME_TIMERS = "celery"
    assert schedule.start_with_daphne() is False, "with Celery, beat runs it instead"


def test_reconciliation_page_shows_chips_as_chips_never_as_rupees(seeded, client, risk):
    page = client.get(reverse("backoffice:report", args=["reconcile"]), {"start": DAY1, "end": DAY3})
    body = page.content.decode()
    chips_rows = [line for line in body.splitlines() if "<td>CHIPS</td>" in line]
    assert chips_rows
    for line in chips_rows:
        assert "₹" not in line, line
        assert "chips" in line.replace("<td>CHIPS</td>", ""), line


def test_user_admin_shows_rupees_the_indian_way_and_chips_never_as_rupees(seeded, client, risk):
    alice = seeded.users["alice"]
    deposit(alice, 99_999_50)
    cashier.topup_chips(alice)
    admin_member = make_user("boss", staff=True, role="admin")
    client.force_login(admin_member)
    listing = client.get(reverse("admin:accounts_user_changelist")).content.decode()
    wallet = Account.objects.get(owner=alice, kind="user", currency="INR")
    chips = Account.objects.get(owner=alice, kind="user", currency="CHIPS")
    assert rupees(wallet.balance) in listing
    assert money(chips.balance, "CHIPS") in listing
    page = client.get(reverse("admin:accounts_user_change", args=[alice.pk])).content.decode()
    balances = page[page.index("Wallet balances") :]
    chips_cell = balances[balances.index("<td>CHIPS</td>") :][:80]
    assert "₹" not in chips_cell
    assert "chips" in chips_cell
