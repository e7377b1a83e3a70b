"""Scripted deals: each test plays a few moves and checks one rule (R-DEAL-*, R-TURN-*, R-DROP-*,
R-DECL-*, R-SHOW-*, R-21-*)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from games.engine.actions import (
    ActionError,
    Declare,
    Discard,
    Draw,
    Drop,
    Finish,
    IllegalAction,
    InvalidAction,
    SaveGrouping,
    Show,
    Timeout,
    action_from_json,
    action_to_json,
)
from games.engine.cards import Card, shoe
from games.engine.deal import (
    DealState,
    Outcome,
    Phase,
    Timing,
    apply,
    legal_actions,
    player_view,
    reshuffle_seed,
    start_deal,
)
from games.engine.shuffle import commitment, shuffled, verify
from games.engine.variants import POINTS21, POOL61, POOL101, POOL201
from tests.engine.deal_support import (
    LOOSE_13,
    LOOSE_SCORE,
    LOSER_13,
    LOSER_GROUPS,
    LOSER_ONE_PURE_SCORE,
    LOSER_SCORE,
    SEED,
    WIN_13,
    WIN_21,
    WIN_21_GROUPS,
    WIN_GROUPS,
    build,
    cards,
    groups,
    of_type,
    only,
    play,
    result_of,
)

C = Card.parse
THREE = ("asha", "bala", "chet")
# asha's hand is WIN_13 with QC in place of KS: drawing KS and finishing with QC declares.
ASHA_NEAR_WIN = "AH 2H 3H 4S 5S 6S 7S 8D 9D TD KC KD QC"


def pass_turn(state: DealState) -> DealState:
    """The turn player draws from the closed pile and discards the card drawn."""
    player = state.seats[state.turn].player
    state, _ = play(state, Draw(player, "closed", state.now_ms))
    assert state.drawn is not None
    state, _ = play(state, Discard(player, state.drawn, state.now_ms))
    return state


def refused(state: DealState, action: object, code: str) -> ActionError:
    """Apply an action that must be refused with ``code``; the state object is left as it was."""
    before = state.to_json()
    with pytest.raises(ActionError) as caught:
        apply(state, action)  # type: ignore[arg-type]
    assert caught.value.code == code, caught.value
    assert state.to_json() == before
    return caught.value


def near_win(**changes: Any) -> DealState:
    """asha to play first, bala and chet to follow; KS on the closed pile completes asha's hand."""
    hands = {"asha": ASHA_NEAR_WIN, "bala": LOSER_13, "chet": LOOSE_13}
    return build(hands, **{"closed_pile": "KS 8C 8H JD QS JS TS", **changes})


def declared_first_turn() -> DealState:
    """asha draws KS and declares on the deal's first turn: bala and chet never had a turn."""
    state, _ = play(
        near_win(),
        Draw("asha", "closed", 1_000),
        Finish("asha", C("QC"), 2_000),
        Declare("asha", groups(WIN_GROUPS), 3_000),
    )
    return state


def declared_after_a_round() -> DealState:
    """Everybody plays a turn, then asha draws KS and declares."""
    state = near_win(closed_pile="8C 8H JD KS QS")
    state, _ = play(
        state,
        Draw("asha", "closed", 1_000),
        Discard("asha", C("8C"), 2_000),
        Draw("bala", "closed", 3_000),
        Discard("bala", C("8H"), 4_000),
        Draw("chet", "closed", 5_000),
        Discard("chet", C("JD"), 6_000),
        Draw("asha", "closed", 7_000),
        Finish("asha", C("QC"), 8_000),
        Declare("asha", groups(WIN_GROUPS), 9_000),
    )
    return state


# --- R-DEAL: the deal -------------------------------------------------------------------------


def test_each_player_gets_13_cards_from_two_packs__R_DEAL_1():
    state = start_deal(POOL101, THREE, 2, SEED, now_ms=0).state
    assert [len(seat.hand) for seat in state.seats] == [13, 13, 13]
    everything = [card for seat in state.seats for card in seat.hand]
    everything += [*state.open_pile, *state.closed_pile, state.cut]
    assert Counter(everything) == Counter(shoe(2))


def test_21_card_tables_deal_21_cards_from_three_packs__R_DEAL_1_R_21_1():
    state = start_deal(POINTS21, ("asha", "bala", "chet", "dev"), 0, SEED, now_ms=0).state
    assert [len(seat.hand) for seat in state.seats] == [21] * 4
    assert state.packs == 3
    assert 4 * 21 + len(state.open_pile) + len(state.closed_pile) + 1 == 159


def test_pack_count_follows_the_table_rules__R_DEAL_1():
    with pytest.raises(ValueError, match="at least 2"):
        start_deal(POOL101, THREE, 0, SEED, now_ms=0, packs=1)
    assert start_deal(POOL101, ("asha", "bala"), 0, SEED, now_ms=0, packs=1).state.packs == 1
    with pytest.raises(ValueError, match="3 packs"):
        start_deal(POINTS21, THREE, 0, SEED, now_ms=0, packs=2)


def test_hands_cut_and_piles_come_from_the_seeded_order__R_DEAL_2_R_DEAL_4():
    state = start_deal(POOL101, THREE, 2, SEED, now_ms=0).state
    deck = shuffled(shoe(2), SEED)
    assert [seat.hand for seat in state.seats] == [deck[0:13], deck[13:26], deck[26:39]]
    assert state.cut == deck[39]
    assert state.open_pile == (deck[40],)
    assert state.closed_pile == deck[41:]


def test_every_card_of_the_cut_rank_is_a_wild_joker__R_DEAL_2():
    state = build({"asha": LOSER_13, "bala": LOOSE_13}, cut="7D", open_pile="2C 7H", first_open_joker=False)
    assert all(state.jokers.is_joker(C(code)) for code in ("7S", "7H", "7D", "7C", "PJ"))
    assert not state.jokers.is_joker(C("8D"))
    refused(state, Draw("asha", "open", 1_000), "joker_on_open_pile")


def test_printed_joker_cut_makes_every_ace_wild__R_DEAL_3():
    state = build({"asha": LOSER_13, "bala": LOOSE_13}, cut="PJ", open_pile="2C AH", first_open_joker=False)
    assert state.jokers.is_joker(C("AH"))
    assert state.jokers.is_joker(C("PJ"))
    refused(state, Draw("asha", "open", 1_000), "joker_on_open_pile")
    assert Draw("asha", "open", 0) not in legal_actions(state, "asha")


