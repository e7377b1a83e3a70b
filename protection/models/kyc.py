"""Identity checks (KYC): a status per player, and only what must be kept of the document."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class KycStatus(models.TextChoices):
    UNVERIFIED = "unverified", "Not verified"
    PENDING = "pending", "Waiting for review"
    VERIFIED = "verified", "Verified"
    REJECTED = "rejected", "Rejected"


class DocumentType(models.TextChoices):
    PAN = "pan", "PAN card"
    AADHAAR = "aadhaar", "Aadhaar"
    PASSPORT = "passport", "Passport"
    DRIVING_LICENCE = "driving_licence", "Driving licence"
    VOTER_ID = "voter_id", "Voter ID"


class Verification(models.Model):
    """A player's identity check (R-PROT-7). Keeps the document's type, its last four
    characters, a keyed hash of its number (``protection.fingerprint``: one document, one
    verified account) and the provider's reference: never the whole number, never an image."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=12, choices=KycStatus.choices, default=KycStatus.UNVERIFIED)
    document_type = models.CharField(max_length=16, choices=DocumentType.choices, blank=True)
    last_four = models.CharField(max_length=4, blank=True)
    document_hash = models.CharField(max_length=64, blank=True, db_index=True)
    #: The provider said yes, but the same document is verified on another account: staff decide.
    held_for_review = models.BooleanField(default=False)
    provider = models.CharField(max_length=40, blank=True)
    provider_ref = models.CharField(max_length=120, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    reason = models.TextField(blank=True, help_text="Why it was rejected, as the player reads it.")

    class Meta:
        ordering = ["submitted_at", "id"]
        indexes = [models.Index(fields=["status", "submitted_at"])]

    def __str__(self) -> str:
        return f"identity of user {self.user_id}: {self.status}"
