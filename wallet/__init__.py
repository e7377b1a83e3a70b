"""The double-entry ledger and everything that moves money: one posting function
(``ledger.execute``), game money operations (``operations``), deposits, withdrawals and chips
(``cashier``), the payment gateways (``providers``) and the payouts sent after an approval
commits (``payouts``), reconciliation and reports.

Layer: above accounts. May import accounts; never games, the back office or the API (game
money arrives as amounts and references the games layer computed).
"""