def test_the_open_pile_starts_with_one_card_face_up__R_DEAL_4():
    step = start_deal(POOL101, THREE, 2, SEED, now_ms=0)
    started = only(list(step.events), "deal_started")
    assert started.to is None
    assert started.data["open_pile"] == [step.state.open_pile[0].code]
    assert started.data["closed_count"] == 106 - 39 - 2


def test_the_shuffle_is_committed_first_and_the_seed_revealed_only_at_the_end__R_DEAL_5():
    step = start_deal(POOL101, ("asha", "bala"), 1, SEED, now_ms=0)
    first = step.events[0]
    assert first.type == "deal_started"
    assert first.to is None
    assert first.data["commitment"] == commitment(SEED)
    before_end = json.dumps([event.to_json() for event in step.events])
    assert SEED.hex() not in before_end
    state, events = play(step.state, Drop("asha", 1_000))
    over = only(events, "deal_over")
    assert over.to is None
    assert over.data["seed"] == SEED.hex()
    assert verify(first.data["commitment"], bytes.fromhex(over.data["seed"]))
    assert state.phase is Phase.OVER


def test_each_player_is_told_only_their_own_hand__R_DEAL_1():
    step = start_deal(POOL101, THREE, 2, SEED, now_ms=0)
    dealt = of_type(list(step.events), "dealt")
    assert [event.to for event in dealt] == list(THREE)
    for event, seat in zip(dealt, step.state.seats, strict=True):
        assert event.data["hand"] == [card.code for card in seat.hand]
    assert "hand" not in step.events[0].data


def test_play_starts_to_the_dealers_left__R_TOSS_3():
    for dealer, first in ((0, "bala"), (1, "chet"), (2, "asha")):
        step = start_deal(POOL101, THREE, dealer, SEED, now_ms=0)
        assert step.state.seats[step.state.turn].player == first
        assert step.events[-1].type == "turn"
        assert step.events[-1].data["player"] == first


# --- R-TURN: turns ----------------------------------------------------------------------------


def test_a_turn_is_a_draw_then_a_discard__R_TURN_1():
    state, events = play(near_win(), Draw("asha", "closed", 1_000), Discard("asha", C("QC"), 2_000))
    asha = state.seats[0]
    assert C("KS") in asha.hand
    assert C("QC") not in asha.hand
    assert len(asha.hand) == 13
    assert state.open_pile[-1] == C("QC")
    assert state.closed_pile == cards("8C 8H JD QS JS TS")
    assert state.seats[state.turn].player == "bala"
    assert [event.type for event in events] == ["drew", "drew_card", "discarded", "turn"]


def test_discarding_before_drawing_is_refused__R_TURN_1():
    refused(near_win(), Discard("asha", C("QC"), 1_000), "must_draw_first")


def test_drawing_twice_is_refused__R_TURN_1():
    state, _ = play(near_win(), Draw("asha", "closed", 1_000))
    refused(state, Draw("asha", "open", 1_500), "already_drawn")


def test_only_the_player_whose_turn_it_is_moves__R_TURN_1():
    refused(near_win(), Draw("bala", "closed", 1_000), "not_your_turn")
    refused(near_win(), Draw("zoya", "closed", 1_000), "not_in_deal")


def test_discarding_a_card_not_held_is_refused__R_TURN_1():
    state, _ = play(near_win(), Draw("asha", "closed", 1_000))
    refused(state, Discard("asha", C("7H"), 1_500), "card_not_in_hand")


def test_a_closed_draw_is_public_but_the_card_is_told_only_to_the_drawer__R_TURN_1():
    _, events = play(near_win(), Draw("asha", "closed", 1_000))
    public = only(events, "drew")
    assert public.to is None
    assert "card" not in public.data
    assert public.data == {"player": "asha", "source": "closed", "closed_count": 6}
    private = only(events, "drew_card")
    assert private.to == "asha"
    assert private.data == {"card": "KS"}


def test_an_open_draw_is_public__R_TURN_1():
    state, events = play(near_win(), Draw("asha", "open", 1_000))
    assert only(events, "drew").data["card"] == "2C"
    assert state.open_pile == ()
    assert C("2C") in state.seats[0].hand


def test_a_joker_on_the_open_pile_cannot_be_picked__R_TURN_2():
    state = build({"asha": LOSER_13, "bala": LOOSE_13}, open_pile="2C 9H", first_open_joker=False)
    refused(state, Draw("asha", "open", 1_000), "joker_on_open_pile")
    state = build({"asha": LOSER_13, "bala": LOOSE_13}, open_pile="2C PJ", first_open_joker=False)
    error = refused(state, Draw("asha", "open", 1_000), "joker_on_open_pile")
    assert isinstance(error, IllegalAction)
    assert "joker" in error.message


def test_the_first_open_card_joker_may_be_picked_on_the_first_move__R_TURN_2():
    state = build({"asha": LOSER_13, "bala": LOOSE_13}, open_pile="9H")
    assert state.first_open_joker
    assert Draw("asha", "open", 0) in legal_actions(state, "asha")
    state, _ = play(state, Draw("asha", "open", 1_000))
    assert C("9H") in state.seats[0].hand
    assert not state.first_open_joker


def test_the_first_open_card_joker_is_closed_once_anyone_has_drawn__R_TURN_2():
    state = build({"asha": LOSER_13, "bala": LOOSE_13}, open_pile="9H")
    # asha takes the joker, then misses her move: it goes back on top of the open pile.
    state, _ = play(state, Draw("asha", "open", 1_000), Timeout(60_000))
    assert state.open_pile == cards("9H")
    assert not state.first_open_joker
    refused(state, Draw("bala", "open", 61_000), "joker_on_open_pile")
    assert Draw("bala", "open", 60_000) not in legal_actions(state, "bala")


def test_the_open_joker_exception_ends_with_the_first_turn_when_its_player_drops__R_TURN_2():
    """Decision: the exception lasts for the deal's first turn only, however that turn ends."""
    state, _ = play(
        build({"asha": LOSER_13, "bala": LOOSE_13, "chet": WIN_13}, open_pile="9H"), Drop("asha", 500)
    )
    assert not state.first_open_joker
    refused(state, Draw("bala", "open", 1_000), "joker_on_open_pile")
    assert Draw("bala", "open", 1_000) not in legal_actions(state, "bala")


