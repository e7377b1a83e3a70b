"""A deal's result and a hand's grouping in a player's words.

The engine decides every score; this module only explains them: the reason for each score
("Wrong show: no pure sequence", "Full count, capped at 80"), the label of each group and the
hand's live points, the 21-card money line, and the split offer's working.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.cards import Card, Jokers, points
from games.engine.melds import GroupKind, classify, evaluate
from games.engine.points21 import value_cards
from games.engine.variants import Variant
from games.words import GROUP_KINDS, cards_in_words, word


def _parse(codes: Sequence[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]


def group_label(variant: Variant, jokers: Jokers, group: Sequence[Card]) -> dict[str, Any]:
    """``{"kind": "pure sequence", "label": "Pure sequence", "valid": True}``; kind "invalid"
    when no reading fits."""
    kind = classify(variant, jokers, group)
    if kind is None:
        return {"kind": "invalid", "label": GROUP_KINDS["invalid"], "valid": False}
    valid = kind is not GroupKind.DUBLEE
    return {"kind": kind.value, "label": GROUP_KINDS.get(kind.value, kind.value), "valid": valid}


def grouping_verdict(
    variant: Variant,
    jokers: Jokers,
    hand: Sequence[Card],
    groups: Sequence[Sequence[Card]] | None,
    packs: int,
) -> dict[str, Any]:
    """The engine's labels of each group and the hand's points as grouped (R-SHOW-2, R-21-4):
    ``{"groups": [label, ...], "points": N, "can_declare": bool}``. Ungrouped: every card counts."""
    groups = [list(group) for group in (groups or []) if group]
    evaluation = evaluate(variant, jokers, hand, groups, packs=packs)
    return {
        "groups": [group_label(variant, jokers, group) for group in groups],
        "points": evaluation.score,
        "can_declare": evaluation.valid,
    }


def _hand_points(jokers: Jokers, hand: Sequence[Card]) -> int:
    return sum(points(card, jokers) for card in hand)


def reason(
    variant: Variant, jokers: Jokers, row: Mapping[str, Any], packs: int, *, declared: bool = True
) -> str:
    """Why this player scored what they did, in words. ``declared``: the deal was won by a
    declaration, not by every other player dropping or leaving."""
    outcome, score = row["outcome"], row["score"]
    hand = _parse(row["hand"])
    grouping = row.get("grouping")
    if outcome == "won":
        return "Valid declaration: 0 points" if declared else "Every other player dropped or left: 0 points"
    # A drop is first or middle by the turn it came on (R-DROP-1, R-DROP-2), not by a card taken:
    # leaving after taking a card counts as the drop of that turn.
    if outcome == "first_drop":
        return f"Dropped on the first turn: {score} points"
    if outcome == "middle_drop":
        return f"Dropped after the first turn: {score} points"
    if outcome == "missed_moves":
        return f"Missed three moves in a row, which counts as a drop: {score} points"
    if outcome == "show_timeout":
        return f"Did not show in time: {score} points"
    if outcome == "wrong_show":
        if grouping is None:
            return f"Wrong show: no grouping was sent in time ({score} points)"
        groups = [_parse(group) for group in grouping]
        why = evaluate(variant, jokers, hand, groups, packs=packs).reason
        return f"Wrong show: {cards_in_words(why) or 'not a valid declaration'} ({score} points)"
    # lost_show / deal_show: the cards outside valid groups, capped.
    groups = [_parse(group) for group in grouping or []]
    evaluation = evaluate(variant, jokers, hand, groups, packs=packs)
    raw = evaluation.score
    uncapped = _hand_points(jokers, hand) if not groups else raw
    parts = []
    if not groups:
        parts.append("No groups shown: every card counts")
    elif "no pure sequence" in evaluation.reason:
        parts.append("No pure sequence: every card counts")
    elif "only one sequence" in evaluation.reason:
        parts.append("Only one sequence: only the pure sequence is spared")
    else:
        parts.append("Points of the cards outside valid groups")
    if uncapped >= variant.full_count and raw >= variant.full_count:
        parts.append(f"full count, capped at {variant.full_count}")
    text = ", ".join(parts)
    if outcome == "deal_show":
        text += f"; showed before a first turn, so half of it, at most {variant.deal_show_max}"
    return f"{text}: {score} points"


def explain_result(
    result: Mapping[str, Any],
    variant: Variant,
    jokers: Jokers,
    packs: int,
    *,
    point_value: int = 0,
    rake_percent: int = 0,
    currency: str = "INR",
) -> dict[str, Any]:
    """The result with words: each player's ``outcome_words``, ``reason`` and group labels; on
    21-card tables their value cards, marriages and money (points × point value, less rake)."""
    from wallet.money import money

    players = []
    for row in result["players"]:
        hand = _parse(row["hand"])
        extra: dict[str, Any] = {
            "outcome_words": word("outcome", row["outcome"]),
            "reason": reason(variant, jokers, row, packs, declared=result.get("finish_card") is not None),
        }
        if row.get("grouping"):
            extra["labels"] = [
                group_label(variant, jokers, _parse(group))["label"] for group in row["grouping"]
            ]
        if variant.is_points21:
            counts = value_cards(hand, jokers)
            net_points = row.get("net") or 0
            gross = net_points * point_value
            rake = gross * rake_percent // 100 if gross > 0 else 0
            extra.update(
                value_jokers=counts.value_jokers,
                uppers=counts.uppers,
                lowers=counts.lowers,
                marriages=counts.marriages,
                cap=variant.max_loss,
                rake=rake,
                money=gross - rake,
                money_words=money(gross - rake, currency),
                rake_words=money(rake, currency),
            )
        players.append({**row, **extra})
    return {**result, "players": players}


def explain_split(
    amounts: Sequence[int], drops: Sequence[int], entry_fee: int, prize: int, currency: str
) -> list[str]:
    """How a split offer was worked out (R-POOL-6, R-POOL-8), one line per player, in words."""
    from wallet.money import money

    lowest = min(drops) if drops else 0
    first = [(d - lowest) * entry_fee for d in drops]
    rest = prize - sum(first)
    lines = [
        f"The prize after rake is {money(prize, currency)}. Each player first gets the entry fee "
        f"({money(entry_fee, currency)}) for every drop they have left beyond the fewest "
        f"anyone has ({lowest}); the rest, {money(max(rest, 0), currency)}, is shared equally."
    ]
    for d, amount, head in zip(drops, amounts, first, strict=True):
        lines.append(
            f"{d} drop(s) left: {money(head, currency)} first, {money(amount - head, currency)} share, "
            f"{money(amount, currency)} in all."
        )
    return lines
