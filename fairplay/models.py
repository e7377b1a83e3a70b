"""The risk desk's cases: what a detector or a staff member found, about whom, with its evidence."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from fairplay.words import CASE_KINDS, CASE_STATUSES


class Case(models.Model):
    """One suspicion about some players, opened by a detector (``opened_by`` empty) or by hand.

    ``key`` makes a detector's case idempotent: the same finding over the same players opens one
    case, whose evidence the next run brings up to date. ``evidence`` holds the figures, each with
    its baseline, and the deals it rests on (finished deals only)."""

    kind = models.CharField(max_length=24, choices=list(CASE_KINDS.items()))
    status = models.CharField(max_length=12, choices=list(CASE_STATUSES.items()), default="open")
    key = models.CharField(max_length=160, unique=True, null=True, blank=True)
    subjects = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="fairplay_cases")
    score = models.FloatField(default=0.0, help_text="The strongest figure, as times its baseline.")
    evidence = models.JSONField(default=dict, blank=True)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    opened_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["status", "-updated_at"])]
        # The risk desk's permissions (backoffice.roles gives them to the risk role).
        permissions = [
            ("act_on_case", "Can open a case, and dismiss, warn, freeze, close or propose a refund on one"),
            ("confirm_refund", "Can confirm another staff member's refund of a case's victims"),
        ]

    def __str__(self) -> str:
        return f"case {self.pk}: {self.get_kind_display()}"


class CaseWarning(models.Model):
    """A warning the risk desk gave a player on a case: shown on every page of the site until
    the player says they have read it (``fairplay.warnings``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="warnings")
    message = models.TextField(help_text="What the player reads.")
    given_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    given_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["given_at", "id"]
        indexes = [models.Index(fields=["user", "read_at"])]

    def __str__(self) -> str:
        return f"warning to user {self.user_id} on case {self.case_id}"
