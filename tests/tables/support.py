"""Helpers for the table tests: templates, a clock, fixed seeds, scripted deals and turns, and
the after-game checks.

Scripted deals: every test module makes :func:`scripted` an autouse fixture, so the server's
seeds come from :class:`Seeds` (fixed per test) instead of the OS, and a test can then arrange
the running deal with :func:`rig`, which swaps cards between places (never invents one).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from games import services
from games.engine import table as engine
from games.engine.cards import Card, Jokers
from games.models import Seat, Table, TableEvent, TableTemplate
from tests.wallet.support import fund, pool
from wallet.ledger import get_account, seat_spec
from wallet.models import Currency
from wallet.reconcile import reconcile

PRIVATE_TYPES = {"dealt", "drew_card", "grouping_saved", "wrong_show_reason"}
SECRET_KEYS = {"hand", "hands", "groups", "grouping", "seed"}
"""Keys no public event may carry before its deal is over."""
REVEALING_TYPES = {"deal_over", "toss_revealed"}


class Seeds:
    """The server's seeds in a test: queued ones first, then a fixed sequence.

    ``services`` draws two seeds per deal, the deal's and then the toss's.
    """

    def __init__(self) -> None:
        self.drawn = 0
        self.queued: list[bytes] = []

    def __call__(self) -> bytes:
        self.drawn += 1
        if self.queued:
            return self.queued.pop(0)
        return hashlib.sha256(b"tables test seed %d" % self.drawn).digest()

    def next_deal(self, *, deal: bytes | None = None, toss: bytes | None = None) -> None:
        """Use these seeds for the next deal (None: the fixed sequence's)."""
        self.queued = [
            deal or hashlib.sha256(b"queued deal %d" % self.drawn).digest(),
            toss or hashlib.sha256(b"queued toss %d" % self.drawn).digest(),
        ]


def scripted(monkeypatch: Any, settings: Any) -> Seeds:
    """Fixed seeds for the server, and fast password hashing for the personas."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    seeds = Seeds()
    monkeypatch.setattr(services, "new_seed", seeds)
    return seeds


class Clock:
    """Server time in ms for the scripted tests: each tick moves one second on."""

    def __init__(self, start: int = 1_700_000_000_000) -> None:
        self.ms = start

    def __call__(self, step: int = 1000) -> int:
        self.ms += step
        return self.ms


def template(**fields: Any) -> TableTemplate:
    values: dict[str, Any] = {
        "name": "101 pool, 3 seats",
        "variant": "pool101",
        "currency": "INR",
        "seats": 3,
        "entry_fee": 2500,
        "rake_percent": 10,
    }
    values.update(fields)
    return TableTemplate.objects.create(**values)


def state(table: Table) -> engine.TableState:
    table.refresh_from_db()
    return engine.TableState.from_json(table.state)


def seat_all(tmpl: TableTemplate, users: list[Any], clock: Clock, money: int = 1_000_000) -> Table:
    for user in users:
        if tmpl.currency == "INR":
            fund(user, money)
    table = None
    for user in users:
        table = services.play_now(user, tmpl, at=clock())
    assert table is not None
    return table


def turn_player(table: Table) -> str:
    deal = state(table).deal
    assert deal is not None
    return deal.seats[deal.turn].player


def wrong_show(table: Table, user: Any, clock: Clock) -> None:
    services.act(table.pk, user, {"type": "draw", "source": "closed"}, at=clock())
    hand = _hand(table, user)
    services.act(table.pk, user, {"type": "finish", "card": hand[0]}, at=clock())
    services.act(table.pk, user, {"type": "declare", "groups": [hand[1:]]}, at=clock())


def play_turn(table: Table, user: Any, clock: Clock) -> None:
    services.act(table.pk, user, {"type": "draw", "source": "closed"}, at=clock())
    services.act(table.pk, user, {"type": "discard", "card": _hand(table, user)[-1]}, at=clock())


def _hand(table: Table, user: Any) -> list[str]:
    deal = state(table).deal
    assert deal is not None
    return [card.code for card in deal.seats[deal.seat_of(str(user.pk))].hand]


def play_deal(table: Table, users: list[Any], plan: dict[Any, str], clock: Clock) -> engine.TableState:
    """Play one deal: each turn player does their planned action (wrong, drop or play)."""
    by_name = {str(user.pk): user for user in users}
    actions = {str(user.pk): action for user, action in plan.items()}
    number = state(table).deal_number
    for _ in range(200):
        now = state(table)
        if now.deal_number != number or now.phase is not engine.Phase.PLAYING:
            return now
        name = turn_player(table)
        action = actions.get(name, "play")
        if action == "wrong":
            wrong_show(table, by_name[name], clock)
        elif action == "drop":
            services.act(table.pk, by_name[name], {"type": "drop"}, at=clock())
        else:
            play_turn(table, by_name[name], clock)
    raise AssertionError("the deal did not end")


def pass_deadline(table: Table, clock: Clock) -> bool:
    now = state(table)
    deadline = now.deadline_ms
    assert deadline is not None, "the table waits for no deadline"
    clock.ms = max(clock.ms, deadline)
    return services.expire(table.pk, table.version, at=clock(1))


def check_after_game(table: Table, users: list[Any]) -> None:
    """The wallet reconciles, the pool is empty, every points seat is released, and no player
    saw another's cards before a deal was over."""
    assert reconcile() == []
    assert pool(table.pool_ref) == 0
    table.refresh_from_db()
    if table.template.variant in ("points21", "points13"):
        currency = Currency(table.template.currency)
        for seat in Seat.objects.filter(table=table):
            assert seat.left_at is not None, f"{seat} is still open"
            account = get_account(seat_spec(seat.seat_ref, seat.user_id, currency))
            assert account is None or (account.closed_at is not None and account.balance == 0), seat
    check_privacy(table, users)


def check_so_far(table: Table, users: list[Any]) -> None:
    """For a game still running: the wallet reconciles, the pool account holds exactly the prize
    pool (every fee paid in, nothing paid out), and no player saw another's cards."""
    assert reconcile() == []
    now = state(table)
    assert pool(table.pool_ref) == (now.prize_pool if now.has_prize_pool else 0)
    check_privacy(table, users)


def check_privacy(table: Table, users: list[Any]) -> None:
    """Private events name their one viewer; public events reveal no hand, grouping or seed
    except the deal's result and the toss revealed after it; each player's feed shows them
    only their own private events."""
    viewer = {}
    for event in TableEvent.objects.filter(table=table):
        viewer[event.version] = event.user_id
        if event.type in PRIVATE_TYPES:
            assert event.user_id is not None, f"{event.type} v{event.version} is public"
        if event.user_id is None and event.type not in REVEALING_TYPES:
            leaked = SECRET_KEYS & set(event.data)
            assert not leaked, f"public {event.type} v{event.version} carries {leaked}"
    for user in users:
        feed = services_events(table, user)
        assert [event["v"] for event in feed] == sorted(viewer), "every version, in order"
        for event in feed:
            if "type" in event:
                assert viewer[event["v"]] in (None, user.pk), f"{user} sees v{event['v']} of another"
            else:
                assert viewer[event["v"]] not in (None, user.pk), f"{user} misses v{event['v']}"


def services_events(table: Table, user: Any) -> list[dict[str, Any]]:
    from games.views_state import events_for

    return events_for(table, user, 0)


# --- scripted deals -------------------------------------------------------------------------


def rig(
    table: Table,
    hands: dict[Any, str] | None = None,
    *,
    cut: str | None = None,
    open_top: str | None = None,
    closed_top: Sequence[str] = (),
) -> None:
    """Arrange the running deal: each given player (user or name) holds exactly these cards;
    the cut card, the open pile's top and the closed pile's first cards are as given.

    Cards are swapped between places, never made up, so hands and piles still hold the shoe
    exactly once (R-CARD-3). The deal's revealed seed no longer re-derives a rigged deal.
    """
    table.refresh_from_db()
    data = table.state
    deal = data["deal"]
    places: list[tuple[str, int, int]] = []
    for s, seat in enumerate(deal["seats"]):
        places.extend(("hand", s, i) for i in range(len(seat["hand"])))
    places.append(("cut", 0, 0))
    places.extend(("open", 0, i) for i in range(len(deal["open_pile"])))
    places.extend(("closed", 0, i) for i in range(len(deal["closed_pile"])))

    def read(place: tuple[str, int, int]) -> str:
        kind, s, i = place
        if kind == "hand":
            return str(deal["seats"][s]["hand"][i])
        if kind == "cut":
            return str(deal["cut"])
        return str(deal[f"{kind}_pile"][i])

    def write(place: tuple[str, int, int], code: str) -> None:
        kind, s, i = place
        if kind == "hand":
            deal["seats"][s]["hand"][i] = code
        elif kind == "cut":
            deal["cut"] = code
        else:
            deal[f"{kind}_pile"][i] = code

    fixed: set[int] = set()

    def put(target: int, code: str) -> None:
        if read(places[target]) != code:
            source = next(
                (j for j in range(len(places) - 1, -1, -1) if j not in fixed and read(places[j]) == code),
                None,
            )
            assert source is not None, f"no free {code} left in the shoe"
            here = read(places[target])
            write(places[target], code)
            write(places[source], here)
        fixed.add(target)

    if cut is not None:
        put(places.index(("cut", 0, 0)), cut)
    if open_top is not None:
        put(places.index(("open", 0, len(deal["open_pile"]) - 1)), open_top)
    for i, code in enumerate(closed_top):
        put(places.index(("closed", 0, i)), code)
    names = [seat["player"] for seat in deal["seats"]]
    for who, codes in (hands or {}).items():
        seat = names.index(name_of(who))
        wanted = codes.split()
        mine = [places.index(("hand", seat, i)) for i in range(len(deal["seats"][seat]["hand"]))]
        assert len(wanted) == len(mine), f"{len(wanted)} cards for a hand of {len(mine)}"
        left = list(wanted)
        free = []
        for index in mine:  # keep the cards already in place
            if read(places[index]) in left and index not in fixed:
                left.remove(read(places[index]))
                fixed.add(index)
            else:
                free.append(index)
        for index, code in zip(free, left, strict=True):
            put(index, code)
    if not any(seat["has_drawn"] for seat in deal["seats"]):
        jokers = Jokers.from_cut(Card.parse(deal["cut"]), value_cards=deal["variant"]["hand_size"] == 21)
        deal["first_open_joker"] = jokers.is_joker(Card.parse(deal["open_pile"][-1]))
    Table.objects.filter(pk=table.pk).update(state=data)
    table.refresh_from_db()


def name_of(who: Any) -> str:
    return who if isinstance(who, str) else str(who.pk)


def in_turn_order(table: Table, users: Iterable[Any]) -> list[Any]:
    """The players of the running deal, from the one whose turn it is, in playing order."""
    deal = state(table).deal
    assert deal is not None
    by_name = {str(user.pk): user for user in users}
    seats = [seat.player for seat in deal.seats]
    return [by_name[seats[(deal.turn + k) % len(seats)]] for k in range(len(seats))]


def hand_of(table: Table, user: Any) -> list[str]:
    return _hand(table, user)


def draw_discard(table: Table, user: Any, clock: Clock, card: str | None = None) -> None:
    """Draw the closed pile's top and discard ``card`` (default: the card just drawn)."""
    services.act(table.pk, user, {"type": "draw", "source": "closed"}, at=clock())
    if card is None:
        deal = state(table).deal
        assert deal is not None
        assert deal.drawn is not None
        card = deal.drawn.code
    services.act(table.pk, user, {"type": "discard", "card": card}, at=clock())


def declare(table: Table, user: Any, finish: str, groups: str, clock: Clock) -> None:
    """Draw the closed pile's top, put ``finish`` in the finish slot, declare ``groups``
    (groups separated by ``|``: ``"AS 2S 3S | 4H 5H 6H"``)."""
    services.act(table.pk, user, {"type": "draw", "source": "closed"}, at=clock())
    services.act(table.pk, user, {"type": "finish", "card": finish}, at=clock())
    services.act(table.pk, user, {"type": "declare", "groups": grouping(groups)}, at=clock())


def show(table: Table, user: Any, groups: str, clock: Clock) -> None:
    services.act(table.pk, user, {"type": "show", "groups": grouping(groups)}, at=clock())


def grouping(text: str) -> list[list[str]]:
    return [part.split() for part in text.split("|") if part.split()]


def scores(table: Table) -> dict[str, int]:
    """The last finished deal's score per player name."""
    history = state(table).history
    assert history, "no deal is over yet"
    return dict(history[-1]["scores"])
