"""The wallet app: a double-entry ledger (see docs/WALLET.md)."""

from __future__ import annotations

import contextlib
from typing import Any

from django.apps import AppConfig
from django.db.backends.signals import connection_created


def _generic_plans(sender: Any, connection: Any, **kwargs: Any) -> None:
    """Plan the ledger's prepared statements once per connection, not once per call.

    PostgreSQL re-plans a prepared statement with its parameters (a "custom plan") unless it
    judges the generic plan as cheap; for the posting statement (arrays in, CTEs) it keeps
    re-planning, which cost more than executing it. Only prepared statements are affected,
    and only the wallet prepares any (see wallet/sql.py).
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET plan_cache_mode = force_generic_plan")


def _welcome_chips(sender: Any, user: Any, **kwargs: Any) -> None:
    """Answer accounts' sign-up signal with the welcome practice chips. A refusal (the chips
    are there already) must never fail the sign-up itself."""
    from wallet.cashier import welcome_chips
    from wallet.errors import WalletError

    with contextlib.suppress(WalletError):
        welcome_chips(user)


class WalletConfig(AppConfig):
    name = "wallet"
    verbose_name = "Wallet and ledger"

    def ready(self) -> None:
        connection_created.connect(_generic_plans, dispatch_uid="wallet_generic_plans")
        from accounts.signals import player_signed_up

        player_signed_up.connect(_welcome_chips, dispatch_uid="wallet_welcome_chips")
