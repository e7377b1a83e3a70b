"""Fair play: linked accounts kept apart, collusion and bots found, and the risk desk's cases.

A layer above the games and the wallet (beside the tournaments): it reads what the tables
record and answers their one question, "which of these players must be kept apart?"
(``games.seating``), from its ``AppConfig.ready``. It never changes a table; staff act on its
cases through the back office. docs/FAIRPLAY.md says what it catches and what it misses.
"""
