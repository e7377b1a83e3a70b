"""Logs an operator can search: one JSON line per request and per table action, and never a
card, even when a player sends one."""

from __future__ import annotations

import io
import json
import logging
import os
import re
from collections.abc import Iterator

import pytest

from games import services
from games.errors import GameError
from games.models import Table
from rummysite.logs import JsonFormatter
from tests.conftest import run_python
from tests.live.support import hand_of, make_user, seat, turn_of

pytestmark = pytest.mark.django_db

#: A card as the engine writes it (7H, TS, AC, the printed joker PJ).
CARD = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK][SHDC]|PJ)(?![A-Za-z0-9])")


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """Everything logged at INFO and above, written as the site writes it (one JSON a line)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def lines(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_the_card_pattern_finds_cards():
    assert CARD.findall('{"hand": ["7H", "TS"], "x": "PJ"}') == ["7H", "TS", "PJ"]
    assert CARD.findall('{"level": "INFO", "message": "table 3: draw applied"}') == []


def test_a_deal_logs_one_json_line_per_action_and_no_card(json_log, settings):
    settings.GAME_TIMERS = "off"
    alice, bob = make_user("alice"), make_user("bob")
    users = {str(alice.pk): alice, str(bob.pk): bob}
    table = seat([alice, bob], seats=2, name="101 for two")
    json_log.seek(0)
    json_log.truncate()
    done: list[tuple[str, int, str]] = []
    for _ in range(4):
        mover = users[turn_of(table.pk)]
        services.act(table.pk, mover, {"type": "draw", "source": "closed"})
        done.append(("draw", mover.pk, "applied"))
        card = hand_of(table.pk, mover)[-1]
        services.act(table.pk, mover, {"type": "discard", "card": card})
        done.append(("discard", mover.pk, "applied"))
    mover = users[turn_of(table.pk)]
    other = next(user for user in users.values() if user != mover)
    stranger = next(code for code in ("2C", "3C", "4C", "5C", "6C") if code not in hand_of(table.pk, other))
    with pytest.raises(GameError):
        services.act(table.pk, other, {"type": "discard", "card": stranger})  # not their turn
    done.append(("discard", other.pk, "not_your_turn"))
    services.act(table.pk, mover, {"type": "drop"})  # two players: the deal is over
    done.append(("drop", mover.pk, "applied"))

    logged = [line for line in lines(json_log) if line["logger"] == "games.actions"]
    assert [(line["action"], line["user"], line["outcome"]) for line in logged] == done
    for line in logged:
        assert line["table"] == table.pk
        assert line["pid"] == os.getpid()  # which daphne wrote it, when several serve the port
        assert isinstance(line["duration_ms"], float)
        assert line["level"] == "INFO"
    assert logged[-1]["version"] == Table.objects.get(pk=table.pk).version
    assert CARD.findall(json_log.getvalue()) == [], "no card code in the log"


def test_one_json_line_per_request(client, alice, json_log):
    client.force_login(alice)
    client.get("/games/")
    client.get("/healthz?secret=do-not-log")
    requests = [line for line in lines(json_log) if line["logger"] == "rummysite.request"]
    assert [(r["method"], r["path"], r["user"]) for r in requests] == [
        ("GET", "/games/", alice.pk),
        ("GET", "/healthz", alice.pk),
    ]
    assert requests[0]["status"] == 200
    assert isinstance(requests[0]["duration_ms"], float)
    assert "do-not-log" not in json_log.getvalue()


def test_sentry_is_off_without_a_dsn_and_on_with_one():
    import sentry_sdk

    assert not sentry_sdk.get_client().is_active()
    code = "import django; django.setup(); import sentry_sdk; print(sentry_sdk.get_client().is_active())"
    result = run_python(code, SENTRY_DSN="https://key@127.0.0.1:9/1")
    assert result.stdout.strip() == "True", result.stderr[-2000:]


def test_the_timer_ticks_routine_lines_are_left_out_and_nothing_else():
    """Beat's tick comes every second: its "sent", "received" and "succeeded" lines at INFO
    would be three lines a second. Its warnings and every other task's lines stay."""
    from django.conf import settings

    from rummysite.logs import RoutineTicks

    def record(level: int, message: str, *args: object) -> logging.LogRecord:
        return logging.LogRecord("celery.app.trace", level, __file__, 1, message, args, None)

    quiet = RoutineTicks()
    assert not quiet.filter(
        record(logging.INFO, "Scheduler: Sending due task timers-tick (games.tasks.tick)")
    )
    assert not quiet.filter(
        record(logging.INFO, "Task %s[%s] succeeded in 0.01s", "games.tasks.tick", "ab12")
    )
    assert quiet.filter(record(logging.WARNING, "Task %s[%s] retry", "games.tasks.tick", "ab12"))
    assert quiet.filter(record(logging.INFO, "Task %s[%s] received", "games.tasks.play_bots", "cd34"))
    assert settings.LOGGING["handlers"]["console"]["filters"] == ["routine_ticks"]
    assert settings.CELERY_BEAT_SCHEDULE["timers-tick"]["task"] == "games.tasks.tick"
