"""The record of every change to a player's protection settings: append-only."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class ProtectionEvent(models.Model):
    """One change to a player's limits, break, self-exclusion, region or identity check, by
    the player (``by`` empty) or by a staff member. Written in the change's own transaction;
    never changed or deleted (``protection.history.record`` writes it)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    kind = models.CharField(max_length=40, help_text='What changed, e.g. "limit_lowered", "break_taken".')
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["user", "-at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.user_id} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise ValueError("the protection history is append-only: an entry cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("the protection history is append-only: an entry cannot be deleted")
