"""Private tables: holding the link or code is the invitation; anyone else is refused on the
web, the API and the websocket. The rules and money are those of a public table."""

from __future__ import annotations

import pytest

from games import services
from games.consumers import CLOSE_PRIVATE
from games.engine import table as engine
from games.errors import GameError
from games.lobby import rows
from games.models import Table
from tests.api.support import assert_error, client_for
from tests.live.support import Closed, Conn, make_user, run, state, template

pytestmark = pytest.mark.usefixtures("live_db")


@pytest.fixture
def people(live_db):
    return {name: make_user(name) for name in ("alice", "bob", "carol")}


def private_table(people):
    table = services.open_private(people["alice"], template(seats=3))
    assert table.private
    assert len(table.invite_code) == 8
    return table


def test_a_private_table_is_refused_on_the_web_without_the_code(people, client):
    table = private_table(people)
    client.force_login(people["bob"])
    assert client.get(f"/games/tables/{table.pk}/").status_code == 404
    assert client.get(f"/games/invite/WRONGCODE/").status_code == 404  # noqa: F541
    assert client.post(f"/games/invite/WRONGCODE/").status_code == 404  # noqa: F541
    lobby = client.get("/games/").context["lobby"]
    row = next(row for row in rows(lobby) if row["id"] == table.template_id)
    assert (row["playing"], row["waiting"]) == (0, 0), "a private table's players are not counted"
    assert row["who_words"] == "Nobody seated yet"
    # The invitation: the page, then a seat, then the table page.
    assert client.get(f"/games/invite/{table.invite_code.lower()}/").status_code == 200
    response = client.post(f"/games/invite/{table.invite_code}/")
    assert response.status_code == 302
    assert client.get(f"/games/tables/{table.pk}/").status_code == 200
    assert state(table.pk).has(str(people["bob"].pk))


def test_a_private_table_is_refused_on_the_api_without_the_code(people):
    table = private_table(people)
    carol = client_for(people["carol"])
    assert_error(carol.get(f"/api/tables/{table.pk}/"), 403, "private_table")
    assert_error(carol.get(f"/api/tables/{table.pk}/events/"), 403, "private_table")
    assert_error(carol.post(f"/api/tables/{table.pk}/join/"), 403, "private_table")
    assert_error(carol.post(f"/api/tables/{table.pk}/join/", {"code": "AAAAAAAA"}), 403, "private_table")
    assert not state(table.pk).has(str(people["carol"].pk)), "nothing changed"
    lobby = carol.get("/api/lobby/").json()
    assert all(t["id"] != table.pk for row in lobby for t in row["open_tables"])
    ok = carol.post(f"/api/tables/{table.pk}/join/", {"code": table.invite_code}, format="json")
    assert ok.status_code == 200
    assert carol.get(f"/api/tables/{table.pk}/").status_code == 200


def test_a_private_table_is_refused_on_the_websocket_without_the_code(people):
    table = private_table(people)

    async def body():
        conn = await Conn.open(table.pk, people["carol"])
        frame = await conn.next()
        assert frame["error"] == "private_table"
        with pytest.raises(Closed) as closed:
            await conn.next()
        assert closed.value.code == CLOSE_PRIVATE
        await conn.close()
        seated = await Conn.open(table.pk, people["alice"])
        assert (await seated.next())["type"] in ("events", "snapshot")
        await seated.close()
        invited = await Conn.open(
            table.pk, people["carol"], path=f"/ws/tables/{table.pk}/?code={table.invite_code}"
        )
        assert (await invited.next())["type"] in ("events", "snapshot")
        await invited.close()

    run(body)


def test_play_now_never_seats_anyone_at_a_private_table(people):
    table = private_table(people)
    other = services.play_now(people["bob"], table.template)
    assert other.pk != table.pk
    assert not other.private


def test_a_private_game_plays_and_pays_like_a_public_one__R_MONEY_5(people):
    table = private_table(people)
    for name in ("bob", "carol"):
        services.join(table.pk, people[name], code=table.invite_code)
    assert state(table.pk).phase is engine.Phase.PLAYING
    with pytest.raises(GameError) as error:
        services.join(table.pk, make_user("dave"))
    assert error.value.code == "private_table"
    for name in ("alice", "bob"):
        services.leave(table.pk, people[name])
    now = state(table.pk)
    assert now.winner == str(people["carol"].pk)
    assert Table.objects.get(pk=table.pk).status == "finished"
