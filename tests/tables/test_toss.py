"""The toss, the seating and the dealer at the table (R-TOSS-1..3), and the toss verifiable
from the deal history like the deal itself (R-DEAL-5)."""

from __future__ import annotations

import hashlib

import pytest

from games import services
from games.engine import table as engine
from games.engine.shuffle import seed_from_hex, verify
from games.engine.toss import toss, toss_strength
from games.models import Deal, TableEvent
from tests.tables.support import (
    Clock,
    check_after_game,
    check_so_far,
    declare,
    in_turn_order,
    pass_deadline,
    play_deal,
    rig,
    scripted,
    seat_all,
    show,
    state,
    template,
)
from tests.wallet.support import fund

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def seeds(monkeypatch, settings):
    return scripted(monkeypatch, settings)


def names(users):
    return [str(u.pk) for u in users]


def events(table, kind):
    return [e.data for e in TableEvent.objects.filter(table=table, type=kind).order_by("version")]


def test_it_seats_by_the_toss_and_reveals_its_seed_after_the_deal__R_TOSS_1_R_TOSS_2(alice, bob, carol):
    """Each player gets one toss card (no printed joker); the highest plays first, the lowest
    deals. The toss event commits to the toss seed; once the deal is over the seed is revealed
    and re-derives every toss card and the seating."""
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    (tossed,) = events(table, "toss")
    cards = {c["player"]: c["card"] for c in tossed["cards"]}
    assert sorted(cards) == sorted(names(users))
    assert all(c["round"] == 0 for c in tossed["cards"])
    assert "PJ" not in cards.values()
    from games.engine.cards import Card

    by_strength = sorted(cards, key=lambda n: toss_strength(Card.parse(cards[n])), reverse=True)
    assert tossed["seating"] == by_strength
    started = events(table, "deal_started")[0]
    assert started["players"] == by_strength
    assert started["dealer"] == by_strength[-1], "the lowest toss card deals"
    assert in_turn_order(table, users)[0].pk == int(by_strength[0]), "the highest plays first"
    assert not events(table, "toss_revealed"), "the toss seed stays secret during the deal"

    play_deal(table, users, {alice: "drop", bob: "drop", carol: "drop"}, clock)
    (revealed,) = events(table, "toss_revealed")
    deal = Deal.objects.get(table=table, number=1)
    assert deal.result["toss"] == {k: revealed[k] for k in ("seed", "commitment", "players")}
    seed = seed_from_hex(revealed["seed"])
    assert revealed["commitment"] == tossed["commitment"]
    assert verify(tossed["commitment"], seed)
    again = toss(revealed["players"], seed)
    assert [{"player": c.player, "card": c.card.code, "round": c.round} for c in again.cards] == tossed[
        "cards"
    ]
    assert list(again.seating) == tossed["seating"]


def tie_seed(players: int) -> bytes:
    """A toss seed whose first round gives two of ``players`` identical cards."""
    for i in range(10_000):
        seed = hashlib.sha256(b"tie %d" % i).digest()
        if any(c.round for c in toss([str(n) for n in range(players)], seed).cards):
            return seed
    raise AssertionError("no tie in 10000 seeds")


def test_it_retosses_identical_cards_between_those_players_only__R_TOSS_1(alice, bob, carol, seeds):
    clock = Clock()
    users = [alice, bob, carol]
    seeds.next_deal(toss=tie_seed(3))
    table = seat_all(template(), users, clock)
    (tossed,) = events(table, "toss")
    first = [c for c in tossed["cards"] if c["round"] == 0]
    again = [c for c in tossed["cards"] if c["round"] > 0]
    assert len(first) == 3
    tied = {c["player"] for c in again}
    assert len(tied) == 2, "only the two players with identical cards toss again"
    assert len({c["card"] for c in first if c["player"] in tied}) == 1
    # The tied pair keeps its place relative to the third player (R-TOSS-2).
    other = next(c for c in first if c["player"] not in tied)
    tied_card = next(c["card"] for c in first if c["player"] in tied)
    from games.engine.cards import Card

    other_first = toss_strength(Card.parse(other["card"])) > toss_strength(Card.parse(tied_card))
    assert (tossed["seating"][0] == other["player"]) is other_first
    check_so_far(table, users)


