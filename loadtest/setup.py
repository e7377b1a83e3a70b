"""Seat the load test's players: practice (chips) tables of a load-test template, each full and
playing, and a session cookie per player, written straight to the server's database.

This is the only part of the harness that imports Django: it runs in the harness's process
with the same settings (``DATABASE_URL``, ``SQLITE_PATH``) as the server under test, so the
players it seats are the ones the server knows. Nothing else of the server is used: the
bots then play only through the websocket protocol (docs/PROTOCOL.md).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from dataclasses import dataclass
from typing import Any

#: The load test's template: 101 pool for practice chips, long timers so that no move of a
#: player on a busy machine times out during a step.
TEMPLATE = {
    "variant": "pool101",
    "currency": "CHIPS",
    "entry_fee": 100,
    "move_seconds": 120,
    "extra_seconds": 0,
    "show_seconds": 120,
    "start_countdown_seconds": 1,
    "bots_allowed": False,
    "active": False,  # never offered in the lobby
}


@dataclass(frozen=True)
class Seat:
    table: int
    player: str
    cookie: str


def django_setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")
    os.environ.setdefault("GAME_TIMERS", "off")  # this process never runs timers itself
    # The harness's own actions (the own work's 600, the seating) would each print the
    # server's info line between the report's: the server logs them, this process need not.
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    # Its own database connections show as the harness's in pg_stat_activity, not the site's.
    os.environ.setdefault("DB_APPLICATION_NAME", "rummy-loadtest")
    import django

    django.setup()


def seat_tables(count: int, seats: int) -> list[list[Seat]]:
    """``count`` new full tables of ``seats`` players each, playing their first deal."""
    django_setup()
    from accounts.models import User
    from games import services
    from games.models import TableTemplate
    from wallet.cashier import topup_chips

    template, _ = TableTemplate.objects.get_or_create(
        name=f"Load test, {seats} seats", seats=seats, defaults=TEMPLATE
    )
    run = secrets.token_hex(4)
    tables: list[list[Seat]] = []
    for number in range(count):
        players = []
        for position in range(seats):
            user = User.objects.create_user(f"load-{run}-{number}-{position}")
            topup_chips(user)
            players.append(user)
        table = services.open_table(template)
        for user in players:
            table = services.join(table.pk, user)
        tables.append([Seat(table=table.pk, player=str(user.pk), cookie=signed_in(user)) for user in players])
    return tables


def signed_in(user: Any) -> str:
    """A new session of the site's engine in which ``user`` is signed in, as logging in makes
    one: its key, the session cookie's value."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.utils.module_loading import import_string

    session = import_string(settings.SESSION_ENGINE + ".SessionStore")()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    assert session.session_key is not None
    return str(session.session_key)


def arrival_template(seats: int) -> int:
    """The template players who arrive through the site sit down at with play now (``--arrive``):
    the load test's, but offered, so that play now takes it. A table of it still waiting for
    players (a run that stopped while seating) is cancelled first: play now would fill it
    before opening the step's own."""
    django_setup()
    from games import services
    from games.errors import GameError
    from games.models import Table, TableStatus, TableTemplate

    template, _ = TableTemplate.objects.get_or_create(
        name=f"Load test, arriving, {seats} seats", seats=seats, defaults={**TEMPLATE, "active": True}
    )
    for table_id in Table.objects.filter(template=template, status=TableStatus.WAITING).values_list(
        "pk", flat=True
    ):
        try:
            services.cancel(table_id, "the load test's step is over")
        except GameError:
            continue  # started or ended meanwhile
    return int(template.pk)


def end_tables(layout: list[list[Seat]]) -> int:
    """Void the games of a finished step (cancel those that never started), so that they do not
    go on timing out on the server under the next steps; returns how many were ended."""
    from games import services
    from games.errors import GameError

    ended = 0
    for table_id in {seat.table for seats in layout for seat in seats}:
        try:
            services.void(table_id, "the load test's step is over")
        except GameError as error:
            if error.code != "not_playing":
                continue
            try:
                services.cancel(table_id, "the load test's step is over")
            except GameError:
                continue  # over already
        ended += 1
    return ended


def vacuum_if_autovacuum_is_off() -> bool:
    """On a PostgreSQL server that runs without autovacuum (this machine's CI configuration),
    vacuum the tables a step writes, as autovacuum would have: otherwise every step inherits
    the dead rows of the steps before it (a table's row is rewritten at each move, with new
    index entries, since its deadline moves), and a run's later steps measure the bloat of its
    earlier ones. True if it vacuumed."""
    from django.apps import apps
    from django.db import connection

    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        if cursor.fetchone()[0] == "on":
            return False
        tables = [
            apps.get_model(label)._meta.db_table
            for label in ("games.Table", "games.Seat", "games.TableEvent", "games.ActionReceipt")
        ]
        cursor.execute("VACUUM (ANALYZE) " + ", ".join(connection.ops.quote_name(t) for t in tables))
    return True


@dataclass(frozen=True)
class Entrant:
    """A tournament's player: their id, a session cookie (the websockets) and an API token
    (registration over HTTP)."""

    player: str
    cookie: str
    token: str


def entrants(count: int) -> list[Entrant]:
    """``count`` new players with chips, a session and an API token each."""
    django_setup()
    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from wallet.cashier import topup_chips

    run = secrets.token_hex(4)
    out = []
    for number in range(count):
        user = User.objects.create_user(f"tour-{run}-{number}")
        topup_chips(user)
        out.append(
            Entrant(player=str(user.pk), cookie=session_of(user), token=Token.objects.create(user=user).key)
        )
    return out


def session_of(user: object) -> str:
    """A logged-in session for ``user``, as the log-in page would make it: its key."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.utils.module_loading import import_string

    store_class = import_string(settings.SESSION_ENGINE + ".SessionStore")
    session = store_class()
    session[SESSION_KEY] = str(user.pk)  # type: ignore[attr-defined]
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()  # type: ignore[attr-defined]
    session.create()
    assert session.session_key is not None
    return str(session.session_key)


def open_tournament(players: int, table_size: int, qualify: int, move_seconds: int) -> int:
    """A practice sit-and-go of exactly ``players`` (it starts as the last registers), a 10-chip
    buy-in through the ledger, its tables' timers short between deals."""
    django_setup()
    from games.models import TableTemplate
    from tournaments import services

    tournament = services.create(
        name=f"Load test, {players} players",
        buy_in=10_00,
        min_players=players,
        max_players=players,
        table_size=table_size,
        qualify=qualify,
        prize_bps=(5_000, 3_000, 2_000),
        move_seconds=move_seconds,
    )
    TableTemplate.objects.filter(pk=tournament.template_id).update(
        extra_seconds=0, show_seconds=move_seconds, start_countdown_seconds=1
    )
    return int(tournament.pk)


def end_tournament(tournament_id: int) -> str:
    """Void the tournament once measured (its tables too), the buy-ins given back; its status."""
    from tournaments import services
    from tournaments.models import Tournament

    with contextlib.suppress(services.TournamentError):  # over already, or never started
        services.void(tournament_id, "the load test is over")
    return str(Tournament.objects.get(pk=tournament_id).status)
