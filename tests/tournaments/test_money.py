"""Buy-ins, refunds, rake, overlay and prizes through the ledger (R-TOUR-2, R-TOUR-5, R-TOUR-6),
exact to the paisa and reconciled."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import seating, timers
from tests.conftest import make_user
from tests.tournaments.support import make, play_round, play_to_the_end, playing
from tests.wallet.support import _fast_password_hashing, fund, wallet  # noqa: F401
from tournaments import services
from tournaments.models import Registration, RoundTable
from tournaments.services import TournamentError
from wallet.ledger import balance_of, get_account, pool_spec
from wallet.models import Currency, Journal, JournalKind
from wallet.reconcile import reconcile
from wallet.reports import statement, takings_lines

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("money_on")]


def people(count: int, amount: int = 1_000_00) -> list[Any]:
    users = [make_user(f"p{i:02d}") for i in range(count)]
    for user in users:
        fund(user, amount)
    return users


def pool_of(tournament: Any) -> int:
    return balance_of(pool_spec(tournament.pool_ref, Currency(tournament.currency)))


def test_r_tour_2_a_buy_in_goes_into_the_pool_and_unregistering_gives_it_all_back() -> None:
    """R-TOUR-2: unregister before the start, the whole buy-in back; registering again pays again."""
    (alice,) = people(1)
    t = make(min_players=3, start_at=timezone.now() + timedelta(hours=1))
    services.register(t.pk, alice)
    assert wallet(alice) == 1_000_00 - 100_00
    assert pool_of(t) == 100_00
    services.unregister(t.pk, alice)
    assert wallet(alice) == 1_000_00
    assert pool_of(t) == 0
    lines = statement(alice.pk)
    assert lines[-1].words == "Buy-in back: you unregistered from the tournament"
    services.register(t.pk, alice)
    assert wallet(alice) == 1_000_00 - 100_00
    assert Registration.objects.filter(tournament=t, player=alice).count() == 2
    assert reconcile() == []


def test_r_tour_2_a_tournament_short_of_its_minimum_is_cancelled_and_every_buy_in_given_back() -> None:
    """R-TOUR-2, R-TOUR-5: cancelled at its start short of players: every buy-in back, no rake."""
    a, b = people(2)
    t = make(min_players=3, start_at=timezone.now() + timedelta(minutes=5))
    services.register(t.pk, a)
    services.register(t.pk, b)
    assert services.sweep() == 0, "not yet due"
    assert services.sweep(at=timezone.now() + timedelta(minutes=6)) == 1
    t.refresh_from_db()
    assert t.status == "cancelled"
    assert "short of players: 2 of 3" in t.end_reason
    assert (wallet(a), wallet(b)) == (1_000_00, 1_000_00)
    account = get_account(pool_spec(t.pool_ref, Currency.INR))
    assert account is not None
    assert account.balance == 0
    assert account.closed_at is not None
    assert not Journal.objects.filter(kind=JournalKind.RAKE).exists()
    assert reconcile() == []


def test_r_tour_5_rake_overlay_and_prizes_are_exact_and_reconciled() -> None:
    """R-TOUR-5: 7 buy-ins of ₹100 = ₹700, rake 10% = ₹70; a guarantee of ₹1,000 means an
    overlay of ₹370 from the house; the pool of ₹1,000 paid 70/30 to the first two."""
    players = people(7)
    t = make(max_players=7, min_players=7, guarantee=1_000_00)
    for player in players:
        services.register(t.pk, player)
    t.refresh_from_db()
    assert t.status == "running", "a sit-and-go starts when full"
    with playing(3) as simulator:
        play_to_the_end(simulator, t)
    t.refresh_from_db()
    assert t.status == "finished"
    assert (t.rake, t.overlay, t.pool) == (70_00, 370_00, 1_000_00)
    entries = {r.rank: r for r in Registration.objects.filter(tournament=t)}
    assert sorted(entries) == [1, 2, 3, 4, 5, 6, 7]
    assert (entries[1].prize, entries[2].prize) == (700_00, 300_00)
    assert all(entries[rank].prize == 0 for rank in range(3, 8))
    for rank, entry in entries.items():
        assert wallet(entry.player) == 1_000_00 - 100_00 + entry.prize, rank
    assert pool_of(t) == 0
    overlay = Journal.objects.get(key=f"overlay:tournament:{t.pk}")
    assert overlay.kind == JournalKind.OVERLAY
    columns = {}
    now = timezone.now()
    for line in takings_lines(now - timedelta(hours=1), now + timedelta(hours=1), "INR"):
        if line.meta.get("tournament") == t.pk:
            columns[line.column] = columns.get(line.column, 0) + line.amount
    assert columns == {"entry_fees": 700_00, "rake": 70_00, "overlay": 370_00, "prizes": 1_000_00}
    assert reconcile() == []


def test_r_tour_6_void_needs_a_second_staff_member_and_gives_every_buy_in_back() -> None:
    """R-TOUR-6: four eyes; every buy-in back, no rake, no prize; the round's tables stop."""
    players = people(6)
    sam, tess = make_user("sam", staff=True), make_user("tess", staff=True)
    t = make(max_players=6, min_players=6, table_size=3)
    for player in players:
        services.register(t.pk, player)
    asked = services.request(t.pk, "void", "a server fault spoiled the deals", sam)
    with pytest.raises(TournamentError) as caught:
        services.confirm(asked.pk, sam)
    assert caught.value.code == "same_staff"
    t.refresh_from_db()
    assert t.status == "running"
    services.confirm(asked.pk, tess)
    t.refresh_from_db()
    assert t.status == "voided"
    assert t.end_reason == "a server fault spoiled the deals"
    assert [wallet(p) for p in players] == [1_000_00] * 6
    assert statement(players[0].pk)[-1].words == "Fees back: the game was voided by the staff"
    assert (t.rake, t.pool) == (0, 0)
    assert not Journal.objects.filter(kind__in=[JournalKind.RAKE, JournalKind.PRIZE]).exists()
    assert not RoundTable.objects.filter(round__tournament=t, ended_at__isnull=True).exists()
    assert {rt.table.status for rt in RoundTable.objects.filter(round__tournament=t)} == {"cancelled"}
    assert reconcile() == []


