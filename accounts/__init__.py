"""Players and staff: the user model, sign-up (one path: ``registration.register``), log in and
out, sessions and their websockets, staff TOTP, and the signals the apps above answer.

Layer: the bottom, beside the rules engine. Imports Django and nothing of the project; the apps
above listen to ``accounts.signals`` (the wallet grants the welcome chips) instead of being
imported here. Its staff pages (the admin) live in ``backoffice.admin_accounts``.
"""
