"""Registration (R-TOUR-1, R-TOUR-2): the state machine's arrows through the services, player
protection on every buy-in, clear refusals that change nothing, the hook after a table's
commit, practice tournaments filled with bots, and the open-seats limit."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services as tables
from games.errors import GameError
from games.models import Seat, TableTemplate
from protection import exclusions
from protection.limits import set_limit
from tests.conftest import make_user
from tests.tournaments.support import make, playing
from tests.wallet.support import _fast_password_hashing, fund, wallet  # noqa: F401
from tournaments import services, views_state
from tournaments.models import Registration, RoundTable, Tournament
from tournaments.services import TournamentError
from wallet.models import Journal

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("money_on")]


@pytest.fixture
def alice(db: Any) -> Any:
    user = make_user("alice")
    fund(user, 1_000_00)
    return user


def refused(code: str, step: Any, *args: Any) -> TournamentError:
    """``step(*args)`` is refused with ``code`` and writes nothing: no registration, no journal."""
    registrations, journals = Registration.objects.count(), Journal.objects.count()
    with pytest.raises(TournamentError) as caught:
        step(*args)
    assert caught.value.code == code, caught.value.message
    assert caught.value.message
    assert (Registration.objects.count(), Journal.objects.count()) == (registrations, journals)
    return caught.value


def later(**kwargs: Any) -> Tournament:
    return make(start_at=timezone.now() + timedelta(hours=1), **kwargs)


# --- the arrows, through the services --------------------------------------------------------


def test_r_tour_1_everything_is_fixed_at_creation_and_its_tables_stay_out_of_the_lobby() -> None:
    """R-TOUR-1: the settings are the tournament's own columns; its tables' template is a free
    deals-rummy template the lobby does not offer."""
    t = later(table_size=4, qualify=2, prize_bps=[6000, 4000], guarantee=5_000_00)
    assert (t.table_size, t.qualify, t.prize_bps, t.guarantee, t.buy_in) == (
        4,
        2,
        [6000, 4000],
        5_000_00,
        100_00,
    )
    template = TableTemplate.objects.get(pk=t.template_id)
    assert (template.variant, template.entry_fee, template.active, template.currency) == (
        "deals",
        0,
        False,
        "CHIPS",
    )


def test_bad_settings_are_refused_and_nothing_is_created() -> None:
    before = Tournament.objects.count(), TableTemplate.objects.count()
    for bad in (
        {"table_size": 7},
        {"prize_bps": [5000]},
        {"name": ""},
        {"currency": "USD"},
        {"bots_allowed": True},
    ):
        with pytest.raises(TournamentError) as caught:
            later(**bad)
        assert caught.value.code == "bad_settings", bad
    assert (Tournament.objects.count(), TableTemplate.objects.count()) == before


def test_announced_opens_registration_when_due_by_the_sweep() -> None:
    """announced -> registering (R-TOUR-2: registration opens as announced)."""
    opens = timezone.now() + timedelta(minutes=10)
    t = later(registration_opens_at=opens)
    assert t.status == "announced"
    refused("registration_closed", services.register, t.pk, make_user("early"))
    assert services.sweep() == 0
    assert services.sweep(at=opens + timedelta(seconds=1)) == 1
    t.refresh_from_db()
    assert t.status == "registering"


def test_announced_can_be_cancelled_by_staff_with_four_eyes() -> None:
    """announced -> cancelled."""
    t = later(registration_opens_at=timezone.now() + timedelta(minutes=10))
    sam, tess = make_user("sam", staff=True), make_user("tess", staff=True)
    services.confirm(services.request(t.pk, "cancel", "the date clashes with a holiday", sam).pk, tess)
    t.refresh_from_db()
    assert t.status == "cancelled"


def test_a_finished_tournament_cannot_be_voided(alice: Any) -> None:
    """finished -> nothing: not_now."""
    bob, carol = make_user("bob"), make_user("carol")
    for user in (bob, carol):
        fund(user, 1_000_00)
    t = make(max_players=3, min_players=3, prize_bps=[10_000])
    for user in (alice, bob, carol):
        services.register(t.pk, user)
    from tests.tournaments.support import play_to_the_end

    with playing(2) as simulator:
        play_to_the_end(simulator, t)
    sam = make_user("sam", staff=True)
    refused("not_now", services.request, t.pk, "void", "too late", sam)


# --- registration's refusals -----------------------------------------------------------------


def test_r_tour_2_registration_closes_at_the_start(alice: Any) -> None:
    """R-TOUR-2: a running tournament takes no one; too late to unregister."""
    others = [make_user(n) for n in ("bob", "carol", "dave")]
    for user in others:
        fund(user, 1_000_00)
    t = make(max_players=3, min_players=3)
    for user in others:
        services.register(t.pk, user)
    refused("registration_closed", services.register, t.pk, alice)
    with pytest.raises(TournamentError) as caught:
        services.unregister(t.pk, others[0])
    assert caught.value.code == "already_started"


def test_a_player_registers_once_and_a_full_tournament_takes_no_more(alice: Any) -> None:
    t = later(max_players=3)
    services.register(t.pk, alice)
    refused("already_registered", services.register, t.pk, alice)
    bob, carol, dave = (make_user(n) for n in ("bob", "carol", "dave"))
    for user in (bob, carol, dave):
        fund(user, 1_000_00)
    services.register(t.pk, bob)
    services.register(t.pk, carol)
    refused("tournament_full", services.register, t.pk, dave)
    services.sweep()
    t.refresh_from_db()
    assert t.status == "registering", "a scheduled tournament full early waits for its time"


def test_protection_region_not_allowed_refuses_a_money_buy_in(alice: Any, settings: Any) -> None:
    """R-PROT-1..3 on a buy-in, as at a money table."""
    settings.MONEY_REGIONS = ["IN-GA"]
    t = later()
    refused("region_not_allowed", services.register, t.pk, alice)
    assert wallet(alice) == 1_000_00


def test_protection_self_exclusion_refuses_a_buy_in(alice: Any) -> None:
    exclusions.take(alice, "exclude_6m")
    refused("self_excluded", services.register, later().pk, alice)


def test_protection_a_break_refuses_a_buy_in(alice: Any) -> None:
    exclusions.take(alice, "break_7d")
    refused("on_a_break", services.register, later().pk, alice)


def test_protection_a_buy_in_counts_as_a_stake(alice: Any) -> None:
    """R-PROT-4: the daily stake limit; a buy-in counts against it like an entry fee."""
    set_limit(alice, "stake_day", 150_00)
    first, second = later(), later()
    services.register(first.pk, alice)
    error = refused("limit_reached", services.register, second.pk, alice)
    assert "₹50.00 is left today" in error.message


def test_a_buy_in_above_the_balance_is_refused() -> None:
    poor = make_user("poor")
    fund(poor, 50_00)
    refused("insufficient_balance", services.register, later().pk, poor)


def test_staff_and_bots_play_no_money_tournament(alice: Any) -> None:
    from games.bots import bot_named

    refused("staff_no_money_play", services.register, later().pk, make_user("sam", staff=True))
    refused("bots_not_allowed", services.register, later().pk, bot_named("bot-asha"))


def test_practice_tournaments_need_no_protection_check(alice: Any, settings: Any) -> None:
    settings.MONEY_REGIONS = ["IN-GA"]
    t = later(currency="CHIPS", buy_in=0)
    assert services.register(t.pk, alice).status == "registered"


# --- bots, the hook, the seat limit -------------------------------------------------------------


def test_a_practice_tournament_fills_with_bots_and_starts() -> None:
    t = make(currency="CHIPS", buy_in=10_00, bots_allowed=True, max_players=8, min_players=8, table_size=4)
    assert services.fill_with_bots(t.pk) == 8
    t.refresh_from_db()
    assert t.status == "running"
    assert sorted(len(rt.players) for rt in RoundTable.objects.filter(round__tournament=t)) == [4, 4]


def test_the_hook_after_a_tables_commit_records_it_and_the_sweep_seats_the_next_round(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """``games.services.after_commit`` (connected by TournamentsConfig.ready): a round's table
    whose game is over is recorded as its write commits, and the round's last one ends the
    round; the sweep's next tick seats the next round (never the thread of the last move)."""
    assert services.on_table_written in tables.after_commit
    t = make(currency="CHIPS", buy_in=0, bots_allowed=True, max_players=4, min_players=4, table_size=2)
    services.fill_with_bots(t.pk)
    with playing(4) as simulator, django_capture_on_commit_callbacks(execute=True):
        for round_table in RoundTable.objects.filter(round__tournament=t):
            assert round_table.table is not None
            simulator.play_table(round_table.table)
    assert (
        RoundTable.objects.filter(round__number=1, round__tournament=t, ended_at__isnull=False).count() == 2
    )
    assert [(r.number, r.ended_at is not None) for r in t.rounds.order_by("number")] == [(1, True)]
    assert services.sweep() == 1
    assert [r.final for r in t.rounds.order_by("number")] == [False, True]
    assert services.sweep() == 0, "the final is in play: nothing to move"


