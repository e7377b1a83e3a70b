"""The exact solver (R-SHOW-5): the arrangement of a hand with the lowest losing score.

CONTRACT (implemented by the engine work; other modules code against these names):

    solve(variant, jokers, hand) -> Solution
        Solution(score: int, can_declare: bool, groups: tuple[tuple[Card, ...], ...])
        score:       the lowest losing score of any arrangement (R-SHOW-2 / R-21-4), capped
        can_declare: some arrangement is a valid declaration (R-DECL-2 / R-21-3)
        groups:      an arrangement achieving ``score`` (a valid declaration when
                     can_declare); cards of hand not in any group are left out, and
                     ``evaluate(variant, jokers, hand, groups).score == score``.
"""
