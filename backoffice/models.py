"""The audit log: one row per staff action, append-only (database triggers refuse UPDATE and DELETE)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class AuditAction(models.TextChoices):
    REVERSE_JOURNAL = "reverse_journal", "Reversed a journal"
    APPROVE_WITHDRAWAL = "approve_withdrawal", "Approved a withdrawal"
    REJECT_WITHDRAWAL = "reject_withdrawal", "Rejected a withdrawal"
    CANCEL_TABLE = "cancel_table", "Cancelled and refunded a table"
    FIRST_APPROVAL = "first_approval", "Approved a withdrawal (first of two)"
    CORRECT_WITHDRAWAL = "correct_withdrawal", "Corrected a paid withdrawal"
    BAN_USER = "ban_user", "Banned a player"
    UNBAN_USER = "unban_user", "Lifted a ban"
    TOTP_SETUP = "totp_setup", "Set up two-factor sign-in"
    ADMIN_ADD = "admin_add", "Added a record in the admin"
    ADMIN_CHANGE = "admin_change", "Changed a record in the admin"
    ADMIN_DELETE = "admin_delete", "Deleted a record in the admin"
    REQUEST_VOID = "request_void", "Asked for the void of a game (first of two)"
    VOID_GAME = "void_game", "Voided a game (second of two)"
    VERIFY_IDENTITY = "verify_identity", "Verified a player's identity"
    REJECT_IDENTITY = "reject_identity", "Rejected a player's identity check"
    APPROVE_MOVE = "approve_move", "Approved a player's change of region"
    REFUSE_MOVE = "refuse_move", "Refused a player's change of region"


class AuditLog(models.Model):
    """Who did what, when and why. Written in the transaction of the action itself."""

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=24, choices=AuditAction.choices)
    target = models.CharField(max_length=120, help_text='What was acted on, e.g. "journal:42", "table:7".')
    reason = models.TextField(help_text="Why, in the staff member's words.")
    details = models.JSONField(default=dict, blank=True, help_text="What changed: journal keys, amounts.")

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["target"])]
        # The staff actions' permissions (backoffice.roles.ACTIONS), granted through groups.
        permissions = [
            ("decide_withdrawal", "Can approve or reject withdrawals"),
            ("reverse_journal", "Can reverse a journal"),
            ("cancel_table", "Can cancel and refund a table that has not started"),
            ("ban_user", "Can ban and unban players"),
            ("view_reports", "Can read the reports"),
            ("void_game", "Can ask for, or confirm, the void of a running game (R-MONEY-7)"),
            ("review_identity", "Can verify or reject a player's identity check (R-PROT-7)"),
            ("view_protection", "Can see players' limits, breaks, self-exclusions and identity checks"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor} {self.action} {self.target}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise ValueError("the audit log is append-only: an entry cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("the audit log is append-only: an entry cannot be deleted")


class VoidRequest(models.Model):
    """R-MONEY-7, four eyes: one staff member asks for a running game's void, with a reason;
    another confirms it, and only then is the game voided (``backoffice.actions``)."""

    table = models.ForeignKey("games.Table", on_delete=models.PROTECT, related_name="+")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(auto_now_add=True)
    reason = models.TextField(help_text="Why the game cannot go on, as the players will read it.")
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["requested_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(confirmed_at__isnull=True),
                name="one_open_void_per_table",
            )
        ]

    def __str__(self) -> str:
        state = "voided" if self.confirmed_at else "waiting for a second staff member"
        return f"void of table {self.table_id}: {state}"
