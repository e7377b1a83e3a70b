"""Four eyes, the one mechanism for every staff action that waits for a second member: one
member asks with a reason; a different one confirms (:meth:`SecondStaffRequest.take`), and the
action is done in the same transaction; or, before that, the asker withdraws it or a different
member declines it (:meth:`SecondStaffRequest.close`), each with a reason. A request waits while
it is neither confirmed nor closed (:data:`WAITING`), and only one waits per target (each kind's
partial unique constraint ``one_open_*``, ``condition=WAITING``).

Here, below the apps that use it (the back office's voids, reversals and refunds; the
tournaments' cancel or void), so that each may import it. Each kind names itself (``what``,
``of``), the permissions to ask and to confirm, and the audit actions of its withdrawal and its
decline (values of ``backoffice.models.AuditAction``); the audit rows are written by the caller,
in the same transaction.
"""

from __future__ import annotations

from typing import Any, Self

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.errors import GameError
from wallet.errors import Code, WalletError


class Closed(models.TextChoices):
    """How a request closed without its action: its asker withdrew it, or a second member
    declined it."""

    WITHDRAWN = "withdrawn", "Withdrawn"
    DECLINED = "declined", "Declined"


#: A request that waits for its second member: neither confirmed nor closed.
WAITING = Q(confirmed_at__isnull=True, closed_at__isnull=True)


class SecondStaffRequest(models.Model):
    """Four eyes: one staff member asks for an action with a reason; nothing is done until a
    different member confirms it (:meth:`take`), and then it is done in the same transaction
    (``backoffice.actions``). Until then the asker may withdraw it, or a different member
    may decline it (:meth:`close`), each with a reason: the request then no longer waits,
    nothing is done, and a new one for the same target may be asked. Each kind of request
    names what it acts on."""

    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(auto_now_add=True)
    reason = models.TextField(help_text="Why, in the words of the staff member who asked.")
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(
        max_length=10, choices=Closed.choices, blank=True, help_text="Withdrawn by its asker, or declined."
    )
    close_reason = models.TextField(blank=True, help_text="Why it was withdrawn or declined.")

    class Meta:
        abstract = True

    #: What is asked for, in words ("void", "reversal").
    what = ""
    #: What it acts on, in words ("game", "journal").
    of = ""
    #: The permission to ask for it (and so to withdraw one's own), and to confirm or decline it.
    ask_permission = ""
    confirm_permission = ""
    #: The audit actions of its withdrawal and its decline (``backoffice.models.AuditAction`` values).
    withdraw_action = ""
    decline_action = ""

    @property
    def target(self) -> str:
        """What the request acts on, as its audit rows name it ("table:7")."""
        raise NotImplementedError

    @classmethod
    def waiting(cls) -> models.QuerySet[Self]:
        """The requests that wait for their second member (neither confirmed nor closed)."""
        return cls._default_manager.filter(WAITING)

    @property
    def state(self) -> str:
        """Where it is: "waiting", "confirmed", "withdrawn" or "declined"."""
        if self.confirmed_at is not None:
            return "confirmed"
        if self.closed_at is not None:
            return str(self.outcome)
        return "waiting"

    @classmethod
    def ask(cls, by_user: Any, reason: str, **target: Any) -> Self:
        """The first pair of eyes: a request for ``target`` (one waiting at a time)."""
        cls.none_waiting(**target)
        return cls._default_manager.create(requested_by=by_user, reason=reason, **target)

    @classmethod
    def none_waiting(cls, **target: Any) -> None:
        """Refuse while a request for ``target`` waits for its second member."""
        if cls.waiting().filter(**target).exists():
            raise GameError(
                "already_requested", f"A {cls.what} of this {cls.of} is already waiting for confirmation."
            )

    @classmethod
    def _open(cls, request_id: int) -> Self:
        """The request, locked; refused (``already_decided``) once confirmed or closed."""
        request = cls._default_manager.select_for_update().get(pk=request_id)
        if request.confirmed_at is not None:
            raise GameError("already_decided", f"This {cls.what} was already confirmed.")
        if request.closed_at is not None:
            closed = request.get_outcome_display().lower()
            raise GameError("already_decided", f"This {cls.what} was already {closed}: ask again if needed.")
        return request

    @classmethod
    def take(cls, request_id: int, by_user: Any) -> Self:
        """The second pair of eyes: lock the request and mark it confirmed by ``by_user``, who
        must not be the member who asked; the caller does the action in the same transaction."""
        request = cls._open(request_id)
        if request.requested_by_id == by_user.pk:
            raise WalletError(
                Code.NOT_STAFF, f"A {cls.what} needs a second staff member: you asked for this one."
            )
        request.confirmed_by, request.confirmed_at = by_user, timezone.now()
        request.save(update_fields=["confirmed_by", "confirmed_at"])
        return request

    @classmethod
    def close(cls, request_id: int, by_user: Any, how: Closed, reason: str) -> Self:
        """Close a waiting request without its action: withdrawn by the member who asked, or
        declined by a different one (the caller checks the permission and writes the audit row
        in the same transaction)."""
        request = cls._open(request_id)
        own = request.requested_by_id == by_user.pk
        if how == Closed.WITHDRAWN and not own:
            raise WalletError(
                Code.NOT_STAFF,
                f"Only the member who asked for this {cls.what} may withdraw it: decline it instead.",
            )
        if how == Closed.DECLINED and own:
            raise WalletError(
                Code.NOT_STAFF,
                f"You asked for this {cls.what}: withdraw it instead; a second member declines.",
            )
        request.closed_by, request.closed_at = by_user, timezone.now()
        request.outcome, request.close_reason = how, reason
        request.save(update_fields=["closed_by", "closed_at", "outcome", "close_reason"])
        return request

    def state_words(self, done: str) -> str:
        """The request's state in words, ``done`` once confirmed ("voided", "posted")."""
        if self.confirmed_at is not None:
            return done
        if self.closed_at is not None:
            return f"{self.get_outcome_display().lower()} ({self.close_reason})"
        return "waiting for a second staff member"
