"""Changes of the region a player lives in, as protection decides them (R-PROT-9)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class RegionChangeStatus(models.TextChoices):
    APPLIED = "applied", "Applied"
    REVIEW = "review", "Waiting for a staff review"
    REFUSED = "refused", "Refused by staff"
    WITHDRAWN = "withdrawn", "Replaced by a later change"


class RegionChange(models.Model):
    """A player's move from ``was`` to ``region`` (R-PROT-9). Applied at once (``User.region``
    changes) unless the player's identity is verified, when it waits for a staff review; money
    play in the new region opens at ``opens_at`` (the cooling-off period after a move that
    opens it, never sooner than a wait already running), at once otherwise. A later move
    replaces one still waiting for review. Rows are written once and decided once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    was = models.CharField(max_length=6, help_text="The region before the move.")
    region = models.CharField(max_length=6, help_text="The region the player moves to.")
    status = models.CharField(max_length=12, choices=RegionChangeStatus.choices)
    requested_at = models.DateTimeField()
    opens_at = models.DateTimeField(
        null=True, blank=True, help_text="Applied: when money play opens in the new region."
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    reason = models.TextField(blank=True, help_text="The reviewer's reason, as the player reads it.")

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["user", "status", "-id"]),
            models.Index(fields=["status", "requested_at"]),
        ]
        constraints = [
            # One move at most waits for review per player: a later one replaces it.
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(status="review"), name="one_region_review_per_player"
            )
        ]

    def __str__(self) -> str:
        return f"user {self.user_id} from {self.was} to {self.region}: {self.status}"
