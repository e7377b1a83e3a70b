"""What a program other than the browser meets on the websocket: an API token offered as a
subprotocol, the origin check by scheme, host and port, and an oversized frame answered
before the close."""

from __future__ import annotations

import json

import pytest
from rest_framework.authtoken.models import Token

from games.consumers import CLOSE_LOGIN_REQUIRED, CLOSE_TOO_LARGE, PROTOCOL
from tests.live.support import Closed, Conn, db, make_user, run, seat

pytestmark = pytest.mark.usefixtures("live_db")


@pytest.fixture
def table(live_db):
    alice, bob = make_user("alice"), make_user("bob")
    return seat([alice, bob], seats=2), alice


def token_of(user) -> str:
    return Token.objects.get_or_create(user=user)[0].key


def test_an_api_token_offered_as_a_subprotocol_opens_the_players_own_view(table):
    played, alice = table

    async def body():
        key = await db(token_of)(alice)
        conn = await Conn.open(played.pk, alice, cookie=False, subprotocols=[PROTOCOL, f"token.{key}"])
        snapshot = await conn.next()
        assert snapshot["type"] == "snapshot"
        assert len(snapshot["table"]["deal"]["hand"]) in (13, 14), "alice sees her own hand"
        assert conn.communicator.scope["subprotocols"] == [PROTOCOL, f"token.{key}"]
        await conn.close()

    run(body)


@pytest.mark.parametrize("offered", [["token.not-a-real-token"], None])
def test_a_wrong_or_missing_token_is_a_visitor_who_must_log_in(table, offered):
    played, alice = table

    async def body():
        conn = await Conn.open(played.pk, alice, cookie=False, subprotocols=offered)
        assert (await conn.next())["error"] == "login_required"
        with pytest.raises(Closed) as closed:
            await conn.next()
        assert closed.value.code == CLOSE_LOGIN_REQUIRED
        await conn.close()

    run(body)


def test_a_token_in_the_url_is_never_read(table):
    played, alice = table

    async def body():
        key = await db(token_of)(alice)
        conn = await Conn.open(played.pk, alice, cookie=False, path=f"/ws/tables/{played.pk}/?token={key}")
        assert (await conn.next())["error"] == "login_required"
        await conn.close()

    run(body)


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("http://testserver", True),
        ("http://testserver:80", True),
        ("https://testserver", False),  # another scheme
        ("http://testserver:8001", False),  # another port
        ("http://evil.example", False),
        ("null", False),
    ],
)
def test_the_origin_must_match_scheme_host_and_port(table, origin, allowed):
    played, alice = table

    async def body():
        conn = await Conn.open(played.pk, alice, origin=origin)
        if allowed:
            assert (await conn.next())["type"] == "snapshot"
        else:
            assert conn.close_code is not None, "refused at the handshake, before any frame"
        await conn.close()

    run(body)


def test_a_trusted_origin_is_allowed(table, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.com"]
    played, alice = table

    async def body():
        conn = await Conn.open(played.pk, alice, origin="https://play.example.com")
        assert (await conn.next())["type"] == "snapshot"
        await conn.close()

    run(body)


def test_an_oversized_frame_gets_an_error_frame_before_the_close(table):
    played, alice = table

    async def body():
        conn = await Conn.open(played.pk, alice)
        await conn.next()
        await conn.send(json.dumps({"type": "ping", "pad": "x" * 17_000}))
        error = await conn.next()
        assert error["error"] == "too_large"
        assert "16384 bytes" in error["message"]
        with pytest.raises(Closed) as closed:
            await conn.next()
        assert closed.value.code == CLOSE_TOO_LARGE
        await conn.close()

    run(body)


def test_another_players_token_never_shows_their_hand_to_a_watcher(live_db):
    alice, bob, dave = make_user("alice"), make_user("bob"), make_user("dave")
    played = seat([alice, bob], seats=2)

    async def body():
        key = await db(token_of)(dave)
        conn = await Conn.open(played.pk, dave, cookie=False, subprotocols=[PROTOCOL, f"token.{key}"])
        snapshot = await conn.next()
        assert "hand" not in snapshot["table"]["deal"], "dave is a watcher"
        await conn.close()

    run(body)