def test_a_round_seats_a_player_at_the_open_seats_limit_and_counts_the_seat(
    alice: Any, settings: Any
) -> None:
    """The round seats everyone still in, whatever the player's other tables (they registered,
    and the tournament seats them); the tournament's seat then counts in the player's own limit
    at cash and practice tables, like any open seat."""
    settings.TABLE_MAX_OPEN_SEATS = 1
    practice = TableTemplate.objects.create(
        name="practice 101", variant="pool101", currency="CHIPS", seats=6, entry_fee=100
    )
    from wallet.cashier import topup_chips

    topup_chips(alice)
    tables.play_now(alice, practice)
    others = [make_user(n) for n in ("bob", "carol")]
    for user in others:
        fund(user, 1_000_00)
    t = make(max_players=3, min_players=3)
    for user in (alice, *others):
        services.register(t.pk, user)
    table_id = views_state.current_table(t, alice)
    assert table_id is not None
    assert Seat.objects.filter(user=alice, table_id=table_id, left_at__isnull=True).exists()
    with pytest.raises(GameError) as caught:
        tables.play_now(others[0], practice)  # bob: at his tournament table, the limit of one
    assert caught.value.code == "too_many_tables"


def test_a_practice_sit_and_go_fills_with_bots_after_its_first_player_waited(alice: Any) -> None:
    """Bots take the places left in a practice sit-and-go that allows them once a person has
    waited ``BOTS_AFTER``, as a practice table fills with bots; then it starts."""
    t = make(currency="CHIPS", buy_in=0, bots_allowed=True, max_players=6, min_players=6, table_size=3)
    services.register(t.pk, alice)
    services.sweep()
    assert Registration.objects.filter(tournament=t).count() == 1, "not before the wait"
    services.sweep(at=timezone.now() + services.BOTS_AFTER + timedelta(seconds=1))
    t.refresh_from_db()
    assert t.status == "running"
    assert Registration.objects.filter(tournament=t, player__is_bot=True).count() == 5


