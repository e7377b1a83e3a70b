"""Timed rules through the real task code (R-TURN-5, R-TURN-6, R-SHOW-1, R-POOL-4), the
scheduling after each write, the embedded scheduler, and bots seen on the wire."""

from __future__ import annotations

import asyncio
import time

import pytest

from games import scheduler as scheduler_module
from games import services, tasks, timers
from games.engine import table as engine
from games.engine.variants import POOL101
from games.models import Table, TableEvent
from tests.live.support import (
    Conn,
    db,
    deadline_ms,
    make_user,
    play_deal,
    play_turn,
    rig,
    run,
    seat,
    state,
    turn_of,
)

pytestmark = pytest.mark.usefixtures("live_db")


@pytest.fixture
def people(live_db):
    return {name: make_user(name) for name in ("alice", "bob", "carol")}


def version(table_id: int) -> int:
    return Table.objects.get(pk=table_id).version


def expire_task(table_id: int, at_version: int | None = None) -> bool:
    """The deadline set at ``at_version`` (the table's version by default), as the sweep
    applies it: the sweep task itself is tested below."""
    at_version = version(table_id) if at_version is None else at_version
    return timers.expire(table_id, at_version)


def user_of(people, name: str):
    return next(user for user in people.values() if str(user.pk) == name)


def types_after(table_id: int, after: int) -> list[str]:
    return list(
        TableEvent.objects.filter(table_id=table_id, version__gt=after).values_list("type", flat=True)
    )


def test_a_move_timeout_passes_the_turn_and_a_late_or_repeated_task_changes_nothing__R_TURN_5(people, clock):
    table = seat([people["alice"], people["bob"]], seats=2)
    sleeper = turn_of(table.pk)
    set_at = version(table.pk)
    due = deadline_ms(table.pk)
    deal = state(table.pk).deal
    assert due == deal.since_ms + deal.timing.move_ms + deal.timing.extra_ms, "move time, then the extra bank"

    clock.to(due - 1)
    assert expire_task(table.pk) is False, "a task that comes early does nothing"
    assert version(table.pk) == set_at
    clock.to(due)
    assert expire_task(table.pk) is True
    assert types_after(table.pk, set_at)[:1] == ["missed_move"]
    assert turn_of(table.pk) != sleeper
    after = Table.objects.get(pk=table.pk).state
    assert expire_task(table.pk, set_at) is False, "the same task again"
    clock.to(due + 3_600_000)
    assert expire_task(table.pk, set_at) is False, "the same task an hour late"
    assert Table.objects.get(pk=table.pk).state == after


def test_three_missed_moves_drop_the_player__R_TURN_6(people, clock):
    table = seat([people["alice"], people["bob"]], seats=2)
    sleeper = turn_of(table.pk)
    other = next(u for u in people.values() if str(u.pk) not in (sleeper,) and u.username != "carol")
    for missed in range(3):
        assert turn_of(table.pk) == sleeper
        clock.to(deadline_ms(table.pk))
        assert expire_task(table.pk)
        if missed < 2:
            play_turn(table.pk, other)
    now = state(table.pk)
    assert now.player(sleeper).score == POOL101.missed_moves_drop
    assert now.history[-1]["winner"] == str(other.pk)


def test_a_loser_who_does_not_show_in_time_is_scored_on_their_saved_grouping__R_SHOW_1(people, clock):
    table = seat([people["alice"], people["bob"]], seats=2)
    declarer = user_of(people, turn_of(table.pk))
    loser = next(u for u in (people["alice"], people["bob"]) if u != declarer)
    rig(table.pk, declarer, "AS 2S 3S 4H 5H 6H 7D 8D 9D TC JC QC KC")
    services.act(table.pk, declarer, {"type": "draw", "source": "closed"})
    services.act(table.pk, declarer, {"type": "finish", "card": state(table.pk).deal.drawn.code})
    groups = [["AS", "2S", "3S"], ["4H", "5H", "6H"], ["7D", "8D", "9D"], ["TC", "JC", "QC", "KC"]]
    services.act(table.pk, declarer, {"type": "declare", "groups": groups})
    set_at = version(table.pk)
    deal = state(table.pk).deal
    assert deal.phase.value == "show"
    clock.to(deadline_ms(table.pk) - 1)
    assert not expire_task(table.pk)
    clock.to(deadline_ms(table.pk))
    assert expire_task(table.pk)
    kinds = types_after(table.pk, set_at)
    assert kinds[0] == "show_timed_out"
    assert "deal_over" in kinds
    timed_out = TableEvent.objects.get(table=table, type="show_timed_out")
    assert timed_out.data["players"] == [str(loser.pk)]
    assert state(table.pk).player(str(declarer.pk)).score == 0
    assert not expire_task(table.pk, set_at)


