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


class SignalKind(models.TextChoices):
    LOGIN = "login", "Log-in"
    JOIN = "join", "Sat at a table"
    DEPOSIT = "deposit", "Deposit"
    IDENTITY = "identity", "Identity document"


class Signal(models.Model):
    """One sighting of a player, recorded as play happens (``fairplay.signals``): where from
    (client address, first-party device id, user agent) at a log-in or a seat, what paid a
    deposit, what document an identity check showed. Instruments and documents are keyed hashes
    (``protection.fingerprint``), never the numbers. Purged after ``FAIRPLAY_SIGNAL_DAYS``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=12, choices=SignalKind.choices)
    at = models.DateTimeField()
    #: The client's address as ``ipaddress`` writes it (text: compared, never computed on).
    address = models.CharField(max_length=45, blank=True)
    device = models.CharField(max_length=64, blank=True)
    agent = models.CharField(max_length=200, blank=True)
    instrument = models.CharField(max_length=64, blank=True)
    document = models.CharField(max_length=64, blank=True)
    table_id = models.BigIntegerField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["at"], name="fairplay_signal_at"),
            models.Index(fields=["device"], name="fairplay_signal_device"),
            models.Index(fields=["address", "at"], name="fairplay_signal_address"),
            models.Index(fields=["instrument"], name="fairplay_signal_instrument"),
            models.Index(fields=["document"], name="fairplay_signal_document"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of user {self.user_id} at {self.at:%Y-%m-%d %H:%M}"


class LinkStrength(models.TextChoices):
    STRONG = "strong", "Strong"
    WEAK = "weak", "Weak"


class Link(models.Model):
    """Two accounts that share something (``low`` < ``high``), with every reason found and when.

    Strong (a device, a payment instrument or an identity document in common): the two are kept
    apart at money tables, and a self-exclusion of one closes money play to the other. Weak (only
    a client address, which thousands share behind a carrier's NAT): recorded for the detectors,
    never enough to keep anyone apart. ``reasons`` maps each reason (``device``, ``instrument``,
    ``document``, ``address``) to ``{"first_seen", "last_seen", "seen"}``."""

    low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    strength = models.CharField(max_length=8, choices=LinkStrength.choices, default=LinkStrength.WEAK)
    reasons = models.JSONField(default=dict)
    first_seen = models.DateTimeField()
    last_seen = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="fairplay_link_pair"),
            models.CheckConstraint(condition=models.Q(low__lt=models.F("high")), name="fairplay_link_order"),
        ]
        indexes = [
            models.Index(fields=["high", "strength"], name="fairplay_link_high"),
            models.Index(fields=["low", "strength"], name="fairplay_link_low"),
        ]

    def __str__(self) -> str:
        return f"{self.strength} link {self.low_id}-{self.high_id}"


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
