"""The one place that turns internal codes into the words a player reads.

Pages, the back office, the API's labels and the browser (which gets :func:`browser_words` in
the table page) all read these tables; a code with no entry falls back to its own words with
the underscores taken out, so a new code is never shown raw.
"""

from __future__ import annotations

import re
from typing import Any

#: A card's suit: its symbol, its colour on the page and its name for screen readers.
SUITS = {
    "H": ("♥", "red", "hearts"),
    "D": ("♦", "red", "diamonds"),
    "S": ("♠", "dark", "spades"),
    "C": ("♣", "dark", "clubs"),
}
RANKS = {"A": "A", "T": "10", "J": "J", "Q": "Q", "K": "K"}

_CARD_CODE = re.compile(r"\b(?:PJ|[A2-9TJQK][SHDC])\b")


def card_text(code: str) -> str:
    """A card code as a player writes it: "TH" -> "10♥", "PJ" -> "JKR"."""
    if code == "PJ":
        return "JKR"
    rank, suit = code[:-1], code[-1]
    return RANKS.get(rank, rank) + SUITS.get(suit, (suit,))[0]


def cards_in_words(text: str) -> str:
    """Card codes in an engine message as a player writes them: "7H 8H" -> "7♥ 8♥"."""
    return _CARD_CODE.sub(lambda match: card_text(match.group(0)), text)


VARIANTS = {
    "pool101": "101 Pool",
    "pool201": "201 Pool",
    "pool61": "61 Pool",
    "points21": "21 Cards",
    "points13": "Points",
    "deals": "Deals",
}

#: The lobby's tabs: the formats a player chooses between (21-card points has its own).
FORMATS = {
    "points": "Points",
    "pool": "Pool",
    "deals": "Deals",
    "points21": "21 Cards",
}

#: What each format is, in a line under its tab.
FORMAT_HINTS = {
    "points": "13 cards, one deal a game, paid at a point value. Sit down and play at once.",
    "pool": "Scores add up deal after deal: out at 101, 201 or 61; the last one in wins the prize.",
    "deals": "A fixed number of deals for game chips; the most game chips wins the prize.",
    "points21": "21 cards, three packs, value cards and marriages, paid at a point value.",
}

#: How a player's deal ended (games.engine.deal.Outcome).
OUTCOMES = {
    "won": "Won",
    "lost_show": "Lost at the show",
    "deal_show": "Showed before their first turn",
    "first_drop": "First drop",
    "middle_drop": "Middle drop",
    "missed_moves": "Dropped for missed moves",
    "wrong_show": "Wrong show",
    "show_timeout": "Did not show in time",
    "in": "Playing",
}

#: How a game went for a player (the back office's games of a player): a pool game won, split,
#: lost, left, or still being played; a 21-card table by what they came away with.
GAME_RESULTS = {
    "won": "Won the game",
    "split": "Shared the prize (split)",
    "lost": "Lost",
    "left": "Left the game",
    "eliminated": "Eliminated",
    "playing": "Still playing",
    "voided": "Voided by staff: every fee and hold back",
    "ahead": "Came out ahead",
    "behind": "Came out behind",
    "even": "Broke even",
}

#: A player's standing at the table (games.engine.table.Status) and their seat.
STATUSES = {
    "seated": "Waiting for the next game",
    "in": "Playing",
    "eliminated": "Eliminated",
    "left": "Left the table",
    "waiting": "Waiting for players",
    "starting": "Starting soon",
    "playing": "Playing",
    "finished": "Finished",
    "cancelled": "Cancelled",
}

#: What a deal waits for in each of its phases (games.engine.deal.Phase).
DEAL_PHASES = {
    "play": "draw and discard",
    "declaring": "grouping after declaring",
    "show": "showing their groups",
    "over": "the deal is over",
}

