"""Limits the player sets on deposits and on money staked at tables."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class LimitKind(models.TextChoices):
    DEPOSIT_DAY = "deposit_day", "Deposits per day"
    DEPOSIT_WEEK = "deposit_week", "Deposits per week"
    DEPOSIT_MONTH = "deposit_month", "Deposits per month"
    STAKE_DAY = "stake_day", "Stakes per day"


class LimitChange(models.Model):
    """One setting of a limit (R-PROT-4, R-PROT-5): ``amount`` paise (empty: no limit), in force
    from ``effective_at`` (at once when it lowers the limit, after the cooling-off period when
    it raises or removes it). The limit in force is the latest change already effective;
    a change made later cancels one still waiting."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=16, choices=LimitKind.choices)
    amount = models.BigIntegerField(null=True, blank=True, help_text="Paise; empty: no limit.")
    requested_at = models.DateTimeField()
    effective_at = models.DateTimeField()
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-effective_at", "-id"]
        indexes = [models.Index(fields=["user", "kind", "-effective_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount__isnull=True) | models.Q(amount__gt=0), name="limit_amount_positive"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} of user {self.user_id}: {self.amount} from {self.effective_at:%Y-%m-%d %H:%M}"
