"""The staff's site: the admin (its shared pieces, and the pages of accounts, wallet and games in
``admin_*``), the daily pages (live tables, players, withdrawals, voids), reports, charts, the
audit log and staff actions.

Layer: the top of the apps, beside the API. May import every app below (accounts, wallet,
games); nothing below imports it.
"""
