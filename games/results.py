"""A deal's result and a hand's grouping in a player's words.

The engine decides every score; this module only explains them: the reason for each score
("Wrong show: no pure sequence", "Full count, capped at 80"), the label of each group and the
hand's live points, the 21-card money line, and the split offer's working.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
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
    labels, score, valid = _verdict(
        variant, jokers, tuple(hand), tuple(tuple(group) for group in (groups or ()) if group), packs
    )
    return {"groups": [dict(label) for label in labels], "points": score, "can_declare": valid}


#: Hands judged lately, with their verdicts. Every viewer's snapshot carries their hand's verdict,
#: after every move at the table, and a move changes one hand: at six seats, five of the six
#: were judged again unchanged (55 µs each grouped, 125 for 21 cards).
VERDICTS_KEPT = 4096


@lru_cache(maxsize=VERDICTS_KEPT)
def _verdict(
    variant: Variant,
    jokers: Jokers,
    hand: tuple[Card, ...],
    groups: tuple[tuple[Card, ...], ...],
    packs: int,
) -> tuple[tuple[dict[str, Any], ...], int, bool]:
    evaluation = evaluate(variant, jokers, hand, groups, packs=packs)
    labels = tuple(group_label(variant, jokers, group) for group in groups)
    return labels, evaluation.score, evaluation.valid


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
    chips: Mapping[str, tuple[int, int]] | None = None,
) -> dict[str, Any]:
    """The result with words: each player's ``outcome_words``, ``reason`` and group labels; at
    points tables their money (net points × point value, less the rake on a gain: R-PTS-3,
    R-21-7) with its ``money_line``, and on 21-card tables their value cards and marriages; at
    deals tables, given each player's game chips ``(before, after)`` the deal, the chips moved
    with their ``chips_line`` (R-DEALS-3). ``note`` says how the deal's money or chips work."""
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
        if variant.is_points:
            extra.update(_money(row.get("net") or 0, point_value, rake_percent, currency))
        if variant.is_points21:
            counts = value_cards(hand, jokers)
            extra.update(
                value_jokers=counts.value_jokers,
                uppers=counts.uppers,
                lowers=counts.lowers,
                marriages=counts.marriages,
                cap=variant.max_loss,
            )
        if variant.is_deals and chips is not None and row["player"] in chips:
            extra.update(_chips(*chips[row["player"]]))
        players.append({**row, **extra})
    out = {**result, "players": players}
    note = _note(variant, point_value, rake_percent, currency)
    if note:
        out["note"] = note
    return out


def _money(net_points: int, point_value: int, rake_percent: int, currency: str) -> dict[str, Any]:
    """A points player's deal in money: ``money`` (paise, signed) is net points × point value,
    less the rake when it is a gain (R-PTS-3, R-21-7); ``money_line`` says so in words."""
    from wallet.money import money

    gross = net_points * point_value
    rake = gross * rake_percent // 100 if gross > 0 else 0
    each = f"{abs(net_points)} points × {money(point_value, currency)} = {money(abs(gross), currency)}"
    if net_points < 0:
        line = f"Pays {each}"
    elif net_points > 0 and rake:
        line = f"Gets {each}, less {money(rake, currency)} rake: {money(gross - rake, currency)}"
    elif net_points > 0:
        line = f"Gets {each}"
    else:
        line = "Pays nothing and gets nothing"
    return {
        "rake": rake,
        "money": gross - rake,
        "money_words": _signed(gross - rake, money(abs(gross - rake), currency)),
        "rake_words": money(rake, currency),
        "money_line": line,
    }


def _chips(before: int, after: int) -> dict[str, Any]:
    """A deals player's game chips over the deal (R-DEALS-2, R-DEALS-3), never money."""
    unit = word("unit", "game_chips")
    moved = after - before
    if moved < 0:
        line = f"Gives {-moved} {unit} to the winner: {after} left"
    elif moved > 0:
        line = f"Wins {moved} {unit}: {after} now"
    else:
        line = f"No {unit} moved: {after}"
    return {
        "chips_before": before,
        "chips": after,
        "chips_moved": moved,
        "chips_words": f"{_signed(moved, str(abs(moved)))} {unit}",
        "chips_line": line,
    }


def _signed(amount: int, text: str) -> str:
    """``+₹36.00`` for a gain, ``−₹20.00`` for a loss (a true minus sign), the amount alone at 0."""
    return f"+{text}" if amount > 0 else f"\u2212{text}" if amount < 0 else text


def _note(variant: Variant, point_value: int, rake_percent: int, currency: str) -> str:
    """How the deal's money or game chips work, in one sentence for the result sheet."""
    from wallet.money import money

    if variant.is_points:
        cap = variant.max_loss
        rake = f"; the house's {rake_percent}% rake comes off the winner's gain" if rake_percent else ""
        return (
            f"Each loser pays the winner their points × {money(point_value, currency)} a point, "
            f"at most {cap} points a deal{rake}."
        )
    if variant.is_deals:
        unit = word("unit", "game_chips")
        return (
            f"Each loser's points move in {unit} to the deal's winner ({unit} are a score, not money); "
            "after the last deal the most wins the prize."
        )
    return ""


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