def test_the_open_joker_exception_ends_with_a_missed_first_turn__R_TURN_2():
    state = build({"asha": LOSER_13, "bala": LOOSE_13}, open_pile="9H", now_ms=0)
    assert state.first_open_joker
    state, _ = play(state, Timeout(60_000))
    assert state.seats[state.turn].player == "bala"
    assert not state.first_open_joker
    refused(state, Draw("bala", "open", 61_000), "joker_on_open_pile")


def test_upper_and_lower_jokers_cannot_be_picked_on_21_card_tables__R_TURN_2_R_21_2():
    hands = {"asha": "2S " * 21, "bala": "3S " * 21}
    for top in ("TC", "8C", "9H"):
        state = build(hands, variant=POINTS21, cut="9C", open_pile=f"2C {top}", first_open_joker=False)
        refused(state, Draw("asha", "open", 1_000), "joker_on_open_pile")


def test_the_card_taken_from_the_open_pile_cannot_be_discarded_that_turn__R_TURN_3():
    asha = "7D 2C 3C 4C 5D 6D 2S 3S 4H 5H 6C 7C 8H"
    state = build({"asha": asha, "bala": LOOSE_13}, open_pile="2H 7D")
    state, _ = play(state, Draw("asha", "open", 1_000))
    # Refused even though asha holds another 7D: the cards are the same.
    error = refused(state, Discard("asha", C("7D"), 1_500), "open_card_discard")
    assert "7D" in error.message
    # Another card may go; so may the same card on a later turn.
    state, events = play(state, Discard("asha", C("8H"), 2_000))
    assert only(events, "discarded").data == {"player": "asha", "card": "8H"}


def test_a_card_drawn_from_the_closed_pile_may_be_discarded_at_once__R_TURN_3():
    state, _ = play(near_win(), Draw("asha", "closed", 1_000), Discard("asha", C("KS"), 2_000))
    assert state.open_pile[-1] == C("KS")


def test_an_empty_closed_pile_is_refilled_from_the_open_pile_but_its_top__R_TURN_4():
    state = build({"asha": LOSER_13, "bala": LOOSE_13}, closed_pile="", open_pile="2D 3D 4D 5D KD")
    state, events = play(state, Draw("asha", "closed", 1_000))
    refilled = shuffled(cards("2D 3D 4D 5D"), reshuffle_seed(SEED, 1))
    assert state.seats[0].hand[-1] == refilled[0]
    assert state.closed_pile == refilled[1:]
    assert state.open_pile == (C("KD"),)
    assert state.reshuffles == 1
    reshuffled = only(events, "reshuffled")
    assert reshuffled.to is None
    assert reshuffled.data == {"closed_count": 4, "open_pile": ["KD"]}
    assert [event.type for event in events] == ["reshuffled", "drew", "drew_card"]


def test_no_closed_draw_when_nothing_is_left_to_reshuffle__R_TURN_4():
    state = build({"asha": LOSER_13, "bala": LOOSE_13}, closed_pile="", open_pile="KD")
    refused(state, Draw("asha", "closed", 1_000), "closed_pile_empty")
    assert [type(action).__name__ for action in legal_actions(state, "asha")] == ["Draw", "Drop"]


def test_the_move_deadline_is_move_time_plus_the_extra_time_bank__R_TURN_5():
    state = near_win(now_ms=10_000)
    assert state.deadline_ms == 10_000 + 30_000 + 30_000
    assert state.waiting_for == ("asha",)


def test_a_late_move_eats_into_the_extra_time_bank__R_TURN_5():
    state = near_win(now_ms=10_000)
    state, _ = play(state, Draw("asha", "closed", 39_000), Discard("asha", C("QC"), 47_000))
    assert state.seats[0].extra_ms == 30_000 - 7_000
    assert state.seats[1].extra_ms == 30_000
    assert state.deadline_ms == 47_000 + 30_000 + 30_000
    # The bank is shared by the player's moves: the next late move starts from 23 s.
    state, _ = play(state, Draw("bala", "closed", 50_000), Discard("bala", C("8C"), 51_000))
    state, _ = play(state, Draw("chet", "closed", 52_000), Discard("chet", C("8H"), 53_000))
    assert state.deadline_ms == 53_000 + 30_000 + 23_000
    state, _ = play(state, Draw("asha", "closed", 53_000 + 30_000 + 20_000))
    state, _ = play(state, Discard("asha", C("JD"), 53_000 + 30_000 + 22_000))
    assert state.seats[0].extra_ms == 1_000


def test_a_move_after_the_deadline_is_refused__R_TURN_5():
    state = near_win(now_ms=0)
    refused(state, Draw("asha", "closed", 60_001), "time_up")
    state, _ = play(state, Draw("asha", "closed", 60_000))
    assert len(state.seats[0].hand) == 14


def test_the_extra_time_bank_is_shared_with_the_declaration__R_TURN_5_R_DECL_1():
    state, _ = play(near_win(), Draw("asha", "closed", 1_000), Finish("asha", C("QC"), 40_000))
    assert state.phase is Phase.DECLARING
    assert state.seats[0].extra_ms == 20_000
    assert state.deadline_ms == 40_000 + 30_000 + 20_000
    state, _ = play(state, Declare("asha", groups(WIN_GROUPS), 75_000))
    assert state.seats[0].extra_ms == 15_000


def test_a_timeout_before_the_deadline_is_refused__R_TURN_6():
    state = near_win(now_ms=0)
    refused(state, Timeout(59_999), "not_expired")
    refused(state, Timeout(-1), "time_went_back")


def test_a_missed_move_passes_the_turn_without_drawing__R_TURN_6():
    state = near_win(now_ms=0)
    hand = state.seats[0].hand
    state, events = play(state, Timeout(60_000))
    assert state.seats[0].hand == hand
    assert state.seats[0].missed == 1
    assert state.seats[0].extra_ms == 0
    assert state.seats[state.turn].player == "bala"
    assert only(events, "missed_move").data == {"player": "asha", "missed": 1, "returned": None}
    assert state.deadline_ms == 60_000 + 30_000 + 30_000


def test_a_card_drawn_before_a_missed_move_goes_onto_the_open_pile__R_TURN_6():
    """Decision: the drawn card goes face up onto the open pile, whichever pile it came from."""
    state = near_win(now_ms=0)
    hand = state.seats[0].hand
    state, events = play(state, Draw("asha", "closed", 1_000), Timeout(60_000))
    assert state.seats[0].hand == hand
    assert state.open_pile == cards("2C KS")
    assert only(events, "missed_move").data["returned"] == "KS"
    state = near_win(now_ms=0)
    state, _ = play(state, Draw("asha", "open", 1_000), Timeout(60_000))
    assert state.open_pile == cards("2C")
    assert state.seats[0].hand == hand


