"""docs/PROTOCOL.md is enough to write a client: every error code the server can send, and every
table and deal phase, is listed there with its meaning."""

from __future__ import annotations

import re
from pathlib import Path

from games.engine import table as engine
from games.engine.deal import Phase as DealPhase
from wallet.errors import Code

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "PROTOCOL.md").read_text()
RAISED = re.compile(
    r"""(?:IllegalAction|InvalidAction|GameError|ActionError|send_error|refuse\(\s*\w+,)\(?\s*["']([a-z_]+)["']"""
)


def raised_codes() -> set[str]:
    codes: set[str] = set()
    for folder in ("games", "wallet", "accounts"):
        for path in (ROOT / folder).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            codes |= set(RAISED.findall(path.read_text()))
    codes |= {f"missing_{name}" for name in ("source", "card", "groups")}  # built with an f-string
    codes |= {code.value for code in Code if code not in (Code.INSUFFICIENT_FUNDS, Code.BELOW_MINIMUM)}
    return codes


def documented(code: str) -> bool:
    return f"`{code}`" in DOC


def test_every_error_code_the_server_sends_is_documented():
    codes = raised_codes()
    assert {"not_your_turn", "card_not_in_hand", "too_large", "login_required"} <= codes, "the scan works"
    missing = sorted(code for code in codes if not documented(code))
    assert not missing, f"add these error codes to docs/PROTOCOL.md, 'Error codes': {missing}"


def test_every_table_phase_wait_and_deal_phase_is_documented():
    names = [phase.value for phase in engine.Phase]
    names += [phase.value for phase in DealPhase]
    names += ["players", "countdown", "move", "decisions", "pause"]
    missing = [name for name in names if f"`{name}`" not in DOC]
    assert not missing, f"add these phases to docs/PROTOCOL.md, 'Phases': {missing}"


def test_every_event_type_the_server_sends_is_in_the_event_table():
    """Points and deals events included (chips_moved, tie_breaker, settled, topped_up, stood_up):
    each has its row in "Event types", with its data."""
    sent: set[str] = set()
    pattern = re.compile(r'\bEvent\(\s*"([a-z_]+)"(?:\s+if\s[^"]*?\selse\s+"([a-z_]+)")?')
    for source in (ROOT / "games").rglob("*.py"):
        for match in pattern.finditer(source.read_text()):
            sent.update(name for name in match.groups() if name)
    assert {"chips_moved", "tie_breaker", "settled", "topped_up", "stood_up"} <= sent, "the scan works"
    table = DOC.split("## Event types", 1)[1].split("\n## ", 1)[0]
    rows = set(re.findall(r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)?", table, re.MULTILINE))
    listed = {name for row in rows for name in row if name}
    missing = sorted(sent - listed)
    assert not missing, f"add these events to docs/PROTOCOL.md, 'Event types': {missing}"
