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
