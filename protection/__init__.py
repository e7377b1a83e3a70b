"""Player protection and where money play is allowed: the site's money-play switch and
regions, a player's moves between regions (``residence``: a cooling-off period before money play
opens, a staff review once verified), limits the player sets (with a cooling-off period before a
raise), breaks and self-exclusion, reality checks, identity checks (KYC) and the record of every
change to them.

Layer: just above accounts and below the wallet. It imports accounts (and Django) only; the
wallet asks it before money moves in or out, and games asks it before a seat at a money table.
Its staff pages live in the back office.
"""
