"""Races on PostgreSQL with real threads: the locked table row lets exactly one command apply."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import OperationalError, connection, transaction

from games import services
from games.errors import GameError
from games.models import Table
from tests.tables.support import Clock, seat_all, state, template, turn_player
from wallet.reconcile import reconcile

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def race(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls at once in threads; each result is its return value or the GameError."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except GameError as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@contextmanager
def held_elsewhere(table_id: int) -> Iterator[None]:
    """Another transaction (in a thread of its own) holds the table's lock within the block."""
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                services.lock(table_id)
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert locked.wait(10)
        yield
    finally:
        release.set()
        holder.join()


def test_it_applies_one_of_two_discards_for_the_same_turn(alice, bob):
    clock = Clock()
    users = {str(alice.pk): alice, str(bob.pk): bob}
    table = seat_all(template(seats=2), [alice, bob], clock)
    player = users[turn_player(table)]
    services.act(table.pk, player, {"type": "draw", "source": "closed"}, at=clock())
    deal = state(table).deal
    hand = deal.seats[deal.turn].hand
    at = clock()
    results = race(
        lambda: services.act(table.pk, player, {"type": "discard", "card": hand[0].code}, at=at),
        lambda: services.act(table.pk, player, {"type": "discard", "card": hand[1].code}, at=at),
    )
    errors = [r for r in results if isinstance(r, GameError)]
    assert len(errors) == 1, results
    assert len(state(table).deal.open_pile) == 2
    assert reconcile() == []


def test_it_applies_either_the_timeout_or_the_move(alice, bob):
    clock = Clock()
    users = {str(alice.pk): alice, str(bob.pk): bob}
    table = seat_all(template(seats=2), [alice, bob], clock)
    player = users[turn_player(table)]
    deadline = state(table).deadline_ms
    version = Table.objects.get(pk=table.pk).version
    results = race(
        lambda: services.expire(table.pk, version, at=deadline + 1),
        lambda: services.act(table.pk, player, {"type": "drop"}, at=deadline),
    )
    expired = results[0] is True
    moved = not isinstance(results[1], GameError)
    assert expired != moved, results


def test_it_seats_one_of_two_players_racing_for_the_last_seat(alice, bob, carol):
    clock = Clock()
    tmpl = template(seats=2)
    table = seat_all(tmpl, [alice], clock)
    from tests.wallet.support import fund, wallet

    fund(bob, 100_000)
    fund(carol, 100_000)
    at = clock()
    results = race(lambda: services.join(table.pk, bob, at=at), lambda: services.join(table.pk, carol, at=at))
    errors = [r for r in results if isinstance(r, GameError)]
    assert len(errors) == 1, results
    assert errors[0].code in ("table_full", "game_running")
    assert sorted([wallet(bob), wallet(carol)]) == [100_000 - 2500, 100_000]
    assert len(state(table).seated) == 2
    assert reconcile() == []


def test_a_locked_table_does_not_hold_up_another_table_of_its_template(players):
    """The row lock is the table's alone: a plain ``FOR UPDATE`` over the join with the template
    also locked the template's row, so every table of a template took turns, site-wide."""
    from games import client_actions

    alice, bob, carol, dave = players[:4]
    clock = Clock(start=services.now_ms() - 10_000)  # the websocket action below is at server time
    tmpl = template(seats=2)
    held = seat_all(tmpl, [alice, bob], clock)
    other = seat_all(tmpl, [carol, dave], clock)
    users = {str(carol.pk): carol, str(dave.pk): dave}
    with held_elsewhere(held.pk):
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '2s'")
        try:
            player = users[turn_player(other)]
            answer = client_actions.perform(
                other.pk, player, {"id": "a1", "type": "draw", "source": "closed"}
            )
            assert answer == {"ack": "a1", "v": Table.objects.get(pk=other.pk).version}
            # The same lock on the held table does wait: the test can tell the two apart.
            with pytest.raises(OperationalError, match="lock timeout"), transaction.atomic():
                services.lock(held.pk)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SET lock_timeout = 0")


def test_the_sweep_passes_over_a_table_someone_holds_and_applies_it_next_time(players):
    """Two sweeps at once (a slow one and the next) share the work, and a sweep never waits
    behind a player's move: it skips a locked table, whose deadline stays due."""
    alice, bob, carol, dave = players[:4]
    clock = Clock()
    tmpl = template(seats=2)
    held = seat_all(tmpl, [alice, bob], clock)
    other = seat_all(tmpl, [carol, dave], clock)
    late = max(state(held).deadline_ms, state(other).deadline_ms) + 1
    before = {t.pk: Table.objects.get(pk=t.pk).version for t in (held, other)}
    with held_elsewhere(held.pk):
        assert services.sweep(at=late) == 1, "the free table moved; the held one was passed over"
        assert Table.objects.get(pk=other.pk).version > before[other.pk]
        assert Table.objects.get(pk=held.pk).version == before[held.pk]
    assert services.sweep(at=late) == 1, "the next sweep applies the one passed over"
    assert Table.objects.get(pk=held.pk).version > before[held.pk]


def test_play_now_and_the_bot_refill_creating_the_same_new_bot_at_once_both_seat_it():
    """On a fresh site the timers' refill (``bots.refill_practice_tables``) and a player's Play
    now create the same bot at once. Here the refill's insert of the first bot is held open in
    a thread of its own while Play now fills its table: Play now's insert of that bot waits on
    the username's unique index, and once the refill commits, finds it taken. Play now must
    then seat the refill's bot, not fail with an IntegrityError (a 500 on the lobby)."""
    from accounts.models import User
    from games import bots
    from tests.conftest import make_user
    from wallet.cashier import topup_chips

    practice = template(name="bots 101", currency="CHIPS", seats=2, entry_fee=1000, bots_allowed=True)
    player = make_user("priya")
    topup_chips(player)
    inserted, commit = threading.Event(), threading.Event()

    def refill_holding_its_insert() -> None:
        try:
            with transaction.atomic():  # what the refill does for a bot it does not find
                bot = User(username=bots.BOT_NAMES[0], is_bot=True)
                bot.set_unusable_password()
                bot.save()
                inserted.set()
                commit.wait(30)
        finally:
            connection.close()

    refill = threading.Thread(target=refill_holding_its_insert)
    refill.start()
    assert inserted.wait(30)
    outcome: list[Any] = []

    def play_now() -> None:
        try:
            table = services.play_now(player, practice)
            outcome.append(bots.fill_with_bots(table))
        except Exception as error:  # whatever it was, the assertion below shows it
            outcome.append(error)
        finally:
            connection.close()

    player_thread = threading.Thread(target=play_now)
    player_thread.start()
    player_thread.join(1.0)  # Play now waits on the refill's insert meanwhile
    assert player_thread.is_alive(), "Play now should wait on the refill's uncommitted bot"
    commit.set()
    refill.join(30)
    player_thread.join(30)
    assert len(outcome) == 1
    assert isinstance(outcome[0], Table), outcome
    table = outcome[0]
    bot = User.objects.get(username=bots.BOT_NAMES[0])
    assert {p.name for p in state(table).players} == {str(player.pk), str(bot.pk)}
    assert User.objects.filter(username=bots.BOT_NAMES[0]).count() == 1