def test_it_gives_the_deal_to_who_played_first_when_nobody_joined__R_TOSS_3(alice, bob, carol):
    """No re-toss in the second deal of a pool game: the player who played first deals, play
    starts to the dealer's left, the seating stays; the history keeps no toss for deal 2."""
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    seating = events(table, "toss")[0]["seating"]
    play_deal(table, users, {alice: "drop", bob: "drop", carol: "drop"}, clock)
    pass_deadline(table, clock)
    assert len(events(table, "toss")) == 1
    second = events(table, "deal_started")[1]
    assert second["players"] == seating
    assert second["dealer"] == seating[0]
    assert in_turn_order(table, users)[0].pk == int(seating[1])
    assert Deal.objects.get(table=table, number=2).dealer == seating[0]
    play_deal(table, users, {alice: "drop", bob: "drop", carol: "drop"}, clock)
    assert Deal.objects.get(table=table, number=2).result["toss"] is None
    check_so_far(table, users)


def test_it_keeps_the_dealer_when_the_first_player_left__R_TOSS_3(players):
    """Four players; whoever played first in deal 1 leaves (forfeit): the previous dealer stays
    dealer, the seating keeps its order without the leaver, and nobody tosses again."""
    clock = Clock()
    users = players[:4]
    table = seat_all(template(seats=4), users, clock)
    seating = events(table, "toss")[0]["seating"]
    first = next(u for u in users if str(u.pk) == seating[0])
    play_deal(table, users, dict.fromkeys(users, "drop"), clock)
    services.leave(table.pk, first, at=clock())
    pass_deadline(table, clock)
    second = events(table, "deal_started")[1]
    assert second["players"] == seating[1:]
    assert second["dealer"] == seating[3], "the previous dealer stays dealer"
    assert in_turn_order(table, users)[0].pk == int(seating[1])
    assert len(events(table, "toss")) == 1


# 21 cards that score 0 as a losing hand and declare as a winning one (three pure sequences,
# the rest in sets), with no joker and no value card when 5H is cut.
ZERO = "AS 2S 3S 7D 8D 9D TC JC QC KH KS KD 8C 8S 8H QS QH QD 2D 3D 4D"
ZERO_GROUPS = "AS 2S 3S | 7D 8D 9D | TC JC QC | KH KS KD | 8C 8S 8H | QS QH QD | 2D 3D 4D"


def zero_deal(table, users, clock):
    """A 21-card deal that nobody loses: every seat keeps its 200 points."""
    order = in_turn_order(table, users)
    rig(table, dict.fromkeys(order, ZERO), cut="5H", closed_top=["9H"])
    declare(table, order[0], "9H", ZERO_GROUPS, clock)
    for user in order[1:]:
        show(table, user, ZERO_GROUPS, clock)
    assert all(p.held == 20_000 for p in state(table).seated)


def table21(users, clock, seats):
    tmpl = template(name="21 card", variant="points21", seats=seats, entry_fee=0, point_value=100)
    table = seat_all(tmpl, users, clock)
    if state(table).waiting_for == "countdown":
        pass_deadline(table, clock)
    return table


def test_it_never_reseats_a_21_card_table_for_a_player_who_leaves__R_TOSS_3(alice, bob, carol):
    """The first player of deal 1 leaves in the pause: the previous dealer stays dealer, the two
    others keep their order, no toss."""
    clock = Clock()
    users = [alice, bob, carol]
    table = table21(users, clock, seats=3)
    seating = events(table, "toss")[0]["seating"]
    zero_deal(table, users, clock)
    first = next(u for u in users if str(u.pk) == seating[0])
    services.leave(table.pk, first, at=clock())
    pass_deadline(table, clock)
    assert state(table).phase is engine.Phase.PLAYING
    second = events(table, "deal_started")[1]
    assert (second["players"], second["dealer"]) == (seating[1:], seating[2])
    assert len(events(table, "toss")) == 1
    for user in users:
        if user != first:
            services.leave(table.pk, user, at=clock())
    check_after_game(table, users)


def test_it_does_not_toss_for_a_player_who_joined_and_left_before_playing__R_TOSS_1_R_TOSS_3(
    alice, bob, carol
):
    """Decision: a 21-card player who joins and leaves before the next deal never joined as far
    as the toss goes; the dealer simply rotates to who played first."""
    clock = Clock()
    users = [alice, bob]
    table = table21(users, clock, seats=3)
    seating = events(table, "toss")[0]["seating"]
    fund(carol, 1_000_000)
    services.join(table.pk, carol, at=clock())
    zero_deal(table, users, clock)
    services.leave(table.pk, carol, at=clock())
    pass_deadline(table, clock)
    second = events(table, "deal_started")[1]
    assert len(events(table, "toss")) == 1
    assert (second["players"], second["dealer"]) == (seating, seating[0])
    for user in users:
        services.leave(table.pk, user, at=clock())
    check_after_game(table, [alice, bob, carol])