def test_staff_cancel_before_the_start_also_needs_four_eyes() -> None:
    (alice,) = people(1)
    sam, tess = make_user("sam", staff=True), make_user("tess", staff=True)
    t = make(start_at=timezone.now() + timedelta(hours=2))
    services.register(t.pk, alice)
    with pytest.raises(TournamentError) as caught:
        services.request(t.pk, "void", "not running yet", sam)
    assert caught.value.code == "not_now"
    asked = services.request(t.pk, "cancel", "the venue's stream is down", sam)
    with pytest.raises(TournamentError) as again:
        services.request(t.pk, "cancel", "twice", tess)
    assert again.value.code == "already_requested"
    services.confirm(asked.pk, tess)
    t.refresh_from_db()
    assert t.status == "cancelled"
    assert wallet(alice) == 1_000_00


def test_a_free_tournament_pays_the_house_guarantee() -> None:
    """R-TOUR-5 with no buy-in: the pool is the guarantee, all of it overlay."""
    players = people(3, amount=0)
    t = make(buy_in=0, guarantee=500_00, max_players=3, min_players=3, prize_bps=[10_000])
    for player in players:
        services.register(t.pk, player)
    with playing(5) as simulator:
        play_to_the_end(simulator, t)
    t.refresh_from_db()
    assert (t.rake, t.overlay, t.pool) == (0, 500_00, 500_00)
    winner = Registration.objects.get(tournament=t, rank=1)
    assert wallet(winner.player) == 500_00
    assert reconcile() == []


def test_a_round_seats_linked_players_at_different_tables() -> None:
    """Fair play's answer (games.seating) keeps strongly linked players apart in every round."""
    players = people(6)
    pair = frozenset({players[0].pk, players[1].pk})

    def answer(ids: Any) -> set[frozenset[int]]:
        return {pair} if pair <= set(ids) else set()

    seating.register(answer)
    try:
        t = make(max_players=6, min_players=6, table_size=3)
        for player in players:
            services.register(t.pk, player)
    finally:
        seating.unregister(answer)
    for round_table in RoundTable.objects.filter(round__tournament=t):
        assert not pair <= set(round_table.players)
    assert RoundTable.objects.filter(round__tournament=t).first().round.apart == [sorted(pair)]  # type: ignore[union-attr]


def test_the_timers_tick_runs_the_tournaments_sweep(settings: Any) -> None:
    """The sweep runs in every tick of the game timers (the embedded scheduler's and Celery
    beat's ``games.timers.tick``): a tournament whose start has come is started there."""
    players = people(3)
    t = make(start_at=timezone.now() + timedelta(seconds=1))
    for player in players:
        services.register(t.pk, player)
    t.refresh_from_db()
    assert t.status == "registering"
    type(t).objects.filter(pk=t.pk).update(start_at=timezone.now() - timedelta(seconds=1))
    done = timers.tick()
    assert done["tournaments"] == 1
    t.refresh_from_db()
    assert t.status == "running"
    assert RoundTable.objects.filter(round__tournament=t).count() == 1


def test_the_embedded_scheduler_ticks_the_same_jobs() -> None:
    from games import scheduler

    assert "tournaments" in timers.each_tick
    assert timers.each_tick["tournaments"] is services.sweep
    assert scheduler.timers.tick is timers.tick


