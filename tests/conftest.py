"""Fixtures for the Django tests: the personas as users, and timers off.

Timers are off in every test (``GAME_TIMERS=off``): a write schedules no deadline task and no
bot move, so no test depends on a broker's timing or leaves messages in Redis. A test of the
timers turns its backend on itself (``settings.GAME_TIMERS = "celery"``), and the tests that
start their own servers give those servers their own ``GAME_TIMERS``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from accounts.personas import PLAYERS, demo_password

#: An attribute that loads or links something from another host (a CDN, say).
_OFF_SITE = re.compile(
    r"""\b(?:src|href|action|srcset)\s*=\s*["']?\s*(?:[a-z][a-z0-9+.-]*:)?//""", re.IGNORECASE
)


def terminate_backend(pid: int) -> None:
    """End a PostgreSQL backend from another connection, as a server restart would for it."""
    import psycopg
    from django.db import connection

    params = connection.get_connection_params()
    with psycopg.connect(
        host=params.get("host") or "localhost",
        port=params.get("port") or 5432,
        user=params.get("user"),
        dbname=params["dbname"],
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def off_site(html: str) -> list[str]:
    """Every place ``html`` loads or links another host: the site serves everything itself."""
    return [match.group(0) for match in _OFF_SITE.finditer(html)]


@pytest.fixture
def money_on(settings):  # type: ignore[no-untyped-def]
    """Money play on, in every region: a module marks its tests with
    ``pytest.mark.usefixtures("money_on")``."""
    settings.MONEY_PLAY = True
    settings.MONEY_REGIONS = []


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a new Python process of the project, with the site's settings and ``env``
    added to this environment (a value of "" removes the variable): what a process does as it
    starts, which this one has done already."""
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "rummysite.settings", **env}
    environment = {name: value for name, value in environment.items() if value != ""}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[1],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def make_user(username: str, *, staff: bool = False, role: str | None = "admin", verified: bool = True):  # type: ignore[no-untyped-def]
    """A user with the persona's password, living in Karnataka; ``staff``: in the staff group
    ``role`` (every permission for "admin", see backoffice.roles; None for no group at all). A
    player's identity is ``verified`` (R-PROT-7) unless asked otherwise, so that tests of
    withdrawals start from a player who may withdraw."""

    from accounts.models import User

    user = User.objects.create_user(
        username=username, password=demo_password(username), display_name=username.title(), region="IN-KA"
    )
    if verified:
        verify(user)
    if staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        if role is not None:
            user.groups.add(staff_group(role))
    return user


def staff_group(role: str):  # type: ignore[no-untyped-def]
    """The staff group ``role``. A test on real transactions empties every table after it, the
    groups the roles' migration made included (the permissions come back with the flush's
    post-migrate): give the group its permissions again as that migration does."""
    from django.contrib.auth.models import Group, Permission

    from backoffice.roles import ROLES

    group, made = Group.objects.get_or_create(name=role)
    if made:
        wanted = ROLES[role]
        permissions = Permission.objects.all()
        if wanted != ["*"]:
            found = {
                f"{p.content_type.app_label}.{p.codename}": p
                for p in permissions.select_related("content_type")
            }
            permissions = [found[name] for name in wanted if name in found]  # type: ignore[assignment]
        group.permissions.set(permissions)
    return group


def verify(user):  # type: ignore[no-untyped-def]
    """Verify ``user``'s identity the way a player and a provider would (R-PROT-7)."""
    from protection import kyc
    from protection.models import KycStatus

    if kyc.of(user).status != KycStatus.VERIFIED:
        kyc.submit(user, "pan", f"ABCDE{user.pk:04d}F", provider=kyc.SandboxKyc())
        kyc.decide(user, True, by=None, reason="test set-up")
    return user


@pytest.fixture(autouse=True)
def timers_off(request):  # type: ignore[no-untyped-def]
    """``GAME_TIMERS=off`` for the test (the rules engine's tests have no Django to set)."""
    if "engine" in request.node.path.parts or "js" in request.node.path.parts:
        return None
    settings = request.getfixturevalue("settings")
    settings.GAME_TIMERS = "off"
    settings.LIVE_CHECK_SECONDS = 0  # no background read of the tables (games.missed)
    return settings


@pytest.fixture
def alice(db):  # type: ignore[no-untyped-def]
    return make_user("alice")


@pytest.fixture
def bob(db):  # type: ignore[no-untyped-def]
    return make_user("bob")


@pytest.fixture
def carol(db):  # type: ignore[no-untyped-def]
    return make_user("carol")


@pytest.fixture
def sam(db):  # type: ignore[no-untyped-def]
    """The staff member."""
    return make_user("sam", staff=True)


@pytest.fixture
def players(db):  # type: ignore[no-untyped-def]
    """All six player personas, alice to frank."""
    return [make_user(name) for name in PLAYERS]
