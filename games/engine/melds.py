"""Melds and declarations (R-MELD-*, R-DECL-2, R-21-3, R-SHOW-2, R-21-4).

CONTRACT (implemented by the engine work; other modules code against these names):

    classify(variant, jokers, group) -> GroupKind | None   # None: not a valid group, see why()
    evaluate(variant, jokers, hand, groups) -> Evaluation
        hand:   the player's cards after the finish card is set aside (13 or 21)
        groups: the player's grouping; every card of a group must be in hand (as a multiset);
                cards of hand not in any group are ungrouped.
        Evaluation(valid: bool, score: int, reason: str)
            valid:  the grouping is a valid declaration (R-DECL-2 / R-21-3)
            score:  the losing score of this grouping (R-SHOW-2 / R-21-4), capped
            reason: "" when valid, else plain words, e.g. "no pure sequence" or
                    "8D 8H 8H: two cards of one suit in a set"
    Raises CardError if groups hold a card that is not in hand (more copies than held).
"""