def test_three_missed_moves_in_a_row_drop_with_the_middle_drop_score__R_TURN_6():
    for variant, score in ((POOL101, 40), (POOL201, 50), (POOL61, 30)):
        state = near_win(variant=variant, now_ms=0)
        for _ in range(3):
            while state.seats[state.turn].player != "asha":
                state = pass_turn(state)
            state, events = play(state, Timeout(state.deadline_ms or 0))
        asha = state.seats[0]
        assert asha.outcome is Outcome.MISSED_MOVES
        assert asha.score == score
        dropped = only(events, "dropped")
        assert dropped.data == {"player": "asha", "outcome": "missed_moves", "score": score, "auto": False}
        assert state.phase is Phase.PLAY
        assert state.seats[state.turn].player == "bala"


def test_a_move_resets_the_missed_moves_count__R_TURN_6():
    state = build({"asha": LOSER_13, "bala": LOOSE_13}, now_ms=0)
    state, _ = play(state, Timeout(60_000))  # asha misses
    state, _ = play(state, Timeout(state.deadline_ms or 0))  # bala misses
    state, _ = play(state, Timeout(state.deadline_ms or 0))  # asha misses again
    assert state.seats[0].missed == 2
    state, _ = play(state, Draw("bala", "closed", state.now_ms), Discard("bala", C("KS"), state.now_ms))
    state, _ = play(state, Draw("asha", "closed", state.now_ms), Discard("asha", C("QS"), state.now_ms))
    assert state.seats[0].missed == 0
    state, _ = play(state, Timeout(state.deadline_ms or 0))  # bala misses: one in a row again
    assert state.seats[1].missed == 1
    assert state.phase is Phase.PLAY


def test_three_missed_moves_leaving_one_player_make_that_player_win__R_TURN_6():
    state = build({"asha": LOSER_13, "bala": LOOSE_13}, now_ms=0)
    for _ in range(3):
        state, _ = play(state, Timeout(state.deadline_ms or 0))  # asha misses
        if state.phase is Phase.OVER:
            break
        state = pass_turn(state)
    assert state.phase is Phase.OVER
    assert state.winner == "bala"
    assert result_of(state, "asha")["outcome"] == "missed_moves"
    assert result_of(state, "asha")["score"] == 40
    assert result_of(state, "bala")["outcome"] == "won"
    assert result_of(state, "bala")["score"] == 0


# --- R-DROP: drops ----------------------------------------------------------------------------


def test_a_drop_before_the_first_draw_is_a_first_drop__R_DROP_1():
    for variant, score in ((POOL101, 20), (POOL201, 25), (POOL61, 15)):
        state, events = play(near_win(variant=variant), Drop("asha", 1_000))
        assert state.seats[0].outcome is Outcome.FIRST_DROP
        assert state.seats[0].score == score
        assert only(events, "dropped").data == {
            "player": "asha",
            "outcome": "first_drop",
            "score": score,
            "auto": False,
        }
        assert state.seats[state.turn].player == "bala"


def test_a_drop_after_a_missed_first_turn_is_a_middle_drop__R_TURN_7_R_DROP_2():
    """Decision (R-TURN-7): a missed move is a turn had, so the next drop is a middle drop."""
    for variant, score in ((POOL101, 40), (POOL201, 50), (POOL61, 30), (POINTS21, 70)):
        hands = {"asha": "2S " * variant.hand_size, "bala": "3S " * variant.hand_size}
        state, _ = play(build(hands, variant=variant, now_ms=0), Timeout(60_000))
        assert state.seats[0].turns == 1
        assert not state.seats[0].has_drawn
        state, _ = play(state, Draw("bala", "closed", state.now_ms), Discard("bala", C("KS"), state.now_ms))
        state, events = play(state, Drop("asha", state.now_ms))
        assert only(events, "dropped").data["outcome"] == "middle_drop"
        assert result_of(state, "asha")["score"] == score


def test_a_drop_on_a_later_turn_is_a_middle_drop__R_DROP_2():
    for variant, score in ((POOL101, 40), (POOL201, 50), (POOL61, 30), (POINTS21, 70)):
        hands = {
            "asha": "2S " * variant.hand_size,
            "bala": "3S " * variant.hand_size,
            "chet": "4S " * variant.hand_size,
        }
        state = build(hands, variant=variant)
        state, _ = play(state, Draw("asha", "closed", 1_000), Discard("asha", C("KS"), 2_000))
        state, _ = play(
            state, Drop("bala", 3_000), Draw("chet", "closed", 4_000), Discard("chet", C("4S"), 5_000)
        )
        state, events = play(state, Drop("asha", 6_000))
        assert only(events, "dropped").data["outcome"] == "middle_drop"
        assert state.seats[0].score == score
        assert state.seats[1].outcome is Outcome.FIRST_DROP


def test_a_drop_is_only_on_ones_own_turn_before_drawing__R_DROP_3():
    refused(near_win(), Drop("bala", 1_000), "not_your_turn")
    state, _ = play(near_win(), Draw("asha", "closed", 1_000))
    refused(state, Drop("asha", 1_500), "drop_after_draw")


def test_the_last_player_left_after_drops_wins__R_DROP_1_R_SHOW_4():
    state, events = play(near_win(), Drop("asha", 1_000), Drop("bala", 2_000))
    assert state.phase is Phase.OVER
    assert state.winner == "chet"
    assert result_of(state, "chet") == {
        "player": "chet", "outcome": "won", "score": 0, "hand": LOOSE_13.split(), "grouping": None,
        "value": None, "net": None,
    }  # fmt: skip
    assert [event.type for event in events][-2:] == ["dropped", "deal_over"]
    refused(state, Draw("chet", "closed", 3_000), "deal_over")
    refused(state, Timeout(10**9), "deal_over")


def test_players_on_auto_drop_leave_each_deal_with_the_first_drop_score__R_DROP_4():
    step = start_deal(POOL201, THREE, 2, SEED, now_ms=0, auto_drop=frozenset({"asha"}))
    state = step.state
    assert state.seats[0].outcome is Outcome.FIRST_DROP
    assert state.seats[0].score == 25
    assert len(state.seats[0].hand) == 13  # still dealt, so the card order does not depend on it
    assert state.seats[state.turn].player == "bala"
    dropped = only(list(step.events), "dropped")
    assert dropped.to is None
    assert dropped.data["auto"] is True


