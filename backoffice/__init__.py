"""The staff's site: the admin's shared pieces, reports, charts, the audit log and staff actions.

Layer: the top of the apps, beside the API. May import every app below (accounts, wallet,
games); nothing below imports it (the admin modules of the apps below still do: open work).
"""
