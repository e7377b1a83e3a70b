"""R-PROT-2 and R-PROT-3: breaks and self-exclusion end money play at once, block it by every
path until they end, and nobody can lift or shorten them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.errors import GameError
from games.models import Seat, TableStatus
from protection import exclusions, money_play
from protection.models import Exclusion, ProtectionEvent
from protection.refusal import ProtectionError
from tests.api.support import _fresh_throttles, assert_error, client_for  # noqa: F401
from tests.conftest import make_user, verify
from tests.live.support import Conn, deadline_ms, play_deal, run, seat
from tests.protection.support import funded, journals, money_21, money_pool, wallet

pytestmark = pytest.mark.django_db


def test_a_self_excluded_player_cannot_join_a_money_table_by_any_path__R_PROT_3(alice, bob, client):
    funded(alice)
    funded(bob)
    pool = money_pool()
    waiting = services.join(services.open_table(pool).pk, bob)
    private = services.open_private(bob, money_pool(name="private"))
    exclusions.take(alice, "exclude_6m")
    before, balance = journals(), wallet(alice)

    client.force_login(alice)
    web = client.post(f"/games/play/{pool.pk}/", follow=True)
    assert "excluded yourself from money play" in web.content.decode()
    web_private = client.post(f"/games/private/{pool.pk}/", follow=True)
    assert "excluded yourself from money play" in web_private.content.decode()
    invite = client.post(f"/games/invite/{private.invite_code}/", follow=True)
    assert "excluded yourself from money play" in invite.content.decode()

    api = client_for(alice)
    assert_error(api.post(f"/api/templates/{pool.pk}/play/"), 409, "self_excluded")
    assert_error(api.post(f"/api/tables/{waiting.pk}/join/"), 409, "self_excluded")
    assert_error(api.post(f"/api/templates/{pool.pk}/private/"), 409, "self_excluded")
    for call in (
        lambda: services.play_now(alice, pool),
        lambda: services.join(waiting.pk, alice),
        lambda: services.open_private(alice, pool),
    ):
        with pytest.raises(GameError) as refused:
            call()
        assert refused.value.code == "self_excluded"
    assert (journals(), wallet(alice)) == (before, balance), "no fee, no seat"
    assert not Seat.objects.filter(user=alice).exists()


def test_a_self_excluded_player_cannot_rejoin_over_the_websocket__R_PROT_3(live_db, clock):
    users = [make_user(name) for name in ("alice", "bob", "carol")]
    for user in users:
        verify(user)
        funded(user)
    alice = users[0]
    table = seat(users, currency="INR", entry_fee=100_00, name="101 pool, ₹100")
    play_deal(table.pk, users, {"alice": "wrong", "bob": "drop"})
    clock.to(deadline_ms(table.pk))
    services.expire(table.pk, services.Table.objects.get(pk=table.pk).version)
    exclusions.take(alice, "exclude_forever")
    assert Seat.objects.get(table=table, user=alice).left_at is None, "a running pool game plays on"
    now = play_deal(table.pk, users, {"alice": "wrong", "bob": "drop"})
    assert now.rejoin_open == (str(alice.pk),)
    before, balance = journals(), wallet(alice)

    async def body():
        conn = await Conn.open(table.pk, alice)
        await conn.next()
        answer = await conn.act("rejoin")
        assert answer["error"] == "self_excluded"
        assert "for good" in answer["message"]
        await conn.close()

    run(body)
    assert (journals(), wallet(alice)) == (before, balance)


def test_a_break_releases_waiting_seats_with_their_fees_and_stands_up_at_21_after_the_deal__R_PROT_2(
    alice, bob
):
    funded(alice)
    funded(bob)
    waiting = services.join(services.open_table(money_pool()).pk, alice)
    assert wallet(alice) == 4_900_00
    twenty_one = services.open_table(money_21())
    services.join(twenty_one.pk, alice)
    services.join(twenty_one.pk, bob)
    twenty_one.refresh_from_db()
    if twenty_one.status == TableStatus.STARTING:
        services.start(twenty_one.pk, at=services.now_ms() + 60_000)
        twenty_one.refresh_from_db()
    assert twenty_one.status == TableStatus.PLAYING
    exclusions.take(alice, "break_7d")
    waiting.refresh_from_db()
    assert Seat.objects.get(table=waiting, user=alice).left_at is not None
    state = services.engine.TableState.from_json(services.Table.objects.get(pk=twenty_one.pk).state)
    assert state.player(str(alice.pk)).leaving is True, "stood up when the deal ends"
    assert wallet(alice) == 4_900_00 - money_21_hold() + 100_00, "the waiting pool's fee came back"
    assert ProtectionEvent.objects.filter(user=alice, kind="break_taken").count() == 1


def money_21_hold() -> int:
    return 200 * 1_00


def test_a_break_blocks_money_play_until_it_ends_then_play_is_open_again__R_PROT_2(alice):
    now = timezone.now()
    exclusions.take(alice, "break_1d", now=now)
    assert money_play.refusal(alice, now=now + timedelta(hours=23)).code == "on_a_break"
    assert money_play.refusal(alice, now=now + timedelta(hours=24, seconds=1)) is None


def test_nothing_shortens_a_break_or_lifts_self_exclusion_for_good__R_PROT_3(alice):
    now = timezone.now()
    exclusions.take(alice, "break_30d", now=now)
    with pytest.raises(ProtectionError) as shorter:
        exclusions.take(alice, "break_1d", now=now + timedelta(minutes=1))
    assert shorter.value.code == "already_longer"
    exclusions.take(alice, "exclude_forever", now=now + timedelta(minutes=2))
    with pytest.raises(ProtectionError):
        exclusions.take(alice, "exclude_6m", now=now + timedelta(minutes=3))
    years_later = now + timedelta(days=3650)
    assert money_play.refusal(alice, now=years_later).code == "self_excluded"
    assert Exclusion.objects.filter(user=alice).count() == 2
    assert not any(name in dir(exclusions) for name in ("lift", "end", "cancel", "shorten"))


def test_the_exclusion_in_force_is_the_one_that_ends_last_read_in_one_query__R_PROT_3(
    alice, django_assert_num_queries
):
    now = timezone.now()
    exclusions.take(alice, "break_1d", now=now)
    month = exclusions.take(alice, "break_30d", now=now + timedelta(minutes=1))
    with django_assert_num_queries(1):
        assert exclusions.current(alice, now=now + timedelta(hours=2)) == month
    for_good = exclusions.take(alice, "exclude_forever", now=now + timedelta(minutes=2))
    with django_assert_num_queries(1):
        assert exclusions.current(alice, now=now + timedelta(hours=2)) == for_good
    assert exclusions.current(alice, now=now - timedelta(minutes=1)) is None, "nothing before the first"
