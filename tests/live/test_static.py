"""With DEBUG off, as ``make run-prod`` serves: ``collectstatic``, then daphne with WhiteNoise.
Every CSS and JS file a page links answers 200 under its hashed name with a far-future cache
header, and so does every module those scripts import."""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from tests.live.stack import ROOT, Stack, get
from tests.live.support import make_user, seat, session_cookie

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("live_db")]

PRODUCTION = {
    "DEBUG": "0",
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_SSL_REDIRECT": "0",
    "GAME_TIMERS": "off",
    "REDIS_URL": "",
    # Staff here have no TOTP device; the TOTP gate has its own tests (tests/backoffice/test_staff_totp.py).
    "STAFF_TOTP_REQUIRED": "0",
}
#: A module import: ``import x from "./a.js"``, ``export * from './b.js'``, ``import("./c.js")``.
IMPORTS = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+\.m?js)["']""")
CSS_URLS = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)""")


class Assets(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script" and values.get("src"):
            self.urls.append(str(values["src"]))
        if (
            tag == "link"
            and values.get("href")
            and (values.get("rel") or "") in ("stylesheet", "modulepreload")
        ):
            self.urls.append(str(values["href"]))


@pytest.fixture
def production(tmp_path: Path):
    static_root = tmp_path / "static"
    from django.conf import settings

    # The test's own key, so the sessions it makes are the server's too.
    stack = Stack(tmp_path, STATIC_ROOT=str(static_root), SECRET_KEY=settings.SECRET_KEY, **PRODUCTION)
    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=ROOT,
        env=stack.env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert collected.returncode == 0, collected.stderr[-3000:]
    try:
        yield stack, stack.daphne()
    finally:
        stack.close()


def fetch_assets(port: int, page: str, cookie: str, seen: dict[str, int]) -> list[str]:
    status, html, headers = get_with_cookie(port, page, cookie)
    assert status == 200, (page, status)
    assert "content-security-policy" in headers
    parser = Assets()
    parser.feed(html)
    queue = [urllib.parse.urljoin(page, url) for url in parser.urls]
    assert queue, f"{page} links no CSS or JS"
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        code, text, asset_headers = get(port, url)
        seen[url] = code
        assert code == 200, (page, url, code)
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", url), f"{url} is not under a hashed name"
        assert "max-age=315360000" in asset_headers.get("cache-control", ""), (url, asset_headers)
        if url.endswith(("js", "mjs")):
            queue.extend(urllib.parse.urljoin(url, found) for found in IMPORTS.findall(text))
        if url.endswith(".css"):
            queue.extend(
                urllib.parse.urljoin(url, found)
                for found in CSS_URLS.findall(text)
                if not found.startswith(("data:", "#"))
            )
    return parser.urls


def get_with_cookie(port: int, path: str, cookie: str) -> tuple[int, str, dict[str, str]]:
    import urllib.request

    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Cookie": cookie})
    try:
        with urllib.request.urlopen(request, timeout=15) as response:  # noqa: S310 (our own server)
            assert urllib.parse.urlsplit(response.url).path == path, f"{path} sent to {response.url}"
            return (
                response.status,
                response.read().decode(),
                {k.lower(): v for k, v in response.headers.items()},
            )
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), {k.lower(): v for k, v in error.headers.items()}


def test_every_css_and_js_a_page_links_is_served_with_debug_off(production):
    stack, port = production
    alice, bob = make_user("alice"), make_user("bob")
    table = seat([alice, bob], seats=2, name="101 for two")
    staff = make_user("sam")
    staff.is_staff = staff.is_superuser = True
    staff.save(update_fields=["is_staff", "is_superuser"])
    seen: dict[str, int] = {}
    pages = {
        "": ["/", reverse("accounts:login"), reverse("accounts:signup")],
        session_cookie(alice): [
            reverse("games:lobby"),
            reverse("games:table", args=[table.pk]),
            reverse("wallet:home"),
            reverse("games:history"),
        ],
        session_cookie(staff): [
            reverse("backoffice:report", args=["rake"]),
            "/api/docs/",
            reverse("admin:index"),
        ],
    }
    linked = []
    for cookie, urls in pages.items():
        for page in urls:
            linked += fetch_assets(port, page, cookie, seen)
    assert any("/table/main." in url for url in linked), "the table page's script was checked"
    assert all(code == 200 for code in seen.values())
    # The compressed copies are there for WhiteNoise to send to browsers that take them.
    assert list((Path(stack.env["STATIC_ROOT"])).glob("table/main.*.js.gz"))


def test_module_imports_are_rewritten_to_hashed_names(tmp_path):
    """support_js_module_import_aggregation: a module importing another gets its hashed name."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "lib.js").write_text("export const answer = 42;\n")
    (source / "main.js").write_text('import { answer } from "./lib.js";\nexport * from "./lib.js";\n')
    target = tmp_path / "out"
    env = {
        **{k: v for k, v in PRODUCTION.items() if k != "REDIS_URL"},
        "SECRET_KEY": "a-test-only-production-key-" + "x" * 40,
        "STATIC_ROOT": str(target),
    }
    import os

    code = (
        "import django, sys; from django.conf import settings; django.setup();"
        f"settings.STATICFILES_DIRS = [{str(source)!r}];"
        "from django.core.management import call_command;"
        "call_command('collectstatic', '--noinput', verbosity=0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "rummysite.settings", **env},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    main = next(p for p in target.glob("main.*.js"))
    lib = next(p for p in target.glob("lib.*.js"))
    text = main.read_text()
    assert f'from "./{lib.name}"' in text
    assert text.count(lib.name) == 2
