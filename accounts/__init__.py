"""Players and staff: the user model, sign-up (one path: ``registration.register``), log in and
out, sessions and their websockets, staff TOTP, and the signals the apps above answer.

Layer: the bottom, beside the rules engine. Imports Django and nothing of the project; the apps
above listen to ``accounts.signals`` (the wallet grants the welcome chips) instead of being
imported here. (``accounts/admin.py`` still imports the back office and the models above it:
moving the staff pages into ``backoffice`` is open work, tracked by the layer test's list.)
"""
