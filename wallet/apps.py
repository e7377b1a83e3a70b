"""The wallet app: a double-entry ledger (see docs/WALLET.md)."""

from __future__ import annotations

import contextlib
from typing import Any

from django.apps import AppConfig


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
        from accounts.signals import player_signed_up

        player_signed_up.connect(_welcome_chips, dispatch_uid="wallet_welcome_chips")