def test_auto_drop_of_all_but_one_ends_the_deal_at_once__R_DROP_4():
    step = start_deal(POOL101, THREE, 2, SEED, now_ms=0, auto_drop=frozenset({"asha", "chet"}))
    assert step.state.phase is Phase.OVER
    assert step.state.winner == "bala"
    assert step.events[-1].type == "deal_over"
    with pytest.raises(ValueError, match="auto drop"):
        start_deal(POOL101, THREE, 2, SEED, now_ms=0, auto_drop=frozenset(THREE))


# --- R-DECL: declaration ----------------------------------------------------------------------


def test_a_declaration_is_a_finish_card_then_a_grouping__R_DECL_1():
    state, events = play(near_win(), Draw("asha", "closed", 1_000), Finish("asha", C("QC"), 2_000))
    assert state.phase is Phase.DECLARING
    assert state.finish_card == C("QC")
    assert state.seats[0].hand == (*cards(WIN_13.replace("KS", "")), C("KS"))
    assert only(events, "finished").data == {"player": "asha", "deadline_ms": 2_000 + 30_000 + 30_000}
    assert "QC" not in json.dumps([event.to_json() for event in events if event.to != "asha"])
    state, events = play(state, Declare("asha", groups(WIN_GROUPS), 3_000))
    assert state.phase is Phase.SHOW
    assert state.seats[0].outcome is Outcome.WON
    assert state.waiting_for == ("bala", "chet")
    assert only(events, "declared").data == {"player": "asha", "deadline_ms": 33_000}


def test_finishing_needs_a_draw_first__R_DECL_1():
    refused(near_win(), Finish("asha", C("QC"), 1_000), "must_draw_first")
    refused(near_win(), Declare("asha", groups(WIN_GROUPS), 1_000), "not_declaring")


def test_nothing_but_the_declaration_while_declaring__R_DECL_1():
    state, _ = play(near_win(), Draw("asha", "closed", 1_000), Finish("asha", C("QC"), 2_000))
    refused(state, Declare("bala", groups(LOSER_GROUPS), 2_500), "not_declarer")
    refused(state, Draw("bala", "closed", 2_500), "declaring")
    refused(state, Show("bala", groups(LOSER_GROUPS), 2_500), "not_show_time")


def test_no_grouping_within_the_show_time_is_a_wrong_show__R_DECL_1_R_DECL_3():
    state, _ = play(near_win(), Draw("asha", "closed", 1_000), Finish("asha", C("QC"), 2_000))
    refused(state, Timeout(2_000 + 60_000 - 1), "not_expired")
    state, events = play(state, Timeout(62_000))
    assert state.seats[0].outcome is Outcome.WRONG_SHOW
    assert state.seats[0].score == 80
    assert only(events, "wrong_show").data == {"player": "asha", "score": 80, "card": "QC"}
    reason = only(events, "wrong_show_reason")
    assert reason.to == "asha"
    assert reason.data == {"reason": "no grouping was sent in time"}
    assert state.open_pile[-1] == C("QC")
    assert state.finish_card is None
    assert state.phase is Phase.PLAY
    assert state.seats[state.turn].player == "bala"


def test_an_invalid_declaration_is_a_wrong_show_and_the_deal_goes_on__R_DECL_2_R_DECL_3():
    state, _ = play(near_win(variant=POOL61), Draw("asha", "closed", 1_000), Finish("asha", C("QC"), 2_000))
    one_sequence = "AH 2H 3H / 4S 5S 6S 7S"
    state, events = play(state, Declare("asha", groups(one_sequence), 3_000))
    assert state.seats[0].outcome is Outcome.WRONG_SHOW
    assert state.seats[0].score == 60
    wrong = only(events, "wrong_show")
    assert wrong.to is None
    assert wrong.data["card"] == "QC"
    assert only(events, "wrong_show_reason").data["reason"]
    assert state.open_pile == cards("2C QC")
    assert state.phase is Phase.PLAY
    assert state.seats[state.turn].player == "bala"
    assert len(state.seats[0].hand) == 13
    refused(state, Draw("asha", "closed", 4_000), "out_of_deal")


def test_a_wrong_show_leaving_one_player_makes_that_player_win__R_DECL_3():
    state = build({"asha": ASHA_NEAR_WIN, "bala": LOSER_13}, closed_pile="KS QS")
    state, events = play(
        state, Draw("asha", "closed", 1_000), Finish("asha", C("QC"), 2_000), Declare("asha", (), 3_000)
    )
    assert state.phase is Phase.OVER
    assert state.winner == "bala"
    assert result_of(state, "asha")["outcome"] == "wrong_show"
    assert result_of(state, "asha")["score"] == 80
    assert result_of(state, "bala")["score"] == 0
    assert events[-1].type == "deal_over"


def test_a_declaration_must_use_cards_in_hand__R_DECL_1():
    state, _ = play(near_win(), Draw("asha", "closed", 1_000), Finish("asha", C("QC"), 2_000))
    refused(state, Declare("asha", groups("QC JC TC"), 3_000), "card_not_in_hand")
    refused(state, Declare("asha", groups("KS KD KC / KS KH KD"), 3_000), "card_not_in_hand")


# --- R-SHOW: the show -------------------------------------------------------------------------


def test_after_a_valid_declaration_the_others_show_and_are_scored__R_SHOW_1_R_SHOW_2():
    state = declared_after_a_round()
    assert state.phase is Phase.SHOW
    assert state.deadline_ms == 9_000 + 30_000
    state, events = play(state, Show("bala", groups(LOSER_GROUPS), 10_000))
    assert only(events, "shown").data == {"player": "bala"}
    assert state.phase is Phase.SHOW
    assert state.waiting_for == ("chet",)
    state, events = play(state, Show("chet", (), 11_000))
    assert state.phase is Phase.OVER
    assert state.winner == "asha"
    assert result_of(state, "bala")["outcome"] == "lost_show"
    assert result_of(state, "bala")["score"] == LOSER_SCORE
    assert result_of(state, "bala")["grouping"] == [group.split() for group in LOSER_GROUPS.split(" / ")]
    assert result_of(state, "chet")["score"] == LOOSE_SCORE
    assert result_of(state, "asha")["score"] == 0
    assert result_of(state, "asha")["grouping"] == [group.split() for group in WIN_GROUPS.split(" / ")]
    assert only(events, "deal_over").data["finish_card"] == "QC"


