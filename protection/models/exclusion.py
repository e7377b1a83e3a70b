"""Breaks and self-exclusion: a time (or for good) when the player plays for money no more."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ExclusionKind(models.TextChoices):
    BREAK = "break", "Break"
    SELF_EXCLUSION = "self_exclusion", "Self-exclusion"


class Exclusion(models.Model):
    """One break or self-exclusion the player took (R-PROT-2, R-PROT-3). Never shortened or
    lifted: ``ends_at`` is set once, empty for good; a longer one is a new row."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=16, choices=ExclusionKind.choices)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True, help_text="Empty: for good.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at", "-id"]
        indexes = [models.Index(fields=["user", "-starts_at"])]

    def __str__(self) -> str:
        until = "for good" if self.ends_at is None else f"until {self.ends_at:%Y-%m-%d %H:%M}"
        return f"{self.get_kind_display()} of user {self.user_id} {until}"
