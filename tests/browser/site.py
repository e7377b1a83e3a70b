"""The site for the browser tests, run in its own process against its own SQLite file.

``python -m tests.browser.site setup``: migrate, create the players and table templates.
``python -m tests.browser.site serve PORT``: serve over ASGI (daphne, websockets, embedded
timers). With ``BROWSER_DEAL_SEEDS=N`` the first deal's seeds are the fixed pair number N
(``seed_pair``), so the test knows the hands; every later seed is random as usual.
``python -m tests.browser.site backoffice``: real play for the staff (tests/browser/test_backoffice.py).
``python -m tests.browser.site six_seats N``: alice and five players with long names at a 6-seat
practice pool table, seeded by the pair N (tests/browser/test_phone_table.py).
``python -m tests.browser.site deals_tie``: carol and a bot tied after the two deals of a
practice deals table, its tie-breaker next (tests/browser/test_formats.py).
``python -m tests.browser.site check TABLE``: print, as JSON, each finished deal's hands with
the engine's score of each recorded grouping (``games.engine.melds.evaluate``).
``python -m tests.browser.site accounts``: alice's address, confirmed (tests/browser/test_accounts.py).
``python -m tests.browser.site risk_desk``: a chip-dumping case about alice and bob, resting on a
finished deal of theirs, for the risk desk (tests/browser/test_risk_desk.py).
``python -m tests.browser.site tournament``: a practice sit-and-go of 6 and a cup alice is
registered for, starting in 8 minutes (tests/browser/test_tournaments.py). With
``BROWSER_BOT_THINK_SECONDS`` the bots move that soon after each write.

The site mails into files, one a message, in :func:`mail_folder` of its database: a test reads
what a player would find in their inbox there.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

PASSWORD = "browser-test-pass-1"
PLAYERS = ("alice", "bob", "carol")
#: Practice templates of the two formats played deal after deal against a bot (quick turns).
POINTS_VS_A_BOT = "Browser practice points vs a bot"
DEALS_VS_A_BOT = "Browser practice deals, best of 2, vs a bot"


def seed_pair(number: int) -> tuple[bytes, bytes]:
    """The deal seed and toss seed number ``number`` (found by searching for a reachable declaration)."""
    return (
        hashlib.sha256(b"browser deal %d" % number).digest(),
        hashlib.sha256(b"browser toss %d" % number).digest(),
    )


def mail_folder(database: Path) -> Path:
    """Where the site serving ``database`` puts its mail (Django's file back end)."""
    return database.parent / f"{database.stem}-mail"


def _django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")
    import django

    django.setup()


def setup() -> None:
    _django()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    from accounts.models import User
    from games.models import TableTemplate
    from wallet.cashier import topup_chips

    for name in PLAYERS:
        user = User.objects.create_user(username=name, password=PASSWORD, display_name=name.title())
        user.adult_confirmed_at = user.date_joined
        user.save()
        topup_chips(user)
    TableTemplate.objects.create(
        name="Browser 101 pool, 2 seats",
        variant="pool101",
        currency="CHIPS",
        seats=2,
        entry_fee=1000,
        rejoin_seconds=3,
    )
    vs_a_bot("Browser practice 61 pool vs a bot", "pool61", entry_fee=1000, rejoin_seconds=2)
    vs_a_bot("Browser practice 21 cards vs a bot", "points21", point_value=10)
    vs_a_bot(POINTS_VS_A_BOT, "points13", point_value=10)
    vs_a_bot(DEALS_VS_A_BOT, "deals", entry_fee=1000, deals=2)
    call_command("seed_tables", verbosity=0)


def vs_a_bot(name: str, variant: str, **fields: Any) -> None:
    """A practice template for one player against a bot, with quick turns."""
    from games.models import TableTemplate

    TableTemplate.objects.create(
        name=name,
        variant=variant,
        currency="CHIPS",
        seats=2,
        bots_allowed=True,
        move_seconds=8,
        extra_seconds=2,
        show_seconds=10,
        **fields,
    )


STAFF = {"rita": "risk", "ravi": "risk", "cash": "cashier"}


def seat_at_a_new_pool_table(players: list[Any], **template: Any) -> None:
    """Seat ``players`` at a new 101 pool table of a new template (a one-second countdown, long
    turns), so its game starts as the site is served; print the table's id."""
    from games import services
    from games.models import TableTemplate

    table = services.open_table(
        TableTemplate.objects.create(
            variant="pool101", start_countdown_seconds=1, move_seconds=120, extra_seconds=60, **template
        )
    )
    for user in players:
        services.join(table.pk, user)
    print(table.pk)


def backoffice() -> None:
    """Real play for the staff: alice and bob in a running ₹ pool game, carol's withdrawal
    waiting, and staff of the risk (two) and cashier groups."""
    _django()
    from django.contrib.auth.models import Group

    from accounts.models import User
    from protection import kyc
    from wallet import cashier

    for name, role in STAFF.items():
        user = User.objects.create_user(username=name, password=PASSWORD, is_staff=True)
        user.groups.add(Group.objects.get(name=role))
    players = {name: User.objects.get(username=name) for name in PLAYERS}
    for user in players.values():
        cashier.confirm_deposit(cashier.create_deposit(user, 25_000_50).provider_ref)
    kyc.submit(players["carol"], "pan", "ABCDE1234C", provider=kyc.SandboxKyc())
    kyc.decide(players["carol"], True, by=None, reason="the provider matched the name")
    cashier.request_withdrawal(players["carol"], 1_500_00)
    seat_at_a_new_pool_table(
        [players["alice"], players["bob"]],
        name="Staff 101 pool, ₹100",
        currency="INR",
        seats=2,
        entry_fee=100_00,
    )


def risk_desk() -> None:
    """Rita and ravi of the risk role; alice, bob and carol with ₹25,000.50 each; a ₹ pool game
    of alice and bob whose first deal is over (alice dropped); and a chip-dumping case about the
    two, its evidence resting on that deal. Prints the case's id."""
    _django()
    from django.contrib.auth.models import Group

    from accounts.models import User
    from fairplay.cases import open_case
    from games import services
    from games.models import Deal, TableTemplate
    from wallet import cashier

    for name in ("rita", "ravi"):
        user = User.objects.create_user(username=name, password=PASSWORD, is_staff=True)
        user.groups.add(Group.objects.get(name="risk"))
    players = {name: User.objects.get(username=name) for name in PLAYERS}
    for user in players.values():
        cashier.confirm_deposit(cashier.create_deposit(user, 25_000_50).provider_ref)
    alice, bob = players["alice"], players["bob"]
    template = TableTemplate.objects.create(
        name="Risk 101 pool, ₹100", variant="pool101", currency="INR", seats=2, entry_fee=100_00
    )
    services.play_now(alice, template)
    table = services.play_now(bob, template)
    table.refresh_from_db()
    deal = table.state["deal"]
    turn = deal["seats"][deal["turn"]]["player"]
    services.act(table.pk, alice if str(alice.pk) == turn else bob, {"type": "drop"})
    over = Deal.objects.get(table=table, number=1)
    evidence = {
        "figures": [
            {"name": "chips_passed", "value": 7_200_00, "baseline": 1_000_00, "unit": "paise"},
            {"name": "drops", "value": 0.81, "baseline": 0.22, "unit": "share"},
        ],
        "counts": {"deals_together": 40, "tables_together": 12},
        "deals": [over.pk],
        "links": [{"users": [alice.pk, bob.pk], "reasons": ["device", "address"]}],
    }
    case = open_case("chip_dumping", [alice, bob], evidence, score=7.2, key=f"dump:{alice.pk}:{bob.pk}")
    print(case.pk)


#: Five players with long names (a seat shows the username), who fill a 6-seat table with alice.
LONG_NAMES = (
    "priyanka.venkataraman",
    "siddharth.chakraborty",
    "anantharaman.iyer",
    "lakshminarayanan",
    "bhagyalakshmi.reddy",
)


def six_seats(seeds: str) -> None:
    """alice and five players with long names at a 6-seat practice pool table, its game started
    from the seed pair number ``seeds`` (so who plays first is known)."""
    _django()
    from accounts.models import User
    from games import services
    from wallet.cashier import topup_chips

    queued = list(seed_pair(int(seeds)))
    services.new_seed = lambda: queued.pop(0)  # type: ignore[assignment]

    players = [User.objects.get(username="alice")]
    for name in LONG_NAMES:
        user = User.objects.create_user(username=name, password=PASSWORD, display_name=name.title())
        user.adult_confirmed_at = user.date_joined
        user.save()
        topup_chips(user)
        players.append(user)
    seat_at_a_new_pool_table(
        players, name="Browser 101 pool, 6 seats", currency="CHIPS", seats=6, entry_fee=1000
    )


def accounts() -> None:
    """Alice has an address she confirmed: a password reset can reach her."""
    _django()
    from django.utils import timezone

    from accounts.models import User

    alice = User.objects.get(username="alice")
    alice.email = "alice@example.com"
    alice.save()
    alice.email_verified_at = timezone.now()
    alice.save(update_fields=["email_verified_at"])


#: The seed pairs (``seed_pair``) of the two deals before the tie-breaker of ``deals_tie``.
TIE_SEEDS = (501, 502)


def deals_tie() -> None:
    """carol and a bot at a practice deals table (best of 2), tied after its two deals: each
    deal's first player dropped on their first turn (20 game chips each way), so the table is
    in the pause before its tie-breaker deal, or in that deal (R-DEALS-4). The deals' seeds are
    fixed (``TIE_SEEDS``), so the seating and who plays first are known; served with
    ``BROWSER_DEAL_SEEDS``, the tie-breaker deal is known too."""
    _django()
    import time

    from accounts.models import User
    from games import services
    from games.bots import fill_with_bots
    from games.engine import table as engine
    from games.models import Table, TableTemplate

    queued = [*seed_pair(TIE_SEEDS[0]), *seed_pair(TIE_SEEDS[1])]  # the two deals and their tosses
    services.new_seed = lambda: queued.pop(0)  # type: ignore[assignment]
    carol = User.objects.get(username="carol")
    table = fill_with_bots(services.play_now(carol, TableTemplate.objects.get(name=DEALS_VS_A_BOT)))
    for number in (1, 2):
        state = engine.TableState.from_json(Table.objects.get(pk=table.pk).state)
        assert state.deal is not None, state.phase
        assert state.deal_number == number
        first = state.deal.seats[state.deal.turn].player
        services.act(table.pk, User.objects.get(pk=int(first)), {"type": "drop"})
        if number == 1:  # the pause between the deals (5 s), then the second deal
            time.sleep(5.2)
            assert services.expire(table.pk, Table.objects.get(pk=table.pk).version)
    state = engine.TableState.from_json(Table.objects.get(pk=table.pk).state)
    assert len(state.tie_break) == 2, state.tie_break
    print(table.pk)


#: The practice sit-and-go of ``tournament``: six players at two tables of three, one through
#: from each, the final of two; and the scheduled cup alice is registered for (the reminder).
SIT_AND_GO = "Practice sit and go of 6"
SCHEDULED = "Evening cup"


def tournament() -> None:
    """A practice sit-and-go of 6 that bots fill (quick turns at its tables), and a cup starting
    in 8 minutes that alice is registered for, so every page reminds her of it."""
    _django()
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import User
    from games.models import TableTemplate
    from tournaments import services

    sit_and_go = services.create(
        name=SIT_AND_GO,
        buy_in=10_00,
        min_players=6,
        max_players=6,
        table_size=3,
        qualify=1,
        prize_bps=(7_000, 3_000),
        bots_allowed=True,
        move_seconds=8,
    )
    TableTemplate.objects.filter(pk=sit_and_go.template_id).update(
        extra_seconds=2, show_seconds=10, start_countdown_seconds=1
    )
    cup = services.create(
        name=SCHEDULED,
        buy_in=50_00,
        min_players=2,
        max_players=60,
        table_size=6,
        qualify=2,
        prize_bps=(5_000, 3_000, 2_000),
        start_at=timezone.now() + timedelta(minutes=8),
    )
    services.register(cup.pk, User.objects.get(username="alice"))


def serve(port: str) -> None:
    _django()
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(mail_folder(Path(os.environ["SQLITE_PATH"])))
    think = os.environ.get("BROWSER_BOT_THINK_SECONDS")
    if think:
        from games import timers

        timers.BOT_THINK_SECONDS = float(think)
    seeds = os.environ.get("BROWSER_DEAL_SEEDS")
    if seeds:
        from games import services
        from games.engine.shuffle import new_seed

        queued = list(seed_pair(int(seeds)))
        services.new_seed = lambda: queued.pop(0) if queued else new_seed()  # type: ignore[assignment]
    from daphne.cli import CommandLineInterface

    CommandLineInterface().run(["-b", "127.0.0.1", "-p", port, "rummysite.asgi:application"])


def check(table_id: str) -> None:
    _django()
    from games.engine.cards import Card, Jokers
    from games.engine.melds import evaluate
    from games.engine.pool import deal_show_score
    from games.engine.variants import variant_named
    from games.models import Deal, TableEvent

    out = []
    for deal in Deal.objects.filter(table_id=int(table_id)).exclude(result=None).order_by("number"):
        started = TableEvent.objects.filter(table_id=int(table_id), type="deal_started").order_by("version")
        cut = started[deal.number - 1].data["cut"]
        variant = variant_named(started[deal.number - 1].data["variant"])
        jokers = Jokers.from_cut(Card.parse(cut), value_cards=variant.is_points21)
        players = []
        for row in deal.result["players"]:
            engine_score = None
            if row["grouping"] is not None:
                hand = [Card.parse(code) for code in row["hand"]]
                groups = [[Card.parse(code) for code in group] for group in row["grouping"]]
                engine_score = evaluate(variant, jokers, hand, groups).score
                if row["outcome"] == "deal_show":  # R-SHOW-3: no turn yet, half the hand score
                    engine_score = deal_show_score(variant, engine_score)
            players.append({**row, "engine_score": engine_score})
        out.append({"number": deal.number, "winner": deal.result["winner"], "players": players})
    print(json.dumps(out))


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    commands = {
        "setup": setup,
        "serve": serve,
        "check": check,
        "backoffice": backoffice,
        "six_seats": six_seats,
        "accounts": accounts,
        "deals_tie": deals_tie,
        "risk_desk": risk_desk,
        "tournament": tournament,
    }
    commands[command](*args)
