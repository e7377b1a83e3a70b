"""Staff roles: the four groups, card secrecy in every staff page during a
live deal, staff kept off money tables, every staff action audited, refunds of started pool
games refused (R-MONEY-5, R-MONEY-7)."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.urls import reverse

from backoffice import actions
from backoffice.models import AuditAction, AuditLog
from backoffice.roles import ROLES
from games import services
from games.errors import GameError
from games.models import Deal, Seat, Table, TableEvent
from tests.backoffice.support import _fast_passwords, deposit, play_a_deal, seed, template  # noqa: F401
from tests.conftest import make_user
from wallet.errors import WalletError
from wallet.models import Journal, JournalKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded(monkeypatch):
    return seed(monkeypatch)


def test_staff_roles_are_groups_made_by_a_data_migration():
    groups = {group.name: group for group in Group.objects.all()}
    assert set(ROLES) <= set(groups)
    perms = {
        name: {f"{p.content_type.app_label}.{p.codename}" for p in groups[name].permissions.all()}
        for name in ROLES
    }
    assert "backoffice.decide_withdrawal" in perms["cashier"]
    assert "backoffice.reverse_journal" not in perms["cashier"]
    assert "backoffice.reverse_journal" in perms["risk"]
    assert "backoffice.ban_user" in perms["risk"]
    assert perms["support"] >= {"accounts.view_user", "games.view_table"}
    assert not any(p.startswith("wallet.") for p in perms["support"]), "support reads players and tables"
    assert "accounts.change_user" in perms["admin"]
    assert "games.change_tabletemplate" in perms["admin"]


def test_staff_roles_a_staff_member_without_a_role_sees_nothing_and_acts_on_nothing(seeded, client):
    nobody = make_user("nobody", staff=True, role=None)
    client.force_login(nobody)
    assert client.get(reverse("admin:games_table_changelist")).status_code == 403
    assert client.get("/backoffice/reports/rake/").status_code == 403
    withdrawal = seeded.withdrawals["carol"]
    with pytest.raises(WalletError, match="role"):
        actions.approve_withdrawal(withdrawal.pk, "looks fine", nobody)


def test_staff_roles_support_reads_tables_but_not_the_ledger_or_actions(seeded, client):
    helper = make_user("helper", staff=True, role="support")
    client.force_login(helper)
    assert client.get(reverse("admin:games_table_changelist")).status_code == 200
    assert client.get(reverse("admin:wallet_journal_changelist")).status_code == 403
    page = client.get(reverse("admin:games_table_changelist")).content.decode()
    assert "cancel_tables" not in page, "the action is offered only to roles that may cancel"
    cashier = make_user("cashy", staff=True, role="cashier")
    with pytest.raises(WalletError, match="role"):
        actions.reverse_journal(Journal.objects.filter(kind=JournalKind.DEPOSIT).first(), "oops", cashier)


def _secrets(table: Table) -> list[str]:
    """Texts that must not appear in any staff page while the deal runs: the seed, each hand
    and the closed pile, in the ways a page could render them (JSON, Python repr, escaped)."""
    deal = table.state["deal"]
    found = [deal["seed"]]
    for cards in [seat["hand"] for seat in deal["seats"]] + [deal["closed_pile"][:6]]:
        for text in (json.dumps(cards), repr(cards), ", ".join(cards), " ".join(cards), "".join(cards)):
            found += [text, html.escape(text), html.escape(text, quote=False)]
    return found


def _admin_urls(live: Table) -> list[str]:
    urls = [reverse("admin:index")]
    for model, model_admin in admin.site._registry.items():
        meta = model._meta
        base = f"admin:{meta.app_label}_{meta.model_name}"
        urls.append(reverse(f"{base}_changelist"))
        if model_admin.search_fields:
            urls.append(reverse(f"{base}_changelist") + f"?q={live.pk}")
        for pk in model.objects.values_list("pk", flat=True)[:400]:
            urls += [reverse(f"{base}_change", args=[pk]), reverse(f"{base}_history", args=[pk])]
    urls += [
        f"/admin/autocomplete/?app_label=games&model_name=seat&field_name=user&term={live.pk}",
        "/backoffice/reports/",
    ]
    # The daily-work pages: live tables, players (search, page, statement and CSV), withdrawals.
    urls += ["/backoffice/", "/backoffice/tables/", "/backoffice/voids/", "/backoffice/withdrawals/"]
    urls += ["/backoffice/audit/"]
    urls += [f"/backoffice/players/?q={q}" for q in ("a", live.pk, "")]
    for pk in Seat.objects.filter(table=live).values_list("user_id", flat=True):
        urls += [f"/backoffice/players/{pk}/", f"/backoffice/players/{pk}/statement/"]
        urls += [f"/backoffice/players/{pk}/statement/?format=csv"]
        urls += [
            f"/backoffice/players/{pk}/statement/reverse/{journal}/"
            for journal in Journal.objects.filter(entries__account__owner_id=pk).values_list("pk", flat=True)
        ]
    for slug in ("takings", "rake", "payouts", "cashflow", "held", "activity", "reconcile"):
        urls += [f"/backoffice/reports/{slug}/", f"/backoffice/reports/{slug}/?format=csv"]
    urls += [
        "/api/lobby/",
        f"/api/tables/{live.pk}/",
        f"/api/tables/{live.pk}/events/",
        "/api/history/",
        "/api/staff/withdrawals/",
        "/api/staff/reports/rake/",
    ]
    urls += [f"/api/history/deals/{pk}/" for pk in Deal.objects.values_list("pk", flat=True)]
    urls += [f"/api/staff/journals/{pk}/" for pk in Journal.objects.values_list("pk", flat=True)]
    return urls


def live_deal(seeded) -> Table:
    """Deal 1 over (revealed), deal 2 dealt and running."""
    table = play_a_deal(seeded.users["alice"], seeded.users["bob"])
    assert services.expire(table.pk, table.version, at=services.now_ms() + 10**7)
    table.refresh_from_db()
    assert table.state["phase"] == "playing"
    assert table.state["deal_number"] == 2
    return table


def test_card_secrecy_no_staff_page_shows_a_hidden_card_or_the_unrevealed_seed(seeded, client):
    table = live_deal(seeded)
    superuser_like = make_user("everything", staff=True, role="admin")
    for role in ROLES:
        superuser_like.groups.add(Group.objects.get(name=role))
    client.force_login(superuser_like)
    secrets = _secrets(table)
    urls = _admin_urls(table)
    assert len(urls) > 100
    for url in urls:
        response = client.get(url)
        assert response.status_code in (200, 302, 400, 403, 404), (url, response.status_code)
        body = response.content.decode()
        for secret in secrets:
            assert secret not in body, (url, secret)
    # Finished deal 1 is revealed: its seed shows on its page.
    over = Deal.objects.get(table=table, number=1)
    assert over.seed
    assert over.seed in client.get(reverse("admin:games_deal_change", args=[over.pk])).content.decode()


def test_card_secrecy_admin_lookups_into_state_and_event_data_are_refused(seeded, client):
    table = live_deal(seeded)
    client.force_login(seeded.sam)
    seed_hex = table.state["deal"]["seed"] if table.state.get("deal") else "0"
    probes = [
        ("games_table", f"state__deal__seed__startswith={seed_hex[0]}"),
        ("games_table", "state__deal__seats__0__hand__contains=AH"),
        ("games_tableevent", "data__hand__contains=AH"),
        ("games_deal", f"seed__startswith={seed_hex[0]}"),
        ("games_deal", "result__winner=1"),
    ]
    for name, query in probes:
        response = client.get(reverse(f"admin:{name}_changelist") + "?" + query)
        assert response.status_code == 400, (name, query, response.status_code)


def test_card_secrecy_a_private_event_shows_its_data_only_after_its_deal(seeded, client):
    table = live_deal(seeded)
    client.force_login(seeded.sam)
    dealt = list(TableEvent.objects.filter(table=table, type="dealt").order_by("version"))
    over = TableEvent.objects.filter(table=table, type="deal_over").order_by("version").first()
    finished = [e for e in dealt if e.version < over.version]
    running = [e for e in dealt if e.version > over.version]
    assert finished
    page = client.get(reverse("admin:games_tableevent_change", args=[finished[0].pk])).content.decode()
    assert re.search(r"\b" + finished[0].data["hand"][0] + r"\b", page)
    for event in running:
        page = client.get(reverse("admin:games_tableevent_change", args=[event.pk])).content.decode()
        assert "hidden until the deal is over" in page
        assert json.dumps(event.data["hand"]) not in page
        assert repr(event.data["hand"]) not in page


def test_staff_cannot_join_money_tables(seeded):
    sam = seeded.sam
    deposit(sam, 100000)
    tmpl = template("101 pool INR", "pool101", entry_fee=2500, seats=2)
    with pytest.raises(GameError) as refused:
        services.play_now(sam, tmpl)
    assert refused.value.code == "staff_no_money_play"
    table = services.open_table(tmpl)
    with pytest.raises(GameError) as refused:
        services.join(table.pk, sam)
    assert refused.value.code == "staff_no_money_play"
    from wallet import cashier

    cashier.topup_chips(sam)
    practice = template("101 pool chips", "pool101", entry_fee=100, seats=2, currency="CHIPS")
    assert services.play_now(sam, practice).pk


def test_staff_cannot_join_money_tables_through_the_api(seeded):
    from tests.api.support import client_for

    tmpl = template("101 pool INR api", "pool101", entry_fee=2500, seats=2)
    response = client_for(seeded.sam).post(f"/api/templates/{tmpl.pk}/play/", format="json")
    assert response.status_code in (400, 403, 409), response.content
    assert response.json()["error"] == "staff_no_money_play"


def test_staff_actions_no_reversal_refunds_a_fee_or_skips_the_rake__R_MONEY_5_R_MONEY_7(seeded):
    """R-MONEY-5, R-MONEY-7: after a pool game started only the void returns fees."""
    for kind in (JournalKind.ENTRY_FEE, JournalKind.PRIZE, JournalKind.SPLIT):
        journal = Journal.objects.filter(kind=kind).first()
        assert journal is not None, kind
        before = Journal.objects.count()
        with pytest.raises(WalletError, match="cannot be reversed"):
            actions.reverse_journal(journal, "winner colluded", seeded.sam)
        assert Journal.objects.count() == before


def test_staff_actions_are_all_audited_with_who_and_why_including_bans(seeded, client):
    risk = make_user("risky", staff=True, role="risk")
    erin = seeded.users["erin"]
    audits = AuditLog.objects.count()
    actions.ban_user(erin.pk, "chip dumping ring", risk)
    erin.refresh_from_db()
    assert not erin.is_active
    log = AuditLog.objects.latest("id")
    assert (log.actor, log.action, log.target, log.reason) == (
        risk,
        AuditAction.BAN_USER,
        f"user:{erin.pk}",
        "chip dumping ring",
    )
    with pytest.raises(WalletError):
        actions.ban_user(seeded.sam.pk, "no", risk)
    with pytest.raises(WalletError, match="reason"):
        actions.unban_user(erin.pk, "\u200b \u200b", risk)
    actions.unban_user(erin.pk, "appeal accepted", risk)
    assert AuditLog.objects.count() == audits + 2
