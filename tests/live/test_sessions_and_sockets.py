"""Sessions and websockets: logging out closes the websockets of that session only; a
password change, or a new password set through the link of a password reset, closes every
websocket, session and API token of the user."""

from __future__ import annotations

import re

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts import mail
from games.consumers import CLOSE_SIGNED_OUT
from tests.live.support import ORIGIN, Closed, Conn, db, make_user, run, seat

pytestmark = pytest.mark.usefixtures("live_db")

PASSWORD = "green-felt-table-42"


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def connect(table_id: int, client: Client) -> Conn:
    from rummysite.asgi import application

    cookie = f"sessionid={client.cookies['sessionid'].value}"
    headers = [(b"host", b"testserver"), (b"origin", ORIGIN.encode()), (b"cookie", cookie.encode())]
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    conn = Conn(communicator, "player")
    await conn.snapshot()
    return conn


async def closed_with(conn: Conn) -> int | None:
    try:
        await conn.until(lambda frame: False, timeout=3)
    except Closed as closed:
        return closed.code
    return None


def test_logout_closes_the_websockets_of_that_session_only():
    alice, bob = make_user("alice"), make_user("bob")
    table = seat([alice, bob], seats=2, name="101 for two")
    phone, laptop = browser(alice), browser(alice)

    async def scenario() -> None:
        on_phone = await connect(table.pk, phone)
        on_laptop = await connect(table.pk, laptop)
        response = await db(phone.post)("/accounts/logout/")
        assert response.status_code == 302
        assert await closed_with(on_phone) == CLOSE_SIGNED_OUT
        assert "signed_out" in [f.get("error") for f in on_phone.frames]
        await on_laptop.send({"type": "ping"})
        pong = await on_laptop.until(lambda f: f.get("type") == "pong")
        assert pong["type"] == "pong", "the other session's socket stays open"
        await on_laptop.close()
        await on_phone.close()

    run(scenario)


def test_a_password_change_revokes_every_session_token_and_websocket():
    alice, bob = make_user("alice"), make_user("bob")
    alice.set_password(PASSWORD)
    alice.save()
    table = seat([alice, bob], seats=2, name="101 for two")
    here, elsewhere = browser(alice), browser(alice)
    token = Token.objects.create(user=alice)

    async def scenario() -> None:
        socket_here = await connect(table.pk, here)
        socket_elsewhere = await connect(table.pk, elsewhere)
        response = await db(here.post)(
            "/accounts/password/",
            {
                "old_password": PASSWORD,
                "new_password1": "blue-felt-table-77",
                "new_password2": "blue-felt-table-77",
            },
        )
        assert response.status_code == 302
        assert await closed_with(socket_here) == CLOSE_SIGNED_OUT
        assert await closed_with(socket_elsewhere) == CLOSE_SIGNED_OUT
        await socket_here.close()
        await socket_elsewhere.close()

    run(scenario)
    assert not Token.objects.filter(pk=token.pk).exists()
    assert elsewhere.get("/accounts/profile/").status_code == 302, "the other session is signed out"
    assert here.get("/accounts/profile/").status_code == 200, "the browser that changed it stays in"


def test_a_password_reset_closes_every_websocket_session_and_token_of_the_user(monkeypatch, mailoutbox):
    alice, bob = make_user("alice"), make_user("bob")
    alice.email = "alice@example.com"
    alice.set_password(PASSWORD)
    alice.save()
    alice.email_verified_at = timezone.now()
    alice.save(update_fields=["email_verified_at"])
    table = seat([alice, bob], seats=2, name="101 for two")
    at_the_table = browser(alice)
    token = Token.objects.create(user=alice)
    monkeypatch.setattr(mail, "submit", lambda job: job())  # the mail thread's job, here
    forgetful = Client()

    async def scenario() -> None:
        socket = await connect(table.pk, at_the_table)
        await db(forgetful.post)("/accounts/password/forgot/", {"email": "alice@example.com"})
        link = re.search(r"https?://testserver(/\S+/)", mailoutbox[0].body).group(1)
        form = await db(forgetful.get)(link, follow=True)
        done = await db(forgetful.post)(
            form.redirect_chain[-1][0], {"new_password1": "blue-felt-77", "new_password2": "blue-felt-77"}
        )
        assert done.status_code == 302
        assert await closed_with(socket) == CLOSE_SIGNED_OUT
        await socket.close()

    run(scenario)
    assert not Token.objects.filter(pk=token.pk).exists()
    assert at_the_table.get("/accounts/profile/").status_code == 302, "the old session is signed out"


def test_the_websocket_rate_limit_is_per_user_as_well_as_per_connection(monkeypatch):
    """Opening more connections does not buy more frames."""
    from games.consumers import TableConsumer

    monkeypatch.setattr(TableConsumer, "rate", 1000.0)
    monkeypatch.setattr(TableConsumer, "user_rate", 0.01)
    monkeypatch.setattr(TableConsumer, "user_burst", 10)
    alice, bob = make_user("alice"), make_user("bob")
    table = seat([alice, bob], seats=2, name="101 for two")
    browsers = [browser(alice) for _ in range(3)]

    async def scenario() -> None:
        conns = [await connect(table.pk, each) for each in browsers]
        for conn in conns:
            for _ in range(5):
                await conn.send({"type": "ping"})
        answers = []
        for conn in conns:
            answers += await conn.quiet(0.3)
        pongs = [f for f in answers if f.get("type") == "pong"]
        limited = [f for f in answers if f.get("error") == "rate_limited"]
        assert len(pongs) == 10, answers
        assert len(limited) == 5
        for conn in conns:
            await conn.close()

    run(scenario)
