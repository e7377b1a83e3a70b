"""The project's own rulebook, docs/RULES.md: served at /rules/, linked from the README and every
table page, with every rule id the tests cite; nothing in the project points outside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import services
from tests.live.support import make_user, template

ROOT = Path(__file__).resolve().parents[2]
RULES = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")


def rule_ids(text: str) -> set[str]:
    return set(re.findall(r"\bR-[A-Z0-9]+-\d+\b", text))


def test_the_rulebook_has_every_rule_id_the_tests_cite():
    cited = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        cited |= {
            m.replace("_", "-") for m in re.findall(r"R_[A-Z0-9]+_\d+", path.read_text(encoding="utf-8"))
        }
    assert cited <= rule_ids(RULES), sorted(cited - rule_ids(RULES))
    assert len(rule_ids(RULES)) == 88


@pytest.mark.django_db
def test_the_rules_page_shows_the_rulebook(client):
    response = client.get("/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    for rule in ("R-TURN-2", "R-21-9", "R-MONEY-5", "R-POOL-8"):
        assert f'id="{rule}"' in html
    assert "<script" not in html.split("<main", 1)[-1].split("</main>", 1)[0]
    assert "&lt;" not in html or "<code>" in html


@pytest.mark.django_db
def test_every_table_page_links_to_the_rules(client):
    alice = make_user("alice")
    table = services.play_now(alice, template())
    client.force_login(alice)
    html = client.get(f"/games/tables/{table.pk}/").content.decode()
    assert 'href="/rules/"' in html


def test_the_readme_links_the_rulebook_and_nothing_points_outside_the_repository():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/RULES.md)" in readme
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        assert "../shared" not in path.read_text(encoding="utf-8"), path


@pytest.mark.django_db
def test_the_rules_page_writes_cards_as_players_read_them__R_CARD_1(client):
    html = client.get("/rules/").content.decode()
    assert "(<code>7♥</code>, <code>10♠</code>, <code>A♣</code>)" in html
    assert "the printed joker is <code>JKR</code>" in html
    assert "<code>7H</code>" not in html
    assert "checked by a test that names its" not in html
