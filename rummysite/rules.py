"""The rules page: docs/RULES.md, the project's rulebook, shown as HTML at ``/rules/``.

The rulebook is written in a small part of Markdown (headings, paragraphs, lists, tables, bold
and code), which this module turns into HTML itself, escaping every piece of text first.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET

from games.words import cards_in_words

RULES_PATH = Path(settings.BASE_DIR) / "docs" / "RULES.md"


def _inline(text: str) -> str:
    text = str(escape(text))
    # Card codes as players read them ("7H" -> "7♥"), as the table writes them.
    text = re.sub(r"`([^`]+)`", lambda m: f"<code>{cards_in_words(m.group(1))}</code>", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
    text = re.sub(r"\*([^*]+)\*", r"<em>\1</em>", text)
    return re.sub(r"\b(R-[A-Z0-9]+-\d+)\b", r'<span class="rule-id" id="\1">\1</span>', text, count=1)


def to_html(markdown: str) -> str:
    """The rulebook's Markdown as HTML (only the constructs the rulebook uses)."""
    out: list[str] = []
    para: list[str] = []
    items: list[str] = []
    rows: list[list[str]] = []

    def flush() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
            items.clear()
        if rows:
            head, *body = rows
            out.append(
                '<table class="data"><thead><tr>'
                + "".join(f'<th scope="col">{_inline(c)}</th>' for c in head)
                + "</tr></thead><tbody>"
                + "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in body)
                + "</tbody></table>"
            )
            rows.clear()

    for raw in markdown.splitlines():
        line = raw.rstrip()
        heading = re.match(r"^(#{1,3}) (.*)$", line)
        if heading:
            flush()
            level = len(heading.group(1))
            out.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif line.startswith("|"):
            if para or items:
                flush()
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                rows.append(cells)
        elif line.startswith("- "):
            if para or rows:
                flush()
            items.append(line[2:])
        elif line.startswith("  ") and items and line.strip():
            items[-1] += " " + line.strip()
        elif not line.strip():
            flush()
        else:
            if items or rows:
                flush()
            para.append(line.strip())
    flush()
    return "\n".join(out)


@functools.cache
def rules_html() -> SafeString:
    return mark_safe(to_html(RULES_PATH.read_text(encoding="utf-8")))  # noqa: S308 (escaped in _inline)


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """The rules of play, for players and operators; open to everyone."""
    return render(request, "rules.html", {"rules": rules_html()})