#: Table events, as the log and the replay name them.
EVENTS = {
    "auto_drop": "chose auto drop",
    "cancelled": "The table was cancelled",
    "chips_moved": "The game chips moved to the deal's winner",
    "voided": "The game was voided by the staff; every fee and seat hold was returned",
    "deal_number": "A new deal",
    "deal_over": "The deal is over",
    "deal_started": "The cards are dealt",
    "dealt": "You were dealt your cards",
    "decisions_closed": "Rejoin and split decisions are closed",
    "declared": "declared",
    "discarded": "discarded",
    "drew": "drew",
    "drew_card": "You drew",
    "dropped": "dropped",
    "finished": "put a card in the finish slot",
    "game_over": "The game is over",
    "game_started": "The game started",
    "grouping_saved": "Your groups were saved",
    "im_back": "is back from the next deal",
    "joined": "sat down",
    "leaving_after_deal": "will leave when this deal ends",
    "left": "left the table",
    "missed_move": "missed a move",
    "rejoin_offered": "Players who are out may rejoin",
    "rejoined": "rejoined",
    "reshuffled": "The open pile was shuffled into a new closed pile",
    "settled": "The deal was settled",
    "show_timed_out": "The show is over",
    "shown": "showed their cards",
    "split_accepted": "accepted the split",
    "split_declined": "declined the split",
    "split_offered": "A split of the prize is offered",
    "standings": "The scores after the deal are in",
    "staying": "will stay after this deal",
    "stood_up": "was stood up",
    "tie_breaker": "A tie-breaker deal decides between the players tied for the most game chips",
    "topped_up": "had their seat topped up from the wallet",
    "toss": "Cards were drawn to decide who deals",
    "toss_revealed": "The toss decides who deals",
    "turn": "to play",
    "waiting": "Waiting for players",
    "wrong_show": "made a wrong show",
    "wrong_show_reason": "Why the show was wrong",
}

#: Kinds of group (games.engine.melds.GroupKind values) and the invalid one.
GROUP_KINDS = {
    "pure sequence": "Pure sequence",
    "sequence": "Impure sequence",
    "set": "Set",
    "jokers": "Jokers",
    "tunnela": "Tunnela",
    "dublee": "Dublee",
    "invalid": "Invalid",
}

PILES = {"closed": "closed pile", "open": "open pile"}

CURRENCIES = {"INR": "Rupees", "CHIPS": "Practice chips"}

#: Units: what a stored amount counts, per currency (a download's amounts are integers in
#: hundredths; "mixed": a table with rupee and chip rows); and the unit a deals game counts in
#: that is not money: game chips are its score (R-DEALS-2), never written as rupees, nor as
#: "chips" alone, which are practice money.
UNITS = {
    "INR": "paise",
    "CHIPS": "hundredths of a chip",
    "mixed": "paise for rupees, hundredths of a chip for chips",
    "game_chips": "game chips",
}

#: Changes to a player's protection (protection.history), as staff read them.
PROTECTION = {
    "break_taken": "Took a break",
    "self_exclusion_taken": "Excluded themselves",
    "limit_lowered": "Lowered or set a limit (at once)",
    "limit_raise_requested": "Asked to raise or remove a limit (after cooling off)",
    "kyc_submitted": "Sent an identity document",
    "kyc_verified": "Identity verified",
    "kyc_rejected": "Identity check rejected",
    "kyc_held": "Identity held for a staff review (the document is verified on another account)",
    "region_changed": "Changed their region",
    "region_review_asked": "Asked to change their region (waits for a staff review)",
    "region_refused": "Change of region refused",
    "money_frozen": "Money play and withdrawals put on hold (fair-play review)",
    "money_unfrozen": "Hold on money play and withdrawals lifted",
}

#: The staff roles (backoffice.roles: the groups of the same names).
ROLES = {"support": "Support", "cashier": "Cashier", "risk": "Risk", "admin": "Admin"}

#: What a staff action was taken on (the audit log's targets: ``journal:42``, ``user:5``).
TARGETS = {
    "user": "Player",
    "accounts.user": "User",
    "journal": "Journal",
    "withdrawal": "Withdrawal",
    "table": "Table",
    "games.tabletemplate": "Table template",
    "case": "Fair-play case",
}

_TABLES = {
    "variant": VARIANTS,
    "format": FORMATS,
    "format_hint": FORMAT_HINTS,
    "outcome": OUTCOMES,
    "result": GAME_RESULTS,
    "status": STATUSES,
    "deal_phase": DEAL_PHASES,
    "event": EVENTS,
    "group": GROUP_KINDS,
    "pile": PILES,
    "currency": CURRENCIES,
    "unit": UNITS,
    "protection": PROTECTION,
    "role": ROLES,
    "target": TARGETS,
}


def plain(code: object) -> str:
    """A code no table knows, in words: "show_timeout" -> "Show timeout"."""
    text = str(code or "").replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def word(kind: str, code: object) -> str:
    """The words for ``code`` in the table ``kind`` ("outcome", "variant", ...)."""
    return _TABLES[kind].get(str(code), plain(code))


def browser_words() -> dict[str, Any]:
    """Every table, for the table page's script (one mapping, not a second copy in JS)."""
    return {kind: dict(table) for kind, table in _TABLES.items()}
