"""Every page is sent with a Content-Security-Policy that allows our own scripts and styles
only, and no page needs more: no inline script, no inline style, no event-handler attribute."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games import services
from games.models import Table
from tests.pages.test_pages import chips_template
from wallet.cashier import topup_chips

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.GAME_TIMERS = "off"


class Inline(HTMLParser):
    """Collects what a strict CSP would block: inline scripts and styles, handler attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        if tag == "style":
            self.found.append("<style>")
        if tag == "script":
            kind = dict(attrs).get("type") or ""
            data_only = kind in ("application/json", "application/ld+json")
            self._in_script = "src" not in names and not data_only
        if "style" in names:
            self.found.append(f"<{tag} style=...>")
        self.found.extend(f"<{tag} {name}=...>" for name in names if name.startswith("on"))
        for name, value in attrs:
            if (
                name in ("href", "src", "action")
                and value
                and value.strip().lower().startswith("javascript:")
            ):
                self.found.append(f"<{tag} {name}=javascript:>")

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.found.append(f"<script>{data.strip()[:60]}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False


def inline_parts(html: str) -> list[str]:
    parser = Inline()
    parser.feed(html)
    return parser.found


def check_page(client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    policy = response.headers.get("Content-Security-Policy", "")
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives.get("script-src") == "'self'", (url, policy)
    assert directives.get("style-src") == "'self'", (url, policy)
    assert directives.get("default-src") == "'self'", (url, policy)
    assert directives.get("frame-ancestors") == "'none'", (url, policy)
    assert "unsafe" not in policy
    if "text/html" in response.headers.get("Content-Type", ""):
        assert inline_parts(response.content.decode()) == [], url


def test_the_detector_finds_inline_code():
    found = inline_parts(
        '<style>p{}</style><p style="color:red" onclick="x()">a</p><script>alert(1)</script>'
        '<script src="/static/a.js"></script><script type="application/json">{}</script>'
    )
    assert found == ["<style>", "<p style=...>", "<p onclick=...>", "<script>alert(1)"]


def test_public_pages(client):
    for url in ["/", reverse("accounts:login"), reverse("accounts:signup"), "/api/docs/"]:
        check_page(client, url)


def test_player_pages(client, alice, bob):
    topup_chips(alice)
    topup_chips(bob)
    template = chips_template()
    services.play_now(alice, template)
    table = services.play_now(bob, template)
    client.force_login(alice)
    urls = [
        reverse("games:lobby"),
        reverse("games:history"),
        reverse("games:table", args=[table.pk]),
        reverse("wallet:home"),
        reverse("accounts:profile"),
        reverse("accounts:password_change"),
    ]
    for url in urls:
        check_page(client, url)


def test_staff_pages(client, sam, alice, bob):
    from backoffice.reports import REPORTS

    topup_chips(alice)
    topup_chips(bob)
    template = chips_template()
    services.play_now(alice, template)
    table = services.play_now(bob, template)
    sam.is_superuser = True
    sam.save(update_fields=["is_superuser"])
    client.force_login(sam)
    urls = [
        reverse("backoffice:index"),
        *(reverse("backoffice:report", args=[slug]) for slug in REPORTS),
        reverse("admin:index"),
        reverse("admin:games_table_change", args=[table.pk]),
        reverse("admin:accounts_user_change", args=[alice.pk]),
        reverse("admin:games_tabletemplate_add"),
    ]
    from django.contrib import admin

    for model in admin.site._registry:
        meta = model._meta
        urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        first = model.objects.order_by("pk").first()
        if first is not None:
            urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk]))
    for url in urls:
        check_page(client, url)
    assert Table.objects.filter(pk=table.pk).exists()


def test_no_template_has_inline_script_or_style():
    """Pages not reached above are covered here: no template in the project inlines code."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    offenders = []
    for path in root.glob("**/templates/**/*.html"):
        if ".venv" in path.parts:
            continue
        text = path.read_text()
        text = re.sub(r"{%.*?%}|{{.*?}}", "", text, flags=re.S)
        found = inline_parts(text)
        if found:
            offenders.append((str(path.relative_to(root)), found))
    assert offenders == []
