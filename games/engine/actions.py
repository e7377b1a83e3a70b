"""What a player can do in a deal, and the errors when they may not (R-TURN-*, R-DROP-*, R-DECL-*, R-SHOW-1).

Actions are small frozen values; each names the player and the time it was made (``at``,
milliseconds on the server's clock). :class:`Timeout` has no player: it applies whatever
deadline has passed. ``action_from_json`` reads the JSON a client sends and raises
:class:`InvalidAction` for input that is not an action at all; :func:`games.engine.deal.apply`
raises :class:`IllegalAction` for an action that is well formed but not allowed now.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from games.engine.cards import Card, CardError

Group: TypeAlias = tuple[Card, ...]
Grouping: TypeAlias = tuple[Group, ...]
Source: TypeAlias = Literal["closed", "open"]
SOURCES: tuple[Source, ...] = ("closed", "open")


class ActionError(Exception):
    """An action that cannot be applied; the state is unchanged. ``code`` is snake_case for
    programs, ``message`` plain words for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class InvalidAction(ActionError):
    """Not an action at all: an unknown card code, groups that are not a list of lists."""


class IllegalAction(ActionError):
    """A well-formed action the rules do not allow now: not your turn, a card you do not hold."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the closed or the open pile (R-TURN-1)."""

    player: str
    source: Source
    at: int


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card onto the open pile, ending the turn (R-TURN-1)."""

    player: str
    card: Card
    at: int


@dataclass(frozen=True, slots=True)
class Drop:
    """Leave the deal before drawing on one's turn (R-DROP-1..3)."""

    player: str
    at: int


@dataclass(frozen=True, slots=True)
class Finish:
    """Put a card in the finish slot after drawing, to declare (R-DECL-1)."""

    player: str
    card: Card
    at: int


@dataclass(frozen=True, slots=True)
class Declare:
    """The declarer's grouping of the cards left after the finish card (R-DECL-1, R-DECL-2)."""

    player: str
    groups: Grouping
    at: int


@dataclass(frozen=True, slots=True)
class Show:
    """A loser's grouping after a valid declaration (R-SHOW-1)."""

    player: str
    groups: Grouping
    at: int


@dataclass(frozen=True, slots=True)
class SaveGrouping:
    """Arrange one's hand; private, any time. It counts if the player does not show in time (R-SHOW-1)."""

    player: str
    groups: Grouping
    at: int


@dataclass(frozen=True, slots=True)
class Timeout:
    """Apply the deadline that has passed (R-TURN-6, R-DECL-1, R-SHOW-1); refused before it."""

    at: int


PlayerAction: TypeAlias = Draw | Discard | Drop | Finish | Declare | Show | SaveGrouping
Action: TypeAlias = PlayerAction | Timeout

ACTION_TYPES: dict[str, type[Action]] = {
    "draw": Draw,
    "discard": Discard,
    "drop": Drop,
    "finish": Finish,
    "declare": Declare,
    "show": Show,
    "save_grouping": SaveGrouping,
    "timeout": Timeout,
}
ACTION_NAMES: dict[type[Action], str] = {kind: name for name, kind in ACTION_TYPES.items()}