def test_a_losing_score_is_capped_at_the_full_count__R_SHOW_2():
    high = "KH QD JS TH 8C 7H 6S 5C 4D 3H 2D AD KC"  # 95 points, no sequence
    state = build({"asha": ASHA_NEAR_WIN, "bala": high}, closed_pile="8S 8H KS")
    state, _ = play(
        state,
        Draw("asha", "closed", 1_000),
        Discard("asha", C("8S"), 1_500),
        Draw("bala", "closed", 2_000),
        Discard("bala", C("8H"), 2_500),
        Draw("asha", "closed", 3_000),
        Finish("asha", C("QC"), 3_500),
        Declare("asha", groups(WIN_GROUPS), 4_000),
        Show("bala", (), 5_000),
    )
    assert result_of(state, "bala")["outcome"] == "lost_show"
    assert result_of(state, "bala")["score"] == 80


def test_a_loser_with_a_pure_sequence_but_no_second_one_counts_all_else__R_SHOW_2():
    state, _ = play(declared_after_a_round(), Show("bala", groups("2C 3C 4C"), 10_000))
    state, _ = play(state, Show("chet", (), 11_000))
    assert result_of(state, "bala")["score"] == LOSER_ONE_PURE_SCORE


def test_a_saved_grouping_counts_for_a_player_who_does_not_show__R_SHOW_1():
    state = near_win(closed_pile="8C 8H JD KS QS")
    state, _ = play(
        state,
        SaveGrouping("bala", groups(LOSER_GROUPS), 500),
        Draw("asha", "closed", 1_000),
        Discard("asha", C("8C"), 2_000),
        Draw("bala", "closed", 3_000),
        Discard("bala", C("8H"), 4_000),
        Draw("chet", "closed", 5_000),
        Discard("chet", C("JD"), 6_000),
        Draw("asha", "closed", 7_000),
        Finish("asha", C("QC"), 8_000),
        Declare("asha", groups(WIN_GROUPS), 9_000),
    )
    refused(state, Timeout(38_999), "not_expired")
    state, events = play(state, Timeout(39_000))
    assert only(events, "show_timed_out").data == {"players": ["bala", "chet"]}
    assert result_of(state, "bala")["outcome"] == "lost_show"
    assert result_of(state, "bala")["score"] == LOSER_SCORE
    assert result_of(state, "chet")["outcome"] == "show_timeout"
    assert result_of(state, "chet")["score"] == 80


def test_a_saved_grouping_counts_as_it_stands_on_the_hand__R_SHOW_1():
    """Decision: cards no longer held leave the saved groups; cards drawn since are ungrouped."""
    state = near_win(closed_pile="8C 8H JD KS QS")
    state, _ = play(
        state,
        SaveGrouping("bala", groups("2C 3C 4C / 5D 6D 7D 8H"), 500),
        Draw("asha", "closed", 1_000),
        Discard("asha", C("8C"), 2_000),
        Draw("bala", "closed", 3_000),
        Discard("bala", C("7D"), 4_000),  # breaks the second sequence; bala keeps 8H twice now
        Draw("chet", "closed", 5_000),
        Discard("chet", C("JD"), 6_000),
        Draw("asha", "closed", 7_000),
        Finish("asha", C("QC"), 8_000),
        Declare("asha", groups(WIN_GROUPS), 9_000),
        Timeout(39_000),
    )
    line = result_of(state, "bala")
    assert line["grouping"] == [["2C", "3C", "4C"], ["5D", "6D", "8H"]]
    # 5D 6D 8H is no sequence: only the pure 2C 3C 4C is excluded; 8H 8H 5D 6D and the rest count.
    assert line["score"] == LOSER_ONE_PURE_SCORE - 7 + 8


def test_a_saved_grouping_is_private_and_must_be_of_ones_own_cards__R_SHOW_1():
    state, events = play(near_win(), SaveGrouping("chet", groups("2D 3S 4C"), 500))
    saved = only(events, "grouping_saved")
    assert saved.to == "chet"
    assert saved.data == {"groups": [["2D", "3S", "4C"]]}
    assert state.seats[2].saved == groups("2D 3S 4C")
    refused(state, SaveGrouping("chet", groups("AH 2H 3H"), 600), "card_not_in_hand")
    # The view shows the saved grouping as it stands on the hand: 4C discarded, it is gone.
    state = replace(state, turn=2)
    state, _ = play(state, Draw("chet", "closed", 700), Discard("chet", C("4C"), 800))
    assert player_view(state, "chet")["saved_grouping"] == [["2D", "3S"]]


def test_show_is_refused_before_a_declaration_and_twice__R_SHOW_1():
    refused(near_win(), Show("bala", groups(LOSER_GROUPS), 1_000), "not_show_time")
    state, _ = play(declared_after_a_round(), Show("bala", groups(LOSER_GROUPS), 10_000))
    refused(state, Show("bala", (), 10_500), "already_shown")
    refused(state, Show("asha", (), 10_500), "already_declared")
    refused(state, Show("chet", (), 39_001), "time_up")


def test_a_loser_who_never_had_a_turn_gets_the_deal_show_score__R_SHOW_3():
    state = declared_first_turn()
    state, _ = play(state, Show("bala", groups(LOSER_GROUPS), 4_000), Show("chet", (), 5_000))
    assert result_of(state, "bala")["outcome"] == "deal_show"
    assert result_of(state, "bala")["score"] == LOSER_SCORE // 2
    assert result_of(state, "chet")["score"] == LOOSE_SCORE // 2


def test_the_deal_show_score_is_capped_at_half_the_full_count__R_SHOW_3():
    state, _ = play(
        near_win(variant=POOL61),
        Draw("asha", "closed", 1_000),
        Finish("asha", C("QC"), 2_000),
        Declare("asha", groups(WIN_GROUPS), 3_000),
        Show("bala", (), 4_000),
        Show("chet", (), 5_000),
    )
    assert result_of(state, "bala")["score"] == 30  # 62 // 2 = 31, capped at 30 in 61 pool
    assert result_of(state, "chet")["score"] == 30