def test_the_rejoin_window_closes_at_its_deadline__R_POOL_4(people, clock):
    users = [people["alice"], people["bob"], people["carol"]]
    table = seat(users)
    play_deal(table.pk, users, {"alice": "wrong", "bob": "drop"})
    clock.to(deadline_ms(table.pk))
    assert expire_task(table.pk)
    now = play_deal(table.pk, users, {"alice": "wrong", "bob": "drop"})
    assert now.rejoin_open == (str(people["alice"].pk),)
    set_at = version(table.pk)
    assert deadline_ms(table.pk) == now.since_ms + now.rules.rejoin_ms
    clock.to(deadline_ms(table.pk))
    assert expire_task(table.pk)
    closed = TableEvent.objects.get(table=table, type="decisions_closed")
    assert closed.data["rejoin_missed"] == [str(people["alice"].pk)]
    assert state(table.pk).phase is engine.Phase.PLAYING, "the next deal started without alice"
    with pytest.raises(services.GameError):
        services.rejoin(table.pk, people["alice"])
    assert not expire_task(table.pk, set_at)


def test_the_start_countdown_starts_the_game(people, clock):
    table = seat([people["alice"], people["bob"]], seats=3)
    assert state(table.pk).waiting_for == "countdown"
    clock.to(deadline_ms(table.pk))
    assert expire_task(table.pk)
    assert state(table.pk).phase is engine.Phase.PLAYING


def test_the_sweep_expires_every_overdue_table_once(people, clock):
    first = seat([people["alice"], people["bob"]], seats=2)
    second = seat([people["carol"], make_user("dave")], seats=2)
    clock.to(max(deadline_ms(first.pk), deadline_ms(second.pk)))
    assert tasks.tick.apply().get()["expired"] == 2
    assert tasks.tick.apply().get()["expired"] == 0, "nothing is overdue any more"
    for table in (first, second):
        assert types_after(table.pk, 0).count("missed_move") == 1


def test_the_sweep_goes_on_past_a_table_that_fails(people, clock, monkeypatch):
    first = seat([people["alice"], people["bob"]], seats=2)
    second = seat([people["carol"], make_user("dave")], seats=2)
    clock.to(max(deadline_ms(first.pk), deadline_ms(second.pk)))
    real = services.expire

    def expire(table_id, at_version, **kwargs):
        if table_id == first.pk:
            raise RuntimeError("this table is broken")
        return real(table_id, at_version, **kwargs)

    monkeypatch.setattr(services, "expire", expire)
    assert timers.sweep() == 1
    assert types_after(second.pk, 0).count("missed_move") == 1


# --- scheduling after each write ---------------------------------------------------------------------


def test_no_task_is_sent_per_deadline_and_the_sweep_applies_it(people, settings, monkeypatch, clock):
    """Deadlines are swept from the table rows every second; no message per move."""
    settings.GAME_TIMERS = "celery"
    sent = []
    monkeypatch.setattr(tasks.play_bots, "apply_async", lambda args, **options: sent.append((args, options)))
    table = seat([people["alice"], people["bob"]], seats=2)
    mover = user_of(people, turn_of(table.pk))
    services.act(table.pk, mover, {"type": "draw", "source": "closed"})
    assert sent == []
    assert tasks.tick.apply().get()["expired"] == 0, "nothing is due yet"
    set_at = version(table.pk)
    clock.to(deadline_ms(table.pk))
    assert tasks.tick.apply().get()["expired"] == 1
    assert types_after(table.pk, set_at)[0] == "missed_move"
    assert tasks.tick.apply().get()["expired"] == 0, "the same deadline is not applied twice"
    tick_every = settings.CELERY_BEAT_SCHEDULE["timers-tick"]["schedule"]
    assert tick_every == settings.GAME_SWEEP_SECONDS == 1.0
    assert [entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()].count("games.tasks.tick") == 1


