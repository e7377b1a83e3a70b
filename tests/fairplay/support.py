"""Linked accounts for the fair-play tests: signals recorded as a log-in would record them."""

from __future__ import annotations

from typing import Any

from fairplay import signals
from fairplay.models import Link

#: A device id of the shape the cookie has (43 URL-safe characters).
DEVICE = "d" * 22 + "SharedDevice0123456789"
OTHER_DEVICE = "e" * 22 + "OwnDevice000123456789x"


def logged_in(user: Any, *, device: str = "", address: str | None = None) -> None:
    signals.record("login", user.pk, device=device, address=address, agent="pytest")


def link_by_device(first: Any, second: Any, device: str = DEVICE) -> Link:
    """Both accounts log in from one device: a strong link."""
    logged_in(first, device=device)
    logged_in(second, device=device)
    low, high = sorted((first.pk, second.pk))
    return Link.objects.get(low_id=low, high_id=high)


def link_by_address(first: Any, second: Any, address: str = "49.36.10.20") -> Link:
    """Both accounts log in from one address, each from their own device: a weak link."""
    logged_in(first, device="a" * 30, address=address)
    logged_in(second, device="b" * 30, address=address)
    low, high = sorted((first.pk, second.pk))
    return Link.objects.get(low_id=low, high_id=high)
