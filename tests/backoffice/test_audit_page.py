"""The audit log's page: newest first, fifty a page, filtered by staff member, player and
action, every action and target in words."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from backoffice import actions
from backoffice.models import AuditAction, AuditLog
from tests.backoffice.support import _fast_passwords, seed  # noqa: F401
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def risk(client):
    member = make_user("rita", staff=True, role="risk")
    client.force_login(member)
    return member


def rows_of(page: str) -> list[str]:
    body = page[page.index('<tbody class="audit">') : page.index("</tbody>")]
    return re.findall(r"<tr>.*?</tr>", body, re.S)


def test_the_audit_page_lists_every_staff_action_newest_first_in_words(seeded, client, risk):
    actions.ban_user(seeded.users["erin"].pk, "chargebacks from three cards", risk)
    page = client.get(reverse("backoffice:audit")).content.decode()
    rows = rows_of(page)
    assert len(rows) == AuditLog.objects.count() == 4
    assert "Banned a player" in rows[0], "newest first"
    assert "rita" in rows[0]
    assert "chargebacks from three cards" in rows[0]
    assert f'href="{reverse("backoffice:player", args=[seeded.users["erin"].pk])}"' in rows[0]
    assert ">Player erin<" in rows[0], "the player by name, not user:5"
    assert "Approved a withdrawal" in page
    shown = "".join(rows)
    assert "ban_user" not in shown, "actions in words"
    assert "approve_withdrawal" not in shown


def test_the_audit_page_filters_by_staff_member_player_and_action(seeded, client, risk):
    actions.ban_user(seeded.users["erin"].pk, "chargebacks", risk)
    url = reverse("backoffice:audit")
    mine = rows_of(client.get(url, {"staff": risk.pk}).content.decode())
    assert len(mine) == 1
    assert "Banned a player" in mine[0]
    sams = rows_of(client.get(url, {"staff": seeded.sam.pk}).content.decode())
    assert len(sams) == 3
    alice = seeded.users["alice"]
    hers = rows_of(client.get(url, {"player": "ALICE"}).content.decode())
    assert len(hers) == 1, "her withdrawal's approval names her"
    assert "Approved a withdrawal" in hers[0]
    assert rows_of(client.get(url, {"player": str(alice.pk)}).content.decode()) == hers
    rejected = rows_of(client.get(url, {"action": AuditAction.REJECT_WITHDRAWAL}).content.decode())
    assert len(rejected) == 1
    assert "name does not match the bank" in rejected[0]
    both = rows_of(client.get(url, {"staff": seeded.sam.pk, "action": AuditAction.BAN_USER}).content.decode())
    assert both == []
    unknown = client.get(url, {"player": "nobody-like-this"}).content.decode()
    assert "No player matches" in unknown


def test_the_audit_page_shows_fifty_a_page_and_keeps_the_filters_on_its_links(seeded, client, risk):
    for number in range(60):
        actions.record(risk, AuditAction.BAN_USER, f"user:{seeded.users['erin'].pk}", f"reason {number}")
    url = reverse("backoffice:audit")
    first = client.get(url, {"staff": risk.pk}).content.decode()
    assert len(rows_of(first)) == 50
    assert "reason 59" in rows_of(first)[0]
    assert f"staff={risk.pk}&amp;page=2" in first
    second = client.get(url, {"staff": risk.pk, "page": 2}).content.decode()
    assert len(rows_of(second)) == 10
    assert "<td>reason 0</td>" in rows_of(second)[-1], "the oldest last"
    assert client.get(url, {"page": "x"}).status_code == 200, "a bad page number shows the first"


def test_only_a_role_that_reads_the_audit_log_opens_it(seeded, client):
    client.force_login(make_user("helper", staff=True, role="support"))
    assert client.get(reverse("backoffice:audit")).status_code == 403
    client.force_login(make_user("cash", staff=True, role="cashier"))
    assert client.get(reverse("backoffice:audit")).status_code == 403