def test_a_scheduled_practice_tournament_gets_bots_up_to_its_minimum_at_the_start(alice: Any) -> None:
    start = timezone.now() + timedelta(minutes=5)
    t = make(
        currency="CHIPS",
        buy_in=0,
        bots_allowed=True,
        max_players=12,
        min_players=4,
        table_size=3,
        start_at=start,
    )
    services.register(t.pk, alice)
    services.sweep(at=start + timedelta(seconds=1))
    t.refresh_from_db()
    assert t.status == "running"
    assert Registration.objects.filter(tournament=t, status="registered").count() == 4


def test_a_practice_tournament_with_nobody_gets_no_bots_and_is_cancelled() -> None:
    start = timezone.now() + timedelta(minutes=5)
    t = make(currency="CHIPS", buy_in=0, bots_allowed=True, min_players=4, start_at=start)
    services.sweep(at=start + timedelta(seconds=1))
    t.refresh_from_db()
    assert t.status == "cancelled"
    assert not Registration.objects.filter(tournament=t).exists()


def test_r_tour_3_a_round_table_plays_as_many_deals_as_it_seats_at_80_chips_a_deal(alice: Any) -> None:
    """R-TOUR-3: a table of four plays four deals, everyone starting with 320 game chips, the
    tournament's number going through; the table is full: nobody else sits down."""
    from games.engine import table as engine

    t = make(
        currency="CHIPS", buy_in=0, bots_allowed=True, max_players=7, min_players=7, table_size=4, qualify=2
    )
    services.fill_with_bots(t.pk)
    sizes = {}
    for round_table in RoundTable.objects.filter(round__tournament=t):
        assert round_table.table is not None
        state = engine.TableState.from_json(round_table.table.state)
        sizes[len(round_table.players)] = (
            state.rules.deals,
            {p.chips for p in state.players},
            state.rules.qualify,
        )
        assert state.phase is engine.Phase.PLAYING
        with pytest.raises(GameError) as caught:
            tables.join(round_table.table_id, alice)
        assert caught.value.code == "game_running"
    assert sizes == {4: (4, {320}, 2), 3: (3, {240}, 2)}
