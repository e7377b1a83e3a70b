"""A staff member whose role lacks a page's permission gets a page in the back office's frame
saying, in words, what is missing, which roles have it and who gives roles (still a 403)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.backoffice.support import _fast_passwords  # noqa: F401
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss(db):
    """A member of the admin role: who gives roles."""
    return make_user("boss", staff=True, role="admin")


def test_a_cashier_opening_live_tables_is_told_the_permission_the_roles_and_who_grants_them(client, boss):
    client.force_login(make_user("cash", staff=True, role="cashier"))
    response = client.get(reverse("backoffice:tables"))
    assert response.status_code == 403
    page = response.content.decode()
    assert 'class="report-nav backoffice-nav"' in page, "in the back office's frame"
    assert "Can view table" in page, "the permission, in words"
    assert "games.view_table" not in page, "no codes"
    assert "Support, Risk and Admin" in page, "the roles that have it"
    assert "Cashier" in page, "the role they have"
    assert "boss" in page, "who gives roles"


@pytest.mark.parametrize(
    ("role", "url", "needed"),
    [
        ("support", "/backoffice/reports/rake/", "Can read the reports"),
        ("support", "/backoffice/voids/", "Can ask for, or confirm, the void of a running game"),
        ("support", "/backoffice/withdrawals/", "Can view withdrawal"),
        ("support", "/backoffice/players/1/statement/", "Can view entry"),
    ],
)
def test_every_back_office_refusal_says_what_is_missing(client, boss, role, url, needed):
    client.force_login(make_user("member", staff=True, role=role))
    response = client.get(url)
    assert response.status_code == 403
    page = response.content.decode()
    assert needed in page
    assert "boss" in page


def test_a_staff_member_with_no_role_is_told_they_have_none(client, boss):
    client.force_login(make_user("nobody", staff=True, role=None))
    page = client.get(reverse("backoffice:home")).content.decode()
    assert "no staff role yet" in page
    assert "boss" in page


def test_a_player_is_told_the_back_office_is_for_staff_and_is_not_shown_who_the_staff_are(client, boss):
    client.force_login(make_user("alice"))
    response = client.get(reverse("backoffice:home"))
    assert response.status_code == 403
    page = response.content.decode()
    assert "for staff only" in page
    assert "boss" not in page
    assert "backoffice-nav" not in page