def test_a_player_whose_turn_came_but_was_missed_is_no_deal_show__R_SHOW_3_R_TURN_7():
    """Decision (R-TURN-7): a missed turn counts as a turn had."""
    state = build({"bala": LOSER_13, "asha": ASHA_NEAR_WIN}, closed_pile="KS QS", dealer=1)
    state, _ = play(state, Timeout(60_000))  # bala misses her first turn
    state, _ = play(
        state,
        Draw("asha", "closed", 61_000),
        Finish("asha", C("QC"), 62_000),
        Declare("asha", groups(WIN_GROUPS), 63_000),
        Show("bala", groups(LOSER_GROUPS), 64_000),
    )
    assert result_of(state, "bala")["outcome"] == "lost_show"
    assert result_of(state, "bala")["score"] == LOSER_SCORE


def test_the_winner_scores_zero__R_SHOW_4():
    state, _ = play(declared_first_turn(), Timeout(33_000))
    assert result_of(state, "asha")["outcome"] == "won"
    assert result_of(state, "asha")["score"] == 0
    assert state.result is not None
    assert state.result.winner == "asha"


def test_dropped_players_keep_their_drop_score_in_the_result__R_DROP_1():
    state, _ = play(near_win(closed_pile="KS QS JS"), Drop("asha", 1_000))
    state, _ = play(state, Draw("bala", "closed", 2_000), Discard("bala", C("KS"), 3_000))
    state, _ = play(state, Drop("chet", 4_000))
    assert state.winner == "bala"
    assert [(line.player, line.outcome, line.score) for line in state.result.players] == [  # type: ignore[union-attr]
        ("asha", Outcome.FIRST_DROP, 20),
        ("bala", Outcome.WON, 0),
        ("chet", Outcome.FIRST_DROP, 20),
    ]


# --- 21-card ----------------------------------------------------------------------------------

# Cut 9C: the value joker 9C, the upper TC and the lower 8C make a marriage worth 100.
LOSER_21 = "9C TC 8C 2S 3S 4S 5H 6H 7H JD QD KD 2C 3C 4C AS AD KS 5D 6D 7D"
LOSER_21_GROUPS = "2S 3S 4S / 5H 6H 7H / JD QD KD / 2C 3C 4C / 5D 6D 7D"


def test_a_21_card_result_carries_value_points_and_the_settlement__R_21_5_R_21_7():
    asha = WIN_21.replace("QC", "4H")
    state = build({"asha": asha, "bala": LOSER_21}, variant=POINTS21, closed_pile="QC KH", cut="9C")
    state, _ = play(
        state,
        Draw("asha", "closed", 1_000),
        Discard("asha", C("4H"), 1_500),
        Draw("bala", "closed", 2_000),
        Discard("bala", C("KH"), 2_500),
        Draw("asha", "open", 3_000),
    )
    # asha took KH from the open pile: she may finish with it (only discarding it is refused).
    state, _ = play(state, Finish("asha", C("KH"), 3_500))
    state, _ = play(
        state, Declare("asha", groups(WIN_21_GROUPS), 4_000), Show("bala", groups(LOSER_21_GROUPS), 5_000)
    )
    assert state.winner == "asha"
    bala = result_of(state, "bala")
    assert bala["outcome"] == "lost_show"
    assert bala["score"] == 30
    assert bala["value"] == 100
    assert result_of(state, "asha")["value"] == 0
    assert result_of(state, "asha")["net"] == 30 - 100
    assert bala["net"] == 100 - 30
    result = state.result
    assert result is not None
    assert [(t.payer, t.payee, t.points) for t in result.transfers] == [("asha", "bala", 70)]


def test_a_21_card_wrong_show_still_exchanges_value_cards__R_21_6():
    asha = "9C 2S 3S 5H 6H JD QD 2C 3C AS AD KS 5D 6D 7D 4H 8H TH JS QS KH"
    bala = LOSER_21.replace("9C TC 8C", "2H 3H 4H")
    state = build({"asha": asha, "bala": bala}, variant=POINTS21, cut="9C", closed_pile="7C 8S")
    state, _ = play(
        state, Draw("asha", "closed", 1_000), Finish("asha", C("7C"), 2_000), Declare("asha", (), 3_000)
    )
    assert state.winner == "bala"
    line = result_of(state, "asha")
    assert line["outcome"] == "wrong_show"
    assert line["score"] == 120
    assert line["value"] == 10
    assert line["net"] == -120 + 10
    assert result_of(state, "bala")["net"] == 120 - 10


def test_dropped_21_card_players_take_no_part_in_the_value_exchange__R_21_7():
    state = build({"asha": LOSER_21, "bala": WIN_21}, variant=POINTS21, cut="9C")
    state, _ = play(state, Drop("asha", 1_000))
    line = result_of(state, "asha")
    assert line["outcome"] == "first_drop"
    assert line["score"] == 30
    assert line["value"] is None
    assert line["net"] == -30
    assert result_of(state, "bala")["net"] == 30


def test_21_card_deal_show_is_half_the_hand_score_at_most_60__R_21_6():
    asha = WIN_21.replace("QC", "4H")
    high = "KH QD JS TH 8S 7H 6S 5C 4D 3H 2D AD KC QH JD TD 8D 7D 6H 5S 4S"
    state = build({"asha": asha, "bala": high}, variant=POINTS21, closed_pile="QC", cut="9C")
    state, _ = play(
        state,
        Draw("asha", "closed", 1_000),
        Finish("asha", C("4H"), 2_000),
        Declare("asha", groups(WIN_21_GROUPS), 3_000),
        Show("bala", (), 4_000),
    )
    assert result_of(state, "bala")["outcome"] == "deal_show"
    assert result_of(state, "bala")["score"] == 60


# --- Errors, views and JSON -------------------------------------------------------------------


def test_malformed_actions_are_invalid_not_illegal():
    with pytest.raises(InvalidAction) as caught:
        action_from_json({"type": "discard", "player": "asha", "card": "1X", "at": 5})
    assert caught.value.code == "bad_card"
    assert "1X" in caught.value.message
    with pytest.raises(InvalidAction) as caught:
        action_from_json({"type": "declare", "player": "asha", "groups": "AH 2H 3H", "at": 5})
    assert caught.value.code == "bad_groups"
    with pytest.raises(InvalidAction) as caught:
        action_from_json({"type": "fold", "player": "asha", "at": 5})
    assert caught.value.code == "unknown_action"
    with pytest.raises(InvalidAction) as caught:
        action_from_json({"type": "draw", "player": "asha", "source": "deck", "at": 5})
    assert caught.value.code == "bad_source"
    with pytest.raises(InvalidAction) as caught:
        action_from_json({"type": "drop", "player": "asha", "at": "soon"})
    assert caught.value.code == "bad_time"
    error = refused(near_win(), Discard("asha", "7H", 1_000), "bad_card")  # type: ignore[arg-type]
    assert isinstance(error, InvalidAction)
    refused(near_win(), Declare("asha", [["7H"]], 1_000), "bad_groups")  # type: ignore[arg-type]


