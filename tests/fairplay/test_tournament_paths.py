"""Tournaments are money paths too: a round never seats two strongly linked accounts at one table,
with fair play's own answer registered as at start-up, and a self-excluded person's second
account is refused the buy-in (R-PROT-3, R-TOUR-3)."""

from __future__ import annotations

from typing import Any

import pytest

from fairplay.words import LINKED_SELF_EXCLUDED
from protection import exclusions
from tests.conftest import make_user
from tests.fairplay.support import OTHER_DEVICE, link_by_address, link_by_device
from tests.tournaments.support import make
from tests.wallet.support import _fast_password_hashing, fund, wallet  # noqa: F401
from tournaments import services
from tournaments.models import RoundTable
from tournaments.services import TournamentError

pytestmark = [pytest.mark.postgres, pytest.mark.django_db, pytest.mark.usefixtures("money_on")]


def funded_players(count: int) -> list[Any]:
    players = [make_user(f"t{i:02d}") for i in range(count)]
    for player in players:
        fund(player, 1_000_00)
    return players


def test_a_rounds_tables_keep_strongly_linked_accounts_apart__R_TOUR_3() -> None:
    players = funded_players(6)
    link_by_device(players[0], players[1])
    link_by_device(players[2], players[3], device=OTHER_DEVICE)
    t = make(max_players=6, min_players=6, table_size=3)
    for player in players:
        services.register(t.pk, player)
    round_tables = list(RoundTable.objects.filter(round__tournament=t).select_related("round"))
    tables = [set(rt.players) for rt in round_tables]
    assert len(tables) == 2
    pairs = sorted([sorted((players[0].pk, players[1].pk)), sorted((players[2].pk, players[3].pk))])
    assert sorted(round_tables[0].round.apart) == pairs, "the round asked fair play, and kept both apart"
    for low, high in ((players[0].pk, players[1].pk), (players[2].pk, players[3].pk)):
        assert not any({low, high} <= table for table in tables), "a linked pair shares a table"


def test_a_weak_link_alone_does_not_keep_players_apart_in_a_round() -> None:
    players = funded_players(2)
    link_by_address(players[0], players[1])
    t = make(max_players=2, min_players=2, table_size=2)
    for player in players:
        services.register(t.pk, player)
    (table,) = [set(rt.players) for rt in RoundTable.objects.filter(round__tournament=t)]
    assert table == {players[0].pk, players[1].pk}


def test_a_self_excluded_persons_second_account_is_refused_the_buy_in__R_PROT_3() -> None:
    first, second = funded_players(2)
    link_by_device(first, second)
    exclusions.take(first, "exclude_6m")
    t = make(min_players=3)
    with pytest.raises(TournamentError) as refused:
        services.register(t.pk, second)
    assert (refused.value.code, refused.value.message) == LINKED_SELF_EXCLUDED
    assert wallet(second) == 1_000_00, "no buy-in taken"
