"""Template context every page needs from the wallet: whether the money is sandbox money, and
whether the site offers money play at all (``MONEY_PLAY``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

from wallet.providers import sandbox_on


def payments(request: HttpRequest) -> dict[str, Any]:
    return {"sandbox_money": sandbox_on(), "money_play": bool(settings.MONEY_PLAY)}
