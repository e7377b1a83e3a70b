"""The words of a deal: each score's reason (R-SHOW-2, R-SHOW-3, R-DECL-3, R-DROP-1..3), the
engine's group labels and live points sent with a saved grouping, the 21-card money line
(R-21-7, R-MONEY-3), the split's working (R-POOL-8), and the score card. Every hand here is
dealt with 7C cut (every 7 and the printed joker are jokers)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import client_actions, services
from games.engine.cards import Card, Jokers, parse_cards
from games.engine.melds import evaluate
from games.engine.variants import POINTS21, POOL101
from games.results import explain_result, explain_split, grouping_verdict, reason
from games.views_state import table_view
from games.words import cards_in_words
from tests.conftest import make_user
from tests.tables.support import (
    Clock,
    declare,
    grouping,
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

pytestmark = pytest.mark.django_db

JOKERS = Jokers.from_cut(Card.parse("7C"))
DECLARER = "AS 2S 3S 4H 5H 6H 8D 9D TD JD KC KS KH"
NO_PURE = "KS QH JD 9C 8S 6D 5C 4S 3H 2D AH TC 9H"
ONE_PURE = "3C 4C 5C QS QD QH 9S 8H 6S 4D 2H TS AD"
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[2-9TJQKA][SHDC]\b")


@pytest.fixture(autouse=True)
def seeds(monkeypatch, settings):
    return scripted(monkeypatch, settings)


def row(outcome: str, score: int, hand: str, groups: str | None) -> dict:
    return {
        "player": "1",
        "outcome": outcome,
        "score": score,
        "hand": hand.split(),
        "grouping": None if groups is None else grouping(groups),
    }


def test_it_explains_a_full_count_capped_at_80__R_SHOW_2():
    text = reason(POOL101, JOKERS, row("lost_show", 80, NO_PURE, NO_PURE), 2)
    assert text == "No pure sequence: every card counts, full count, capped at 80: 80 points"


def test_it_explains_a_hand_with_only_one_sequence__R_SHOW_2():
    text = reason(POOL101, JOKERS, row("lost_show", 79, ONE_PURE, "3C 4C 5C | QS QD QH"), 2)
    assert text.startswith("Only one sequence: only the pure sequence is spared")
    assert text.endswith(": 79 points")


def test_it_says_why_a_show_was_wrong_in_card_words__R_DECL_3():
    groups = "AS 2S 3S | 4H 5H 6H | 8D 9D TD JD | KC KS QH"
    hand = "AS 2S 3S 4H 5H 6H 8D 9D TD JD KC KS QH"
    text = reason(POOL101, JOKERS, row("wrong_show", 80, hand, groups), 2)
    assert text.startswith("Wrong show: ")
    assert "K♣ K♠ Q♥" in text
    assert text.endswith("(80 points)")
    assert not RAW.search(text), text
    late = reason(POOL101, JOKERS, row("wrong_show", 80, hand, None), 2)
    assert late == "Wrong show: no grouping was sent in time (80 points)"


def test_it_explains_drops_and_a_deal_show__R_DROP_1_R_DROP_2_R_SHOW_3():
    assert reason(POOL101, JOKERS, row("first_drop", 20, NO_PURE, None), 2) == (
        "Dropped on the first turn: 20 points"
    )
    assert reason(POOL101, JOKERS, row("middle_drop", 40, NO_PURE, None), 2) == (
        "Dropped after the first turn: 40 points"
    )
    text = reason(POOL101, JOKERS, row("deal_show", 40, NO_PURE, None), 2)
    assert "half of it, at most 40" in text


def test_cards_in_words_leaves_plain_words_alone():
    assert cards_in_words("KC KS QH: not a set") == "K♣ K♠ Q♥: not a set"
    assert cards_in_words("no pure sequence") == "no pure sequence"


def test_it_labels_each_group_and_scores_the_hand_as_grouped__R_SHOW_2():
    hand = parse_cards(DECLARER)
    groups = [parse_cards(g) for g in ("AS 2S 3S", "4H 5H 6H", "8D 9D TD JD", "KC KS QH")]
    verdict = grouping_verdict(POOL101, JOKERS, hand[:12] + parse_cards("QH"), groups, 2)
    assert [g["label"] for g in verdict["groups"]] == [
        "Pure sequence",
        "Pure sequence",
        "Pure sequence",
        "Invalid",
    ]
    assert verdict["points"] == 30
    assert verdict["can_declare"] is False
    impure = grouping_verdict(POOL101, JOKERS, parse_cards("4H 5H 7S"), [parse_cards("4H 5H 7S")], 2)
    assert impure["groups"][0] == {"kind": "sequence", "label": "Impure sequence", "valid": True}
    ungrouped = grouping_verdict(POOL101, JOKERS, parse_cards(NO_PURE), None, 2)
    assert ungrouped["points"] == 80


def test_a_hand_judged_again_unchanged_is_not_evaluated_again(monkeypatch):
    from games import results

    judged = []
    monkeypatch.setattr(results, "evaluate", lambda *args, **kw: judged.append(args) or evaluate(*args, **kw))
    results._verdict.cache_clear()
    hand = parse_cards("4H 5H 6H 9C")
    groups = [parse_cards("4H 5H 6H"), parse_cards("9C")]

    first = grouping_verdict(POOL101, JOKERS, hand, groups, 2)
    first["groups"][0]["label"] = "changed by a caller"
    first["groups"].clear()
    again = grouping_verdict(POOL101, JOKERS, tuple(hand), [tuple(g) for g in groups], 2)
    regrouped = grouping_verdict(POOL101, JOKERS, hand, [parse_cards("4H 5H"), parse_cards("6H 9C")], 2)

    assert len(judged) == 2  # the first grouping once, the new one once
    assert [g["label"] for g in again["groups"]] == ["Pure sequence", "Invalid"]
    assert again["points"] == 9
    assert regrouped["points"] == 24


def test_a_saved_grouping_is_answered_with_the_engines_labels_and_points(alice, bob):
    clock = Clock()
    table = seat_all(template(seats=2), [alice, bob], clock)
    _first, second = in_turn_order(table, [alice, bob])
    rig(table, {second: ONE_PURE}, cut="7C")
    groups = grouping("3C 4C 5C | QS QD QH | 9S 8H 6S 4D 2H TS AD")
    frame = {"id": "g-1", "type": "save_grouping", "groups": groups}
    answer = client_actions.perform(table.pk, second, frame)
    assert answer["ack"] == "g-1"
    labels = answer["grouping"]
    assert [g["label"] for g in labels["groups"]] == ["Pure sequence", "Set", "Invalid"]
    hand, parsed = parse_cards(ONE_PURE), [parse_cards(g) for g in groups]
    assert labels["points"] == evaluate(POOL101, JOKERS, hand, parsed).score == 79
    # The same id again: the same answer, labels included, and nothing applied twice.
    again = client_actions.perform(table.pk, second, frame)
    assert again == answer
    # The snapshot carries the labels of the saved grouping too (a reload keeps them).
    view = table_view(table.__class__.objects.get(pk=table.pk), second)
    assert view["deal"]["labels"]["points"] == 79
    assert view["players"][0]["connected"] is False  # nobody has a websocket open here


def test_the_result_after_a_declaration_has_reasons_and_a_score_card(client, alice, bob, carol):
    clock = Clock()
    table = seat_all(template(seats=3), [alice, bob, carol], clock)
    no_pure, one_pure, declarer = in_turn_order(table, [alice, bob, carol])
    rig(
        table,
        {declarer: DECLARER, no_pure: NO_PURE, one_pure: ONE_PURE},
        cut="7C",
        closed_top=["QC", "JS", "2H"],
    )
    for user in (no_pure, one_pure):
        services.act(table.pk, user, {"type": "draw", "source": "closed"}, at=clock())
        deal = state(table).deal
        services.act(table.pk, user, {"type": "discard", "card": deal.drawn.code}, at=clock())
    declare(table, declarer, "2H", "AS 2S 3S | 4H 5H 6H | 8D 9D TD JD | KC KS KH", clock)
    show(table, no_pure, "", clock)
    show(table, one_pure, "3C 4C 5C | QS QD QH", clock)
    table.refresh_from_db()
    view = table_view(table, no_pure)
    result = view["last_result"]
    by_player = {p["player"]: p for p in result["players"]}
    assert by_player[str(declarer.pk)]["reason"] == "Valid declaration: 0 points"
    assert by_player[str(no_pure.pk)]["outcome_words"] == "Lost at the show"
    assert "capped at 80" in by_player[str(no_pure.pk)]["reason"]
    assert view["verify"]["commitment"]
    assert view["verify"]["seed"] == result["seed"]
    client.force_login(no_pure)
    card = client.get(reverse("games:scores", args=[table.pk])).json()
    assert card["deals"][0]["scores"] == {str(declarer.pk): 0, str(no_pure.pk): 80, str(one_pure.pk): 79}
    assert card["last"]["number"] == 1
    # The cut is re-derived from the revealed seed, so a rigged deal's cut is not the rigged one;
    # it is a real card code either way.
    assert Card.parse(card["last"]["cut"])
    client.force_login(make_user("dave"))
    stranger = client.get(reverse("games:scores", args=[table.pk]))
    assert stranger.status_code == 403
    assert stranger.json()["error"] == "not_at_table"


def test_the_21_card_money_line_is_points_times_value_less_rake__R_21_7_R_MONEY_3():
    jokers = Jokers.from_cut(Card.parse("5H"), value_cards=True)
    hand = "5H 6H 4H AS 2S 3S 4S 6S 8S 9S TS JS QS KS AD 2D 3D 4D 5D 6D 8D"
    result = {
        "winner": "1",
        "seed": "00",
        "players": [
            {"player": "1", "outcome": "won", "score": 0, "hand": hand.split(), "grouping": None, "net": 50},
            {
                "player": "2",
                "outcome": "first_drop",
                "score": 30,
                "hand": hand.split(),
                "grouping": None,
                "net": -50,
            },
        ],
    }
    out = explain_result(result, POINTS21, jokers, 3, point_value=10, rake_percent=10, currency="CHIPS")
    winner, loser = out["players"]
    assert (winner["value_jokers"], winner["uppers"], winner["lowers"], winner["marriages"]) == (1, 1, 1, 1)
    assert winner["money"] == 450
    assert winner["rake"] == 50
    assert winner["money_words"] == "+4.50 chips"
    assert winner["money_line"] == "Gets 50 points × 0.10 chips = 5 chips, less 0.50 chips rake: 4.50 chips"
    assert loser["money"] == -500
    assert loser["money_words"] == "\u22125 chips"
    assert loser["money_line"] == "Pays 50 points × 0.10 chips = 5 chips"
    assert loser["rake"] == 0
    assert winner["cap"] == 200
    assert out["note"] == (
        "Each loser pays the winner their points × 0.10 chips a point, at most 200 points a deal; "
        "the house's 10% rake comes off the winner's gain."
    )


def test_a_split_offer_is_explained__R_POOL_8():
    lines = explain_split([10167, 4167, 1666], [3, 1, 0], 2500, 16000, "INR")
    assert lines[0].startswith("The prize after rake is ₹160.00.")
    assert lines[1] == "3 drop(s) left: ₹75.00 first, ₹26.67 share, ₹101.67 in all."


def test_a_split_offer_on_the_table_says_who_gets_what_and_why__R_POOL_6_R_POOL_8(alice, bob, carol):
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    play_deal(table, users, {alice: "wrong", bob: "wrong"}, clock)
    pass_deadline(table, clock)
    play_deal(table, users, {alice: "wrong", carol: "wrong"}, clock)
    table.refresh_from_db()
    split = table_view(table, bob)["split_offer"]
    assert sorted(split["players"]) == sorted([str(bob.pk), str(carol.pk)])
    assert split["amounts"] == [3375, 3375]
    assert split["drops_left"] == [1, 1]  # both at 80 of 101: the same drops, an equal split
    assert split["why"] == (
        "The prize after rake is ₹67.50. Each player first gets the entry fee (₹25.00) for every "
        "drop they have left beyond the fewest anyone has (1); the rest, ₹67.50, is shared equally."
    )
    assert split["each"] == ["1 drop(s) left: ₹0.00 first, ₹33.75 share, ₹33.75 in all."] * 2


def test_a_deal_won_by_drops_says_so_and_a_later_drop_is_a_middle_drop__R_DROP_1_R_DROP_2(alice, bob, carol):
    """Nobody declared: the winner's reason says the others dropped, not "valid declaration";
    a drop on a later turn, before taking a card, is a middle drop in words too."""
    clock = Clock()
    table = seat_all(template(seats=3), [alice, bob, carol], clock)
    first, second, third = in_turn_order(table, [alice, bob, carol])
    for user in (first, second, third):  # everyone's first turn: draw and discard
        services.act(table.pk, user, {"type": "draw", "source": "closed"}, at=clock())
        services.act(table.pk, user, {"type": "discard", "card": state(table).deal.drawn.code}, at=clock())
    services.act(table.pk, first, {"type": "drop"}, at=clock())  # a later turn, before taking a card
    services.act(table.pk, second, {"type": "drop"}, at=clock())
    table.refresh_from_db()
    result = table_view(table, third)["last_result"]
    assert result["finish_card"] is None
    by_player = {p["player"]: p for p in result["players"]}
    assert by_player[str(third.pk)]["reason"] == "Every other player dropped or left: 0 points"
    assert by_player[str(first.pk)]["outcome"] == "middle_drop"
    assert by_player[str(first.pk)]["reason"] == "Dropped after the first turn: 40 points"
    assert by_player[str(second.pk)]["reason"] == "Dropped after the first turn: 40 points"


def test_an_engine_refusal_names_cards_as_a_player_writes_them():
    """The engine says "you took JH from the open pile"; a player reads J♥."""
    from games.engine.actions import IllegalAction
    from games.errors import GameError

    refusal = IllegalAction("open_card_discard", "you took JH from the open pile: you cannot discard it")
    error = GameError.from_engine(refusal)
    assert error.code == "open_card_discard"
    assert error.message == "you took J♥ from the open pile: you cannot discard it"


def two_first_drops(users, **fields):
    """A first deal of a new table of three in which the first two to play drop on their first
    turn (20 points each): the table, the players in turn order and the result as the first sees it."""
    clock = Clock()
    table = seat_all(template(name=fields["variant"], **{"entry_fee": 0, **fields}), users, clock)
    order = in_turn_order(table, users)
    play_deal(table, users, {order[0]: "drop", order[1]: "drop"}, clock)
    table.refresh_from_db()
    return table, order, table_view(table, order[0])["last_result"]


def test_a_points_deal_in_money_losers_pay_points_times_value_the_winner_nets_the_rake__R_PTS_3(
    alice, bob, carol
):
    """13-card points at ₹0.50 a point: two first drops of 20 pay ₹10.00 each; the winner gets
    40 points (₹20.00) less the 10% rake (₹2.00)."""
    _, (first, _, winner), result = two_first_drops([alice, bob, carol], variant="points13", point_value=50)
    by_player = {p["player"]: p for p in result["players"]}
    loser = by_player[str(first.pk)]
    assert loser["money"] == -1000
    assert loser["money_words"] == "\u2212₹10.00"
    assert loser["money_line"] == "Pays 20 points × ₹0.50 = ₹10.00"
    won = by_player[str(winner.pk)]
    assert won["money"] == 1800
    assert won["rake_words"] == "₹2.00"
    assert won["money_line"] == "Gets 40 points × ₹0.50 = ₹20.00, less ₹2.00 rake: ₹18.00"
    assert result["note"].startswith("Each loser pays the winner their points × ₹0.50 a point, at most 80")
    assert "value_jokers" not in won, "value cards are 21-card only"
    for row in result["players"]:
        assert not RAW.search(row["money_line"]), row["money_line"]


def test_a_deals_result_says_the_game_chips_each_player_gave_or_won_and_the_score_card_keeps_them__R_DEALS_3(
    client, alice, bob, carol
):
    """Best of 2 for three: 160 game chips each. Two first drops (20 each) move 40 chips to the
    deal's winner; the words say game chips, never rupees."""
    users = [alice, bob, carol]
    table, (first, _, winner), result = two_first_drops(users, variant="deals", entry_fee=2500, deals=2)
    clock = Clock(state(table).now_ms)
    by_player = {p["player"]: p for p in result["players"]}
    assert by_player[str(first.pk)]["chips_line"] == "Gives 20 game chips to the winner: 140 left"
    assert by_player[str(first.pk)]["chips_words"] == "\u221220 game chips"
    assert by_player[str(winner.pk)]["chips_line"] == "Wins 40 game chips: 200 now"
    assert (by_player[str(winner.pk)]["chips_before"], by_player[str(winner.pk)]["chips"]) == (160, 200)
    assert "money_line" not in by_player[str(first.pk)], "game chips are not money"
    assert "game chips are a score, not money" in result["note"]
    assert all("₹" not in row["chips_line"] for row in result["players"])
    # The second deal: the chips before it are the first deal's standings.
    pass_deadline(table, clock)
    first, second, third = in_turn_order(table, users)
    play_deal(table, users, {first: "drop", second: "drop"}, clock)
    client.force_login(alice)
    card = client.get(reverse("games:scores", args=[table.pk])).json()
    assert [row["number"] for row in card["deals"]] == [1, 2]
    assert card["deals"][0]["chips"] == {str(u.pk): n for u, n in ((winner, 200),)} | {
        str(u.pk): 140 for u in users if u != winner
    }
    final = {str(p.name): p.chips for p in state(table).players}
    assert card["deals"][1]["chips"] == final
    last = {p["player"]: p for p in card["last"]["players"]}
    assert last[str(third.pk)]["chips"] == final[str(third.pk)]
    assert last[str(third.pk)]["chips_before"] == card["deals"][0]["chips"][str(third.pk)]
