"""Helpers to script whole tables in the pure engine: seat players, start a game, play a deal
out with everyone but one player dropping."""

from __future__ import annotations

from typing import Any

from games.engine import table as t
from games.engine.actions import Discard, Draw, Drop
from games.engine.variants import Variant

SEED = bytes(range(32))
SEED2 = bytes(range(1, 33))


def seated(variant: Variant, names: tuple[str, ...], **rules: Any) -> tuple[t.TableState, list[t.Money]]:
    """A table of ``variant`` with ``names`` joined in order (``seats`` defaults to them all),
    and the money their joining moved."""
    rules.setdefault("seats", len(names))
    state = t.open_table(variant, t.Rules(**rules), 0)
    money: list[t.Money] = []
    for at, name in enumerate(names):
        progress = t.apply(state, t.Join(name, at))
        state = progress.state
        money.extend(progress.money)
    return state, money


def started(variant: Variant, names: tuple[str, ...], **rules: Any) -> t.Progress:
    """:func:`seated`, the countdown over, and the first deal dealt from fixed seeds."""
    state, _ = seated(variant, names, **rules)
    if state.waiting_for == "countdown":
        state = t.apply(state, t.Timeout(state.deadline_ms)).state
    return t.apply(state, t.NextDeal(state.now_ms + 1, SEED, SEED2))


def turn_of(state: t.TableState) -> str:
    assert state.deal is not None
    return state.deal.seats[state.deal.turn].player


def in_turn_order(state: t.TableState) -> list[str]:
    """The players of the running deal, from the one whose turn it is."""
    deal = state.deal
    assert deal is not None
    return list(deal.players[deal.turn :] + deal.players[: deal.turn])


def play_out(state: t.TableState, winner: str | None = None) -> tuple[t.TableState, list[t.Money], list[Any]]:
    """Everyone but ``winner`` (by default the last to move) drops on their turn; the winner
    draws and discards. The state after the deal, its money and its events."""
    winner = in_turn_order(state)[-1] if winner is None else winner
    money: list[t.Money] = []
    events: list[Any] = []
    while state.phase is t.Phase.PLAYING:
        player = turn_of(state)
        if player != winner:
            progress = t.apply(state, Drop(player, state.now_ms + 1))
        else:
            state = t.apply(state, Draw(player, "closed", state.now_ms + 1)).state
            assert state.deal is not None
            assert state.deal.drawn is not None
            progress = t.apply(state, Discard(player, state.deal.drawn, state.now_ms + 1))
        state = progress.state
        money.extend(progress.money)
        events.extend(progress.events)
    return state, money, events
