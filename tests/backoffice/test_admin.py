"""The admin for staff: who may open it, journals that cannot be edited, and the staff actions
(reverse, approve, reject, cancel), each asking for a reason and writing one audit row."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from backoffice.models import AuditAction, AuditLog
from games import services
from games.models import Seat, Table, TableEvent
from tests.backoffice.support import _fast_passwords, deposit, play_a_deal, seed, template  # noqa: F401
from tests.conftest import make_user
from wallet.ledger import balance_of, pool_spec, user_spec
from wallet.models import Journal, JournalKind, Withdrawal
from wallet.reconcile import reconcile

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded(monkeypatch):
    return seed(monkeypatch)


def admin_pages():
    """(model, changelist url, change url of one object or None) for every registered model."""
    for model in admin.site._registry:
        meta = model._meta
        obj = model.objects.order_by("pk").first()
        change = (
            None
            if obj is None
            else reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
        )
        yield model, reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"), change


def test_a_player_cannot_open_any_admin_or_report_page(seeded, client):
    client.force_login(seeded.users["alice"])
    pages = [reverse("admin:index")]
    for _, changelist, change in admin_pages():
        pages += [changelist] + ([change] if change else [])
    assert len(pages) > 15
    for page in pages:
        response = client.get(page)
        assert response.status_code == 302, page
        assert "/admin/login/" in response["Location"], page
    for page in [
        "/backoffice/reports/",
        *(
            f"/backoffice/reports/{slug}/"
            for slug in ("rake", "payouts", "cashflow", "held", "activity", "reconcile")
        ),
    ]:
        assert client.get(page).status_code == 403, page
        assert client.get(page, {"format": "csv"}).status_code == 403, page
    client.logout()
    response = client.get("/backoffice/reports/rake/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_staff_can_open_every_admin_page(seeded, client):
    play_a_deal(seeded.users["alice"], seeded.users["bob"])
    client.force_login(seeded.sam)
    index = client.get(reverse("admin:index"))
    assert index.status_code == 200
    for model, changelist, change in admin_pages():
        if model._meta.app_label not in ("accounts", "games", "wallet", "backoffice"):
            continue  # groups and API tokens: superusers only, by Django's own permissions
        assert client.get(changelist).status_code == 200, changelist
        if change:
            response = client.get(change)
            assert response.status_code == 200, change
    assert client.get("/backoffice/reports/").status_code == 200


def test_the_admin_shows_balances_live_state_and_a_verified_shuffle(seeded, client):
    table = play_a_deal(seeded.users["alice"], seeded.users["bob"])
    client.force_login(seeded.sam)
    user_page = client.get(
        reverse("admin:accounts_user_change", args=[seeded.users["alice"].pk])
    ).content.decode()
    assert f"user:{seeded.users['alice'].pk}" in user_page
    assert f'href="/admin/games/table/{table.pk}/change/"' in user_page
    table_page = client.get(reverse("admin:games_table_change", args=[table.pk])).content.decode()
    assert "Phase <b>between</b>" in table_page
    assert "waiting for <b>pause</b>" in table_page
    deal = table.deals.get(number=1)
    deal_page = client.get(reverse("admin:games_deal_change", args=[deal.pk])).content.decode()
    assert "verified" in deal_page
    assert "NOT verified" not in deal_page
    assert "deal_over" in deal_page
    assert "dealt" in deal_page, "the replay shows private events to staff"
    # A seed that does not hash to the commitment is flagged.
    from backoffice.deals import shuffle_verdict

    assert shuffle_verdict(deal.commitment, deal.seed) == "verified"
    assert shuffle_verdict(deal.commitment, "00" * 32) == "NOT verified"
    assert shuffle_verdict(deal.commitment, "") == "not revealed yet"


@pytest.mark.parametrize("superuser", [False, True])
def test_journals_cannot_be_added_changed_or_deleted_in_the_admin(seeded, client, superuser):
    user = seeded.sam if not superuser else make_user("root", staff=True)
    if superuser:
        user.is_superuser = True
        user.save()
    client.force_login(user)
    journal = seeded.prize_journal
    before = list(Journal.objects.values_list("id", "key", "meta").order_by("id"))
    change = reverse("admin:wallet_journal_change", args=[journal.pk])
    assert client.post(change, {"key": "edited", "kind": "prize", "meta": "{}"}).status_code == 403
    assert (
        client.post(reverse("admin:wallet_journal_delete", args=[journal.pk]), {"post": "yes"}).status_code
        == 403
    )
    assert client.get(reverse("admin:wallet_journal_add")).status_code == 403
    changelist = reverse("admin:wallet_journal_changelist")
    response = client.post(
        changelist, {"action": "delete_selected", "_selected_action": [journal.pk], "post": "yes"}
    )
    assert list(Journal.objects.values_list("id", "key", "meta").order_by("id")) == before
    assert response.status_code in (200, 302)
    page = client.get(change).content.decode()
    assert 'name="_save"' not in page
    assert "Delete" not in page.split("<h1>", 1)[1].split("</form>", 1)[0]
    for name in ("entry", "account", "deposit", "withdrawal"):
        assert client.get(reverse(f"admin:wallet_{name}_add")).status_code == 403


def _act(client, changelist, action, ids, reason=None):
    data = {"action": action, "_selected_action": ids}
    if reason is not None:
        data |= {"apply": action, "reason": reason}
    return client.post(changelist, data)


def test_reversing_a_journal_in_the_admin_posts_a_new_journal_and_the_ledger_reconciles(seeded, client):
    """The journal reversed is a deposit charged back by the bank: pool money (a split payout)
    is never reversed by staff (R-MONEY-5)."""
    client.force_login(seeded.sam)
    deposit(seeded.users["erin"], 3000)
    charged_back = Journal.objects.filter(kind=JournalKind.DEPOSIT).latest("id")
    owner = charged_back.created_by
    changelist = reverse("admin:wallet_journal_changelist")
    journals, audits = Journal.objects.count(), AuditLog.objects.count()
    confirm = _act(client, changelist, "reverse_journals", [charged_back.pk])
    assert confirm.status_code == 200
    assert b"Reason" in confirm.content
    assert (Journal.objects.count(), AuditLog.objects.count()) == (journals, audits), "asking writes nothing"
    no_reason = _act(client, changelist, "reverse_journals", [charged_back.pk], reason="   ")
    assert no_reason.status_code == 400
    assert (Journal.objects.count(), AuditLog.objects.count()) == (journals, audits)
    before = balance_of(user_spec(owner.pk))
    amount = charged_back.transfers.get().amount
    done = _act(client, changelist, "reverse_journals", [charged_back.pk], reason="charged back by the bank")
    assert done.status_code == 302
    reversal = Journal.objects.get(reverses=charged_back)
    assert reversal.kind == JournalKind.REVERSAL
    assert reversal.created_by == seeded.sam
    assert reversal.meta["reason"] == "charged back by the bank"
    assert balance_of(user_spec(owner.pk)) == before - amount
    assert reconcile() == []
    log = AuditLog.objects.latest("id")
    assert (log.actor, log.action, log.target, log.reason) == (
        seeded.sam,
        AuditAction.REVERSE_JOURNAL,
        f"journal:{charged_back.pk}",
        "charged back by the bank",
    )
    assert log.details["reversal"] == reversal.key
    again = _act(client, changelist, "reverse_journals", [charged_back.pk], reason="twice")
    assert again.status_code == 302
    assert Journal.objects.filter(reverses=charged_back).count() == 1
    assert AuditLog.objects.count() == audits + 1, "a refused action leaves no audit row"
    split = Journal.objects.get(kind=JournalKind.SPLIT)
    assert (
        _act(client, changelist, "reverse_journals", [split.pk], reason="undo the split").status_code == 302
    )
    assert not Journal.objects.filter(reverses=split).exists(), "pool money is never reversed (R-MONEY-5)"


def test_approving_and_rejecting_withdrawals_in_the_admin_is_audited(seeded, client):
    client.force_login(seeded.sam)
    carol = seeded.users["carol"]
    changelist = reverse("admin:wallet_withdrawal_changelist")
    audits = AuditLog.objects.count()
    wanted = seeded.withdrawals["carol"]
    assert (
        _act(client, changelist, "approve_withdrawals", [wanted.pk], reason="documents checked").status_code
        == 302
    )
    wanted.refresh_from_db()
    assert wanted.status == Withdrawal.Status.PAID
    assert wanted.decided_by == seeded.sam
    log = AuditLog.objects.latest("id")
    assert (log.action, log.target, log.reason) == (
        AuditAction.APPROVE_WITHDRAWAL,
        f"withdrawal:{wanted.pk}",
        "documents checked",
    )
    from wallet import cashier

    second = cashier.request_withdrawal(carol, 10000)
    before = balance_of(user_spec(carol.pk))
    assert _act(client, changelist, "reject_withdrawals", [second.pk], reason="suspicious").status_code == 302
    assert balance_of(user_spec(carol.pk)) == before + 10000
    log = AuditLog.objects.latest("id")
    assert (log.action, log.target, log.reason, log.actor) == (
        AuditAction.REJECT_WITHDRAWAL,
        f"withdrawal:{second.pk}",
        "suspicious",
        seeded.sam,
    )
    # Deciding twice is refused, with no second row.
    _act(client, changelist, "reject_withdrawals", [wanted.pk], reason="again")
    assert AuditLog.objects.count() == audits + 2
    assert reconcile() == []


def test_cancelling_a_table_that_has_not_started_refunds_everyone(alice, bob, sam, client):
    tmpl = template("101 pool, 3 seats", "pool101", entry_fee=2500, seats=3)
    for user in (alice, bob):
        deposit(user, 10000)
    table = services.play_now(alice, tmpl)
    services.play_now(bob, tmpl)
    table.refresh_from_db()
    assert table.status == "starting"
    assert balance_of(pool_spec(table.pool_ref)) == 5000
    client.force_login(sam)
    changelist = reverse("admin:games_table_changelist")
    response = _act(client, changelist, "cancel_tables", [table.pk], reason="server maintenance")
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == "cancelled"
    assert table.state["phase"] == "cancelled"
    assert table.deadline is None
    assert [balance_of(user_spec(u.pk)) for u in (alice, bob)] == [10000, 10000]
    assert balance_of(pool_spec(table.pool_ref)) == 0
    assert all(seat.left_at is not None for seat in Seat.objects.filter(table=table))
    event = TableEvent.objects.filter(table=table).latest("version")
    assert (event.type, event.version, event.data["why"]) == (
        "cancelled",
        table.version,
        "server maintenance",
    )
    log = AuditLog.objects.get()
    assert (log.actor, log.action, log.target, log.reason) == (
        sam,
        AuditAction.CANCEL_TABLE,
        f"table:{table.pk}",
        "server maintenance",
    )
    assert reconcile() == []
    # Nobody can join it any more.
    from games.errors import GameError

    with pytest.raises(GameError):
        services.join(table.pk, bob)


def test_a_table_whose_game_started_is_not_cancelled(alice, bob, sam, client):
    table = play_a_deal(alice, bob)
    pool = balance_of(pool_spec(table.pool_ref))
    client.force_login(sam)
    response = _act(client, reverse("admin:games_table_changelist"), "cancel_tables", [table.pk], reason="no")
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == "playing"
    assert balance_of(pool_spec(table.pool_ref)) == pool == 5000
    assert AuditLog.objects.count() == 0
    messages = [str(m) for m in client.get(reverse("admin:games_table_changelist")).context["messages"]]
    assert any("not started" in m for m in messages)


def test_cancelling_a_21_card_table_releases_the_seats(alice, sam):
    from backoffice import actions

    tmpl = template("21 cards", "points21", point_value=10, seats=3)
    deposit(alice, 10000)
    table = services.play_now(alice, tmpl)
    assert balance_of(user_spec(alice.pk)) == 8000, "R-21-8: 200 points held"
    actions.cancel_table(table.pk, "template mispriced", sam)
    assert balance_of(user_spec(alice.pk)) == 10000
    assert Table.objects.get(pk=table.pk).status == "cancelled"
    assert AuditLog.objects.get().details["players"] == [str(alice.pk)]
    assert reconcile() == []


def test_the_audit_log_is_append_only(seeded, client):
    log = AuditLog.objects.first()
    assert log is not None
    log.reason = "rewritten"
    with pytest.raises(ValueError, match="append-only"):
        log.save()
    with pytest.raises(ValueError, match="append-only"):
        log.delete()
    for statement in ("UPDATE backoffice_auditlog SET reason = 'x'", "DELETE FROM backoffice_auditlog"):
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert AuditLog.objects.filter(reason="x").count() == 0
    client.force_login(seeded.sam)
    assert client.get(reverse("admin:backoffice_auditlog_changelist")).status_code == 200
    change = reverse("admin:backoffice_auditlog_change", args=[log.pk])
    assert client.get(change).status_code == 200
    assert client.post(change, {"reason": "edited"}).status_code == 403
    assert (
        client.post(reverse("admin:backoffice_auditlog_delete", args=[log.pk]), {"post": "yes"}).status_code
        == 403
    )


def test_template_changes_in_the_admin_are_audited(seeded, client):
    client.force_login(seeded.sam)
    tmpl = seeded.templates["101"]
    page = reverse("admin:games_tabletemplate_change", args=[tmpl.pk])
    form = client.get(page).context["adminform"].form
    data = {name: form[name].value() for name in form.fields}
    data = {key: ("" if value is None else value) for key, value in data.items()}
    data["rake_percent"] = 12
    response = client.post(page, data)
    assert response.status_code == 302, response.content[:500]
    log = AuditLog.objects.latest("id")
    assert (log.action, log.target) == (AuditAction.ADMIN_CHANGE, f"games.tabletemplate:{tmpl.pk}")
    assert "Rake percent" in log.reason
