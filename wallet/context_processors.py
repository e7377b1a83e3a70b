"""Template context every page needs from the wallet: whether the money is sandbox money."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from wallet.cashier import sandbox_on


def payments(request: HttpRequest) -> dict[str, Any]:
    return {"sandbox_money": sandbox_on()}