def groups_to_json(groups: Grouping) -> list[list[str]]:
    return [[card.code for card in group] for group in groups]


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON form of an action; ``action_from_json`` reads it back."""
    data: dict[str, Any] = {"type": ACTION_NAMES[type(action)]}
    if not isinstance(action, Timeout):
        data["player"] = action.player
    if isinstance(action, Draw):
        data["source"] = action.source
    elif isinstance(action, Discard | Finish):
        data["card"] = action.card.code
    elif isinstance(action, Declare | Show | SaveGrouping):
        data["groups"] = groups_to_json(action.groups)
    data["at"] = action.at
    return data


def parse_card(value: object) -> Card:
    """A card from its code; :class:`InvalidAction` ``bad_card`` for anything else."""
    if isinstance(value, Card):
        return value
    if not isinstance(value, str):
        raise InvalidAction("bad_card", f"a card is a code such as 7H, TS or PJ, not {value!r}")
    try:
        return Card.parse(value)
    except CardError as error:
        raise InvalidAction("bad_card", str(error)) from None


def parse_groups(value: object) -> Grouping:
    """A grouping from a list of lists of card codes; :class:`InvalidAction` ``bad_groups`` otherwise."""
    if isinstance(value, str | bytes) or not isinstance(value, list | tuple):
        raise InvalidAction("bad_groups", "a grouping must be a list of groups, each a list of cards")
    groups: list[Group] = []
    for group in value:
        if isinstance(group, str | bytes) or not isinstance(group, list | tuple):
            raise InvalidAction("bad_groups", "each group must be a list of cards")
        groups.append(tuple(parse_card(card) for card in group))
    return tuple(groups)


def _field(data: Mapping[str, Any], name: str) -> object:
    if name not in data:
        raise InvalidAction(f"missing_{name}", f"the action needs a {name!r}")
    return data[name]


def action_from_json(data: object) -> Action:
    """Read an action sent as JSON: ``{"type": "discard", "player": "asha", "card": "7H", "at": 1000}``."""
    if not isinstance(data, Mapping):
        raise InvalidAction("bad_action", "an action must be a JSON object")
    kind = data.get("type")
    if kind not in ACTION_TYPES:
        raise InvalidAction(
            "unknown_action", f"unknown action {kind!r}: choose one of {', '.join(ACTION_TYPES)}"
        )
    at = _field(data, "at")
    if isinstance(at, bool) or not isinstance(at, int):
        raise InvalidAction("bad_time", "'at' must be a whole number of milliseconds")
    if kind == "timeout":
        return Timeout(at)
    player = _field(data, "player")
    if not isinstance(player, str) or not player:
        raise InvalidAction("bad_player", "'player' must be a player's name")
    if kind == "draw":
        source = _field(data, "source")
        if source == "closed":
            return Draw(player, "closed", at)
        if source == "open":
            return Draw(player, "open", at)
        raise InvalidAction("bad_source", f"draw from 'closed' or 'open', not {source!r}")
    if kind == "drop":
        return Drop(player, at)
    if kind == "discard":
        return Discard(player, parse_card(_field(data, "card")), at)
    if kind == "finish":
        return Finish(player, parse_card(_field(data, "card")), at)
    groups = parse_groups(_field(data, "groups"))
    if kind == "declare":
        return Declare(player, groups, at)
    if kind == "show":
        return Show(player, groups, at)
    return SaveGrouping(player, groups, at)


def check_action(action: Action) -> None:
    """Refuse an action object whose fields have the wrong types (:class:`InvalidAction`).

    Actions built in Python are not type-checked at run time; this keeps a stray string
    where a card belongs from reaching the rules.
    """
    if not isinstance(action, tuple(ACTION_TYPES.values())):
        raise InvalidAction("bad_action", f"not an action: {action!r}")
    at = getattr(action, "at", None)
    if isinstance(at, bool) or not isinstance(at, int):
        raise InvalidAction("bad_time", "'at' must be a whole number of milliseconds")
    if isinstance(action, Timeout):
        return
    if not isinstance(action.player, str) or not action.player:
        raise InvalidAction("bad_player", "'player' must be a player's name")
    if isinstance(action, Draw) and action.source not in SOURCES:
        raise InvalidAction("bad_source", f"draw from 'closed' or 'open', not {action.source!r}")
    if isinstance(action, Discard | Finish) and not isinstance(action.card, Card):
        raise InvalidAction("bad_card", f"not a card: {action.card!r}")
    if isinstance(action, Declare | Show | SaveGrouping):
        groups = action.groups
        if not isinstance(groups, tuple) or not all(
            isinstance(group, tuple) and all(isinstance(card, Card) for card in group) for group in groups
        ):
            raise InvalidAction("bad_groups", "a grouping must be a tuple of groups, each a tuple of cards")