def test_a_broker_that_is_down_does_not_fail_the_write(people, settings, monkeypatch):
    settings.GAME_TIMERS = "celery"

    def down(*args, **kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(tasks.play_bots, "apply_async", down)
    bot = make_user("robo", bot=True)
    table = seat([people["alice"], bot], seats=2, bots_allowed=True)
    assert state(table.pk).phase is engine.Phase.PLAYING


def test_bot_tables_get_a_bot_move_after_each_write(people, settings, monkeypatch):
    settings.GAME_TIMERS = "celery"
    sent = []
    monkeypatch.setattr(tasks.play_bots, "apply_async", lambda args, **options: sent.append((args, options)))
    bot = make_user("robo", bot=True)
    table = seat([people["alice"], bot], seats=2, bots_allowed=True)
    assert sent[-1] == ((table.pk, version(table.pk)), {"countdown": timers.BOT_THINK_SECONDS})


# --- bots --------------------------------------------------------------------------------------------


def test_bots_move_through_the_services_and_players_see_their_moves(people, clock):
    bots = [make_user("robo", bot=True), make_user("droid", bot=True)]
    table = seat([people["alice"], *bots], bots_allowed=True)
    alice = people["alice"]

    async def body():
        conn = await Conn.open(table.pk, alice)
        await conn.next()
        if await db(turn_of)(table.pk) == str(alice.pk):
            await conn.act("draw", source="closed")
            await conn.act("discard", card=conn.last_snapshot["table"]["deal"]["hand"][-1])
        for _ in range(30):
            # Until it is alice's turn again, or the bots ended the deal (a show, or drops).
            now = await db(state)(table.pk)
            if now.phase is not engine.Phase.PLAYING or now.deal_number > 1:
                break
            assert now.deal is not None
            if now.deal.seats[now.deal.turn].player == str(alice.pk):
                break
            assert await db(lambda: tasks.play_bots.apply(args=(table.pk,)).get())()
        await conn.snapshot(await db(version)(table.pk))
        moved = [f for f in conn.events() if f.get("type") in ("drew", "discarded", "dropped")]
        bot_ids = {str(b.pk) for b in bots}
        assert {f["data"]["player"] for f in moved} & bot_ids, "the bots' moves reached alice"
        await conn.close()

    run(body)
    assert tasks.play_bots.apply(args=(table.pk, version(table.pk) - 1)).get() == 0, "a stale bot task"


def test_drive_bots_moves_only_tables_quiet_for_the_think_time(people):
    bot = make_user("robo", bot=True)
    table = seat([people["alice"], bot], seats=2, bots_allowed=True)
    if turn_of(table.pk) != str(bot.pk):
        play_turn(table.pk, people["alice"])
    assert timers.drive_bots(think_seconds=3600) == 0
    assert timers.drive_bots(think_seconds=0) >= 1


# --- the embedded scheduler ----------------------------------------------------------------------------


def test_the_embedded_tick_expires_deadlines_and_moves_bots(people, clock):
    table = seat([people["alice"], people["bob"]], seats=2)
    clock.to(deadline_ms(table.pk))
    assert timers.tick() == {"expired": 1, "bot_actions": 0, "refilled": 0, "tournaments": 0}


def test_the_embedded_scheduler_ticks_every_interval_and_wakes_for_a_deadline(monkeypatch):
    ticks: list[float] = []
    monkeypatch.setattr(timers, "tick", lambda: ticks.append(time.monotonic()))
    runner = scheduler_module.Scheduler()
    runner.interval = 60.0

    async def body():
        runner.start()
        assert runner.running()
        await asyncio.sleep(0.1)
        assert len(ticks) == 1, "one tick at the start"
        runner.wake_at(time.time() + 0.2)
        await asyncio.sleep(0.5)
        assert len(ticks) == 2, "woken for the deadline, long before the interval"
        runner.wake_at(time.time() - 1)
        await asyncio.sleep(0.2)
        assert len(ticks) == 3
        await runner.stop()
        assert not runner.running()

    run(body)


def test_writes_wake_the_running_embedded_scheduler(people, settings, monkeypatch):
    settings.GAME_TIMERS = "embedded"
    woken: list[float] = []
    monkeypatch.setattr(scheduler_module.scheduler, "running", lambda: True)
    monkeypatch.setattr(scheduler_module.scheduler, "wake_at", woken.append)
    table = seat([people["alice"], people["bob"]], seats=2)
    assert woken[-1] == pytest.approx(deadline_ms(table.pk) / 1000, abs=0.001)


def test_the_embedded_scheduler_is_started_only_under_daphne_in_embedded_mode(settings):
    settings.GAME_TIMERS = "celery"
    assert scheduler_module.start_with_daphne() is False
    settings.GAME_TIMERS = "embedded"
    import sys

    if "daphne.server" not in sys.modules:
        assert scheduler_module.start_with_daphne() is False
