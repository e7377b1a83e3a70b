"""The audit log: one row per staff action, append-only (database triggers refuse UPDATE and
DELETE); and the staff actions that wait for a second staff member (four eyes)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

# The four-eyes base lives below the apps that use it; re-exported for the back office's kinds.
from games.four_eyes import WAITING as WAITING
from games.four_eyes import Closed as Closed
from games.four_eyes import SecondStaffRequest as SecondStaffRequest


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
    REQUEST_REVERSAL = "request_reversal", "Asked for the reversal of a journal (first of two)"
    APPROVE_MOVE = "approve_move", "Approved a player's change of region"
    REFUSE_MOVE = "refuse_move", "Refused a player's change of region"
    OPEN_CASE = "open_case", "Opened a fair-play case"
    DISMISS_CASE = "dismiss_case", "Dismissed a fair-play case"
    WARN_PLAYER = "warn_player", "Warned a player (fair play)"
    FREEZE_MONEY = "freeze_money", "Froze a player's money play and withdrawals"
    LIFT_FREEZE = "lift_freeze", "Lifted a freeze on a player's money"
    CLOSE_ACCOUNT = "close_account", "Closed a player's account (fair play)"
    PROPOSE_REFUND = "propose_refund", "Proposed a refund of a case's victims (first of two)"
    CONFIRM_REFUND = "confirm_refund", "Refunded a case's victims (second of two)"
    CREATE_TOURNAMENT = "create_tournament", "Created a tournament"
    REQUEST_TOURNAMENT_END = "request_tournament_end", "Asked to cancel or void a tournament (first of two)"
    END_TOURNAMENT = "end_tournament", "Cancelled or voided a tournament (second of two)"
    WITHDRAW_VOID = "withdraw_void", "Withdrew their own request for a void"
    DECLINE_VOID = "decline_void", "Declined another member's request for a void"
    WITHDRAW_REVERSAL = "withdraw_reversal", "Withdrew their own request for a reversal"
    DECLINE_REVERSAL = "decline_reversal", "Declined another member's request for a reversal"
    WITHDRAW_REFUND = "withdraw_refund", "Withdrew their own proposed refund"
    DECLINE_REFUND = "decline_refund", "Declined another member's proposed refund"
    WITHDRAW_TOURNAMENT_END = (
        "withdraw_tournament_end",
        "Withdrew their own request to cancel or void a tournament",
    )
    DECLINE_TOURNAMENT_END = (
        "decline_tournament_end",
        "Declined another member's request to cancel or void a tournament",
    )


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


class VoidRequest(SecondStaffRequest):
    """R-MONEY-7, four eyes: one staff member asks for a running game's void, with a reason;
    another confirms it, and only then is the game voided (``backoffice.actions``)."""

    table = models.ForeignKey("games.Table", on_delete=models.PROTECT, related_name="+")
    reason = models.TextField(help_text="Why the game cannot go on, as the players will read it.")

    what, of = "void", "game"
    ask_permission = confirm_permission = "backoffice.void_game"
    withdraw_action, decline_action = AuditAction.WITHDRAW_VOID, AuditAction.DECLINE_VOID

    class Meta:
        ordering = ["requested_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=WAITING,
                name="one_open_void_per_table",
            )
        ]

    def __str__(self) -> str:
        state = self.state_words("voided")
        return f"void of table {self.table_id}: {state}"

    @property
    def target(self) -> str:
        return f"table:{self.table_id}"


class ReversalRequest(SecondStaffRequest):
    """The reversal of a journal that moves more than the cashier's four-eyes line
    (``WALLET_SECOND_APPROVAL_OVER``), asked for by one staff member and posted only when
    another confirms it (``backoffice.actions.reverse_journal`` / ``confirm_reversal``)."""

    journal = models.ForeignKey("wallet.Journal", on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text="The player whose statement it was asked from (named in the audit log).",
    )
    reason = models.TextField(help_text="Why, as the reversing journal will keep it.")

    what, of = "reversal", "journal"
    ask_permission = confirm_permission = "backoffice.reverse_journal"
    withdraw_action, decline_action = AuditAction.WITHDRAW_REVERSAL, AuditAction.DECLINE_REVERSAL

    class Meta:
        ordering = ["requested_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["journal"],
                condition=WAITING,
                name="one_open_reversal_per_journal",
            )
        ]

    def __str__(self) -> str:
        state = self.state_words("reversed")
        return f"reversal of journal {self.journal_id}: {state}"

    @property
    def target(self) -> str:
        return f"journal:{self.journal_id}"


class RefundRequest(SecondStaffRequest):
    """The refund of a fair-play case's victims from its colluders' balances, proposed by one
    risk staff member (``moves``: colluder, victim and paise each) and posted through the wallet
    only when a different member confirms it (``backoffice.risk``). The journal's idempotency
    key is derived from the request: ``fairplay_refund:<id>``."""

    case = models.ForeignKey("fairplay.Case", on_delete=models.PROTECT, related_name="+")
    moves = models.JSONField(help_text="[[colluder id, victim id, paise], ...]")
    journal = models.ForeignKey(
        "wallet.Journal", on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    reason = models.TextField(help_text="Why, as the refund's journal keeps it.")

    what, of = "refund", "case"
    ask_permission, confirm_permission = "fairplay.act_on_case", "fairplay.confirm_refund"
    withdraw_action, decline_action = AuditAction.WITHDRAW_REFUND, AuditAction.DECLINE_REFUND

    class Meta:
        ordering = ["requested_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["case"],
                condition=WAITING,
                name="one_open_refund_per_case",
            )
        ]

    def __str__(self) -> str:
        state = self.state_words("posted")
        return f"refund on case {self.case_id}: {state}"

    @property
    def target(self) -> str:
        return f"case:{self.case_id}"

    @property
    def key(self) -> str:
        """The refund journal's idempotency key: one journal per request, whoever confirms it."""
        return f"fairplay_refund:{self.pk}"

    @property
    def total(self) -> int:
        return sum(int(amount) for _, _, amount in self.moves)
