"""A hold on a player's money while the fair-play team reviews their account."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class MoneyPlayFreeze(models.Model):
    """Money play, deposits and withdrawals on hold for one player, set by the risk desk while
    it reviews a fair-play case and lifted by it (``protection.freezes``: the only writer). One
    in force at a time (``lifted_at`` empty); a lifted one stays as the record of it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField(
        help_text="Why, in the staff member's words (the player reads the fixed words)."
    )
    case_ref = models.CharField(
        max_length=40, blank=True, help_text='The case it was set for, e.g. "case:7".'
    )
    frozen_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    frozen_at = models.DateTimeField(auto_now_add=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    lifted_at = models.DateTimeField(null=True, blank=True)
    lift_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-frozen_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(lifted_at__isnull=True),
                name="one_freeze_in_force_per_player",
            )
        ]

    def __str__(self) -> str:
        state = "lifted" if self.lifted_at else "in force"
        return f"money of user {self.user_id} frozen ({state})"