def test_a_round_is_played_and_the_next_one_seated() -> None:
    """R-TOUR-3: 9 players at tables of 3, one through from each: round 1 of three tables,
    then the final of three."""
    players = people(9)
    t = make(max_players=9, min_players=9, table_size=3, qualify=1, prize_bps=[5000, 3000, 2000])
    for player in players:
        services.register(t.pk, player)
    with playing(7) as simulator:
        play_round(simulator, t)
        rounds = list(t.rounds.order_by("number"))
        assert [(r.number, r.players, r.final) for r in rounds] == [(1, 9, False), (2, 3, True)]
        out = Registration.objects.filter(tournament=t, knocked_out_round=1)
        assert out.count() == 6
        assert all(r.chips is not None for r in out)
        play_to_the_end(simulator, t)
    ranks = dict(Registration.objects.filter(tournament=t).values_list("player_id", "rank"))
    finalists = set(rounds[1].tables.get().players)
    assert {ranks[p] for p in finalists} == {1, 2, 3}, "the final's three take the top three"


def test_a_round_table_cannot_be_voided_alone() -> None:
    """A staff void of one of a round's tables would leave it with no result: the back office
    refuses it and names the tournament's void instead."""
    from backoffice import actions
    from games.errors import GameError

    players = people(3)
    t = make(max_players=3, min_players=3)
    for player in players:
        services.register(t.pk, player)
    table_id = RoundTable.objects.get(round__tournament=t).table_id
    with pytest.raises(GameError) as caught:
        actions.request_void(table_id, "a fault", make_user("rita", staff=True, role="risk"))
    assert caught.value.code == "tournament_table"


def test_a_player_who_leaves_a_round_table_forfeits_and_is_ranked_below() -> None:
    """A player who leaves is out of the table's game (R-DEALS-5) and so knocked out in that
    round; the others play on."""
    from games import services as tables

    players = people(6)
    t = make(max_players=6, min_players=6, table_size=3, qualify=1, prize_bps=[10_000])
    for player in players:
        services.register(t.pk, player)
    first = RoundTable.objects.filter(round__tournament=t).order_by("id").first()
    assert first is not None
    assert first.table_id is not None
    leaver = next(p for p in players if p.pk == first.players[0])
    with playing(6) as simulator:
        tables.leave(first.table_id, leaver, at=simulator.tick())
        play_to_the_end(simulator, t)
    entry = Registration.objects.get(tournament=t, player=leaver)
    assert entry.knocked_out_round == 1
    assert entry.rank is not None
    assert entry.rank >= 3
    assert reconcile() == []


def test_r_tour_4_an_absent_player_is_dropped_every_turn_and_stays_in_until_knocked_out() -> None:
    """R-TOUR-4: a player who never moves misses their moves and is dropped by the table
    (R-TURN-6), is never taken out of the game for it, and is ranked with the others by chips
    (and may win: a deal the others all drop is theirs)."""
    from games.engine import deal as deals
    from games.engine import table as engine
    from games.models import Table
    from tournaments.simulate import Simulator

    players = people(3)
    absent = players[0]

    class AbsentOne(Simulator):
        def deal_step(self, table: Table, state: engine.TableState) -> None:
            deal = state.deal
            assert deal is not None
            if deal.phase is deals.Phase.PLAY and deal.seats[deal.turn].player == str(absent.pk):
                self.expire(table, state)
                return
            super().deal_step(table, state)

    t = make(max_players=3, min_players=3, prize_bps=[10_000])
    for player in players:
        services.register(t.pk, player)
    table = RoundTable.objects.get(round__tournament=t).table
    assert table is not None
    with playing(8):
        simulator = AbsentOne(8)
        services.now_ms = simulator.now_ms
        simulator.play_table(table)
        services.sweep()
    table.refresh_from_db()
    state = engine.TableState.from_json(table.state)
    assert state.player(str(absent.pk)).status is engine.Status.IN, "still in the game at its end"
    assert table.events.filter(type="missed_move", data__player=str(absent.pk)).exists()
    t.refresh_from_db()
    assert t.status == "finished"
    entry = Registration.objects.get(tournament=t, player=absent)
    assert entry.knocked_out_round == 1, "in to the end of the final, the round they finished in"
    assert entry.chips == state.player(str(absent.pk)).chips
    by_rank = [r.player_id for r in Registration.objects.filter(tournament=t).order_by("rank")]
    winner = int(state.qualified[0])
    order = [p.pk for p in players]  # their registration order
    chips = {int(p.name): p.chips for p in state.players}
    rest = sorted((p for p in order if p != winner), key=lambda p: (-chips[p], order.index(p)))
    assert by_rank == [winner, *rest], "an absent player is ranked by chips like anyone"
