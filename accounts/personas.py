"""The demo and test personas, in one place: players alice..frank and staff member sam."""

from __future__ import annotations

PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank")
STAFF = ("sam",)


def demo_password(username: str) -> str:
    """The demo password of a persona (local demo data only, never a real account)."""
    return f"rummy-{username}-demo"