def test_actions_round_trip_through_json():
    actions = [
        Draw("asha", "open", 1),
        Discard("asha", C("7H"), 2),
        Drop("asha", 3),
        Finish("asha", C("PJ"), 4),
        Declare("asha", groups(WIN_GROUPS), 5),
        Show("bala", (), 6),
        SaveGrouping("bala", groups(LOSER_GROUPS), 7),
        Timeout(8),
    ]
    for action in actions:
        assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action


def test_actions_may_not_go_back_in_time():
    state, _ = play(near_win(), Draw("asha", "closed", 5_000))
    error = refused(state, Discard("asha", C("KS"), 4_999), "time_went_back")
    assert isinstance(error, InvalidAction)


def test_a_player_view_shows_only_what_that_player_may_see():
    state, _ = play(
        near_win(), SaveGrouping("bala", groups(LOSER_GROUPS), 500), Draw("asha", "closed", 1_000)
    )
    view = player_view(state, "bala")
    assert json.loads(json.dumps(view)) == view
    assert view["hand"] == LOSER_13.split()
    assert view["saved_grouping"] == [["2C", "3C", "4C"], ["5D", "6D", "7D"]]
    assert view["closed_count"] == 6
    assert "closed_pile" not in view
    assert [line["cards"] for line in view["players"]] == [14, 13, 13]
    assert view["turn"] == "asha"
    assert view["drawn"] is False
    assert view["deadline_ms"] == 60_000
    text = json.dumps(view)
    for secret in ("KS", "QC", "8D", "8C", "2D"):
        assert f'"{secret}"' not in text
    asha_view = player_view(state, "asha")
    assert asha_view["drawn"] is True
    assert "KS" in asha_view["hand"]
    with pytest.raises(IllegalAction):
        player_view(state, "zoya")


def test_the_state_round_trips_through_json_at_every_phase():
    states = [near_win()]
    state, _ = play(near_win(), SaveGrouping("bala", groups(LOSER_GROUPS), 500), Draw("asha", "open", 1_000))
    states.append(state)
    state, _ = play(state, Finish("asha", C("QC"), 2_000))
    states.append(state)
    states.append(declared_first_turn())
    state, _ = play(declared_first_turn(), Timeout(33_000))
    states.append(state)
    states.append(start_deal(POINTS21, THREE, 1, SEED, now_ms=7, timing=Timing(5_000, 0, 9_000)).state)
    for state in states:
        data = json.loads(json.dumps(state.to_json()))
        assert DealState.from_json(data) == state


def test_legal_actions_before_and_after_drawing__R_TURN_1():
    state = near_win()
    assert legal_actions(state, "bala") == ()
    assert legal_actions(state, "asha") == (
        Draw("asha", "closed", 0),
        Draw("asha", "open", 0),
        Drop("asha", 0),
    )
    state, _ = play(state, Draw("asha", "open", 1_000))
    actions = legal_actions(state, "asha")
    assert Discard("asha", C("2C"), 1_000) not in actions  # R-TURN-3
    assert Finish("asha", C("2C"), 1_000) in actions
    assert {action.card for action in actions if isinstance(action, Discard)} == set(cards(ASHA_NEAR_WIN))
    assert legal_actions(state, "asha", at=10**9) == ()
    every = [replace(action, at=1_000) for action in actions]
    for action in every:
        apply(state, action)  # each legal action is accepted


# --- R-MONEY-5: leaving the table during a deal ------------------------------------------------


def test_leaving_out_of_turn_is_a_first_drop_at_once__R_MONEY_5_R_DROP_1():
    state, events = play_leave(near_win(), "chet", 1_000)
    assert state.seats[2].outcome is Outcome.FIRST_DROP
    assert state.seats[2].score == 20
    assert only(events, "dropped").data["player"] == "chet"
    assert state.seats[state.turn].player == "asha", "asha's turn goes on"
    assert state.deadline_ms == near_win().deadline_ms


def test_leaving_after_drawing_is_a_middle_drop_and_returns_the_card__R_MONEY_5_R_DROP_2():
    state, _ = play(near_win(), Draw("asha", "closed", 1_000))
    state, _ = play_leave(state, "asha", 2_000)
    assert state.seats[0].outcome is Outcome.MIDDLE_DROP
    assert state.seats[0].score == 40
    assert state.open_pile[-1] == C("KS")
    assert C("KS") not in state.seats[0].hand
    assert len(state.seats[0].hand) == 13
    assert state.seats[state.turn].player == "bala"


def test_leaving_two_handed_hands_the_deal_to_the_other__R_MONEY_5():
    state, _ = play_leave(build({"asha": LOSER_13, "bala": LOOSE_13}), "bala", 1_000)
    assert state.phase is Phase.OVER
    assert state.winner == "asha"
    assert result_of(state, "bala")["outcome"] == "first_drop"


def test_a_declarer_who_leaves_before_declaring_made_a_wrong_show__R_MONEY_5_R_DECL_1():
    state, _ = play(near_win(), Draw("asha", "closed", 1_000), Finish("asha", C("QC"), 2_000))
    state, events = play_leave(state, "asha", 3_000)
    assert result_of_state(state, "asha") == (Outcome.WRONG_SHOW, 80)
    assert only(events, "wrong_show").data["card"] == "QC"


def test_leaving_after_a_valid_declaration_is_a_show_not_sent__R_MONEY_5_R_SHOW_1():
    state, _ = play(declared_first_turn(), SaveGrouping("bala", groups(LOSER_GROUPS), 3_500))
    state, _ = play_leave(state, "chet", 4_000)
    assert result_of_state(state, "chet") == (Outcome.SHOW_TIMEOUT, 80)
    state, _ = play_leave(state, "bala", 5_000)
    assert state.phase is Phase.OVER
    assert result_of(state, "bala")["score"] == LOSER_SCORE // 2, "the saved grouping counts"


def play_leave(state: DealState, player: str, at: int) -> tuple[DealState, list[Any]]:
    from games.engine.deal import leave

    step = leave(state, player, at)
    return step.state, list(step.events)


def result_of_state(state: DealState, player: str) -> tuple[Outcome | None, int | None]:
    seat = state.seats[state.seat_of(player)]
    return seat.outcome, seat.score
