"""The one check point of money play (R-PROT-1..3): may this player play for money now?

Every money path asks :func:`refusal` before money moves at a table or into the wallet: joins,
"play now", private tables and rejoins at money tables (``games.services``), deposits
(``wallet.cashier``), and the pages and API endpoints on them. Practice play (chips) never asks:
it is open everywhere. Withdrawals do not ask either: a player can always take their own money
out, on a break, self-excluded, or where money play has been switched off (R-PROT-1).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from accounts.regions import UNDECLARED, name_of
from protection import exclusions
from protection.models import Exclusion, ExclusionKind
from protection.refusal import ProtectionError, Refusal


def site_on() -> bool:
    """``MONEY_PLAY``: the operator's switch for the whole site."""
    return bool(getattr(settings, "MONEY_PLAY", settings.DEBUG))


def allowed_regions() -> list[str]:
    return [code.strip().upper() for code in getattr(settings, "MONEY_REGIONS", []) if code.strip()]


def region_allowed(region: str) -> bool:
    """Every region when ``MONEY_REGIONS`` is empty; else an exact code ("IN-KA") or its
    whole country ("GB" covers "GB-ENG"). An undeclared region matches no list."""
    allowed = allowed_regions()
    if not allowed:
        return True
    region = (region or UNDECLARED).upper()
    if region == UNDECLARED:
        return False
    return region in allowed or region.split("-", 1)[0] in allowed


def refusal(user: Any, *, now: datetime | None = None) -> Refusal | None:
    """None if ``user`` may play for money now, else why not."""
    return refusal_given(user, lambda: exclusions.current(user, now=now or timezone.now()))


def refusal_given(user: Any, current: Callable[[], Exclusion | None]) -> Refusal | None:
    """:func:`refusal`, with the exclusion in force now (asked for only once the rest passes)."""
    if not site_on():
        return Refusal("money_play_off", "Money play is not offered on this site. Practice tables are open.")
    if getattr(user, "is_bot", False):
        return Refusal("bots_not_allowed", "Bots play only on practice tables.")
    region = str(getattr(user, "region", "") or UNDECLARED)
    if not region_allowed(region):
        if region == UNDECLARED:
            return Refusal(
                "region_undeclared",
                "Tell us where you live (your profile) before you play for money. Practice tables are open.",
            )
        return Refusal(
            "region_not_allowed",
            f"Money play is not offered in {name_of(region)}. Practice tables are open.",
        )
    found = current()
    if found is not None:
        if found.kind == ExclusionKind.SELF_EXCLUSION:
            until = "for good" if found.ends_at is None else f"until {exclusions.when(found.ends_at)}"
            return Refusal("self_excluded", f"You have excluded yourself from money play {until}.")
        return Refusal(
            "on_a_break", f"You are taking a break from money play until {exclusions.when(found.ends_at)}."
        )
    return None


def check(user: Any, *, now: datetime | None = None) -> None:
    """Raise :class:`ProtectionError` if ``user`` may not play for money now."""
    found = refusal(user, now=now)
    if found is not None:
        raise ProtectionError(found)
