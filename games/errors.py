"""The one error type of the games layer: a machine-readable ``code`` and a message in plain words."""

from __future__ import annotations

from games.engine.actions import ActionError
from games.words import cards_in_words
from wallet.errors import Code, WalletError

#: Wallet codes renamed for players; the others keep the wallet's code.
_WALLET_CODES = {Code.INSUFFICIENT_FUNDS: "insufficient_balance", Code.BELOW_MINIMUM: "insufficient_balance"}


class GameError(Exception):
    """A request the table refuses; nothing was written. Codes: not_your_turn, already_drawn,
    joker_on_open_pile, card_not_in_hand, table_full, insufficient_balance, rejoin_not_allowed,
    not_at_table, linked_account (fair play keeps two accounts apart at money tables: the words
    never name the other), ... (the engine's and the wallet's codes, see ``from_engine``/``from_wallet``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"GameError({self.code!r}, {self.message!r})"

    @classmethod
    def from_engine(cls, error: ActionError) -> GameError:
        """The engine's refusal, its card codes in a player's words ("JH" -> "J♥")."""
        return cls(error.code, cards_in_words(error.message))

    @classmethod
    def from_wallet(cls, error: WalletError) -> GameError:
        return cls(_WALLET_CODES.get(error.code, str(error.code.value)), error.message)
