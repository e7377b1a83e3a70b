"""Why a player may not do something with money, in a code and plain words."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Refusal:
    code: str
    message: str


class ProtectionError(Exception):
    """A refusal raised: nothing was written."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.code = refusal.code
        self.message = refusal.message
