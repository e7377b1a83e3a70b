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
