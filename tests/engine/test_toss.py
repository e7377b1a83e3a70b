"""The toss, the seating and the dealer (R-TOSS-1..3)."""

from __future__ import annotations

import hashlib

import pytest

from games.engine.cards import Card, parse_cards, shoe
from games.engine.deal import start_deal
from games.engine.shuffle import shuffled
from games.engine.toss import next_dealer, retoss_seed, seating_after_leaving, toss, toss_strength
from games.engine.variants import POOL101

PLAYERS = ("asha", "bala", "chet", "dev", "esha", "farid")


def seed(n: int) -> bytes:
    return hashlib.sha256(b"toss test %d" % n).digest()


def test_ace_is_high_then_king_down_to_two__R_TOSS_1():
    order = parse_cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S")
    strengths = [toss_strength(card) for card in order]
    assert strengths == sorted(strengths, reverse=True)
    assert toss_strength(Card.parse("AC")) > toss_strength(Card.parse("KS"))
    assert toss_strength(Card.parse("3C")) > toss_strength(Card.parse("2S"))


def test_equal_ranks_break_by_suit_spades_hearts_diamonds_clubs__R_TOSS_1():
    order = parse_cards("7S 7H 7D 7C")
    strengths = [toss_strength(card) for card in order]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == 4


def test_printed_joker_has_no_toss_strength__R_TOSS_1():
    with pytest.raises(ValueError, match="printed jokers"):
        toss_strength(Card.PRINTED_JOKER)


def test_toss_never_deals_a_printed_joker__R_TOSS_1():
    for n in range(200):
        result = toss(PLAYERS, seed(n))
        assert all(not shown.card.is_printed_joker for shown in result.cards)


def test_toss_is_the_same_for_the_same_seed__R_TOSS_1():
    assert toss(PLAYERS, seed(1)) == toss(PLAYERS, seed(1))
    assert any(toss(PLAYERS, seed(1)).seating != toss(PLAYERS, seed(n)).seating for n in range(2, 6))


def test_seating_runs_from_highest_card_to_lowest_who_deals__R_TOSS_2():
    for n in range(50):
        result = toss(PLAYERS, seed(n))
        first_round = {shown.player: shown.card for shown in result.cards if shown.round == 0}
        assert set(first_round) == set(PLAYERS)
        strengths = [toss_strength(first_round[player]) for player in result.seating]
        assert strengths == sorted(strengths, reverse=True)
        assert sorted(result.seating) == sorted(PLAYERS)
        assert result.dealer == result.seating[-1]
        assert result.first == result.seating[0]


def test_identical_cards_toss_again_between_those_players_only__R_TOSS_1():
    found = None
    for n in range(3000):
        result = toss(PLAYERS, seed(n))
        if max(shown.round for shown in result.cards) == 1:
            found = (n, result)
            break
    assert found is not None, "no seed in 3000 gave exactly one re-toss"
    n, result = found
    first_round = {shown.player: shown.card for shown in result.cards if shown.round == 0}
    second_round = {shown.player: shown.card for shown in result.cards if shown.round == 1}
    tied = set(second_round)
    assert len(tied) >= 2
    # Only the players whose first cards were identical toss again.
    assert len({first_round[player] for player in tied}) == 1
    assert all(first_round[player] != first_round[other] for player in tied for other in set(PLAYERS) - tied)
    # Each round deals from the shoe without printed jokers, shuffled with the game seed and
    # then with a seed derived from it, in the order the players were given.
    assert retoss_seed(seed(n), 1) == hashlib.sha256(seed(n) + b"retoss" + (1).to_bytes(4, "big")).digest()
    no_jokers = tuple(card for card in shoe(2) if not card.is_printed_joker)
    assert [first_round[player] for player in PLAYERS] == list(shuffled(no_jokers, seed(n))[: len(PLAYERS)])
    tied_in_order = [player for player in PLAYERS if player in tied]
    retoss_deck = shuffled(no_jokers, retoss_seed(seed(n), 1))
    assert [second_round[player] for player in tied_in_order] == list(retoss_deck[: len(tied)])
    # The tied players keep the place of their card among the others, ordered by the re-toss.
    positions = sorted(result.seating.index(player) for player in tied)
    assert positions == list(range(positions[0], positions[0] + len(tied)))
    in_seat_order = [player for player in result.seating if player in tied]
    strengths = [toss_strength(second_round[player]) for player in in_seat_order]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths)


def test_toss_refuses_fewer_than_two_or_repeated_players__R_TOSS_1():
    with pytest.raises(ValueError, match="at least two"):
        toss(("asha",), seed(0))
    with pytest.raises(ValueError, match="repeats"):
        toss(("asha", "asha"), seed(0))


def test_play_starts_with_the_highest_toss_card_and_the_lowest_deals__R_TOSS_2():
    result = toss(PLAYERS[:4], seed(7))
    step = start_deal(POOL101, result.seating, dealer=len(result.seating) - 1, seed=seed(8), now_ms=0)
    assert step.state.seats[step.state.turn].player == result.first
    assert step.state.seats[step.state.dealer].player == result.dealer


def test_first_player_of_the_last_deal_deals_next__R_TOSS_3():
    seating = ("asha", "bala", "chet", "dev")
    assert next_dealer(seating, "dev", "asha", set(seating)) == "asha"
    assert next_dealer(seating, "asha", "bala", set(seating)) == "bala"


def test_if_the_first_player_left_the_dealer_stays__R_TOSS_3():
    seating = ("asha", "bala", "chet", "dev")
    assert next_dealer(seating, "dev", "asha", {"bala", "chet", "dev"}) == "dev"


def test_if_first_player_and_dealer_left_the_seat_before_the_dealer_deals__R_TOSS_3():
    """Decision: the nearest present player seated before the previous dealer."""
    seating = ("asha", "bala", "chet", "dev")
    assert next_dealer(seating, "dev", "asha", {"bala", "chet"}) == "chet"
    assert next_dealer(seating, "asha", "bala", {"chet", "dev"}) == "dev"


def test_leaving_never_reseats__R_TOSS_3():
    seating = ("asha", "bala", "chet", "dev", "esha")
    assert seating_after_leaving(seating, {"esha", "bala", "dev"}) == ("bala", "dev", "esha")


def test_a_new_player_means_a_new_toss__R_TOSS_1():
    with pytest.raises(ValueError, match="toss again"):
        next_dealer(("asha", "bala"), "bala", "asha", {"asha", "bala", "chet"})
