"""What players and staff read for fair play's internal names (the one mapping for this app)."""

CASE_KINDS = {
    "linked_accounts": "Linked accounts",
    "co_seating": "Often seated together",
    "soft_play": "Soft play",
    "chip_dumping": "Chip dumping",
    "discard_feeding": "Discard feeding",
    "win_rate": "Wins against one opponent",
    "bot_timing": "Machine-like timing",
    "bot_pattern": "Identical play across accounts",
    "manual": "Opened by staff",
}

CASE_STATUSES = {
    "open": "Open",
    "warned": "Warned",
    "frozen": "Money play frozen",
    "closed": "Account closed",
    "dismissed": "Dismissed",
}

#: Why two accounts are linked, as staff read it. The first three are strong (the two are kept
#: apart at money tables); an address alone is weak (docs/FAIRPLAY.md, "Linked accounts").
LINK_REASONS = {
    "device": "Same device",
    "instrument": "Same payment instrument",
    "document": "Same identity document",
    "address": "Same internet address",
}

LINK_STRENGTHS = {"strong": "Strong: kept apart at money tables", "weak": "Weak: noted only"}

#: What a second account of a self-excluded person reads on every money path. It never names
#: the other account.
LINKED_SELF_EXCLUDED = (
    "linked_self_excluded",
    "Money play is closed to this account: an account linked to yours has excluded itself from "
    "money play. Practice tables are open.",
)

#: How grave each status is: the desk's actions move a case up this order, never down (a
#: freeze lifted moves it back to open); "dismissed" ends it.
STATUS_ORDER = ["open", "warned", "frozen", "closed"]

#: The evidence's figures, in words (a detector's ``evidence["figures"][i]["name"]``); a
#: figure not named here is shown as its code in plain words.
FIGURES = {
    "tables_together": "Tables played together",
    "played_on_alone_with_partner": "Turns played on when alone with the partner",
    "points_passed_per_deal": "Points passed to the partner a deal",
    "discards_taken_from_partner": "Discards taken from the partner",
    "wins_against_opponent": "Deals won against this opponent",
    "move_time_spread": "Spread of move times (robust)",
    "median_move_ms": "Median time to move (ms)",
    "longest_session_hours": "Longest session (hours)",
    "win_rate": "Share of deals won against this opponent",
    "co_seating": "Deals seated together",
    "drops": "Share of deals dropped when these players sat together",
    "chips_passed": "Money passed to one player",
    "discards_picked": "Share of discards the partner picked up",
    "move_seconds_spread": "Spread of move times (seconds)",
    "same_moves": "Share of identical moves across accounts",
}

#: What a warned player reads on the site until they say they have read it.
WARNING_MESSAGE = (
    "Our fair-play team reviewed your recent games. Playing as a team against others at a table, "
    "passing money to another player on purpose, or sharing your account breaks our rules. "
    "If it happens again, your account will be closed."
)
