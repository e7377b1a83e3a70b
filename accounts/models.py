from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models

from accounts import addresses
from accounts.usernames import normalise, skeleton


class Users(UserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        """Log-in finds "Alice" and "ＡＬＩＣＥ" as "alice": names are stored normalised."""
        return super().get_by_natural_key(normalise(username or ""))


class User(AbstractUser):
    """A player or a staff member (``is_staff``). Custom from the first migration."""

    display_name = models.CharField(
        max_length=40,
        blank=True,
        # Tables show the username: it is unique and checked against look-alikes
        # (accounts.usernames); a display name is neither.
        help_text="The name we greet you by. At the tables other players see your username.",
    )
    adult_confirmed_at = models.DateTimeField(
        null=True, blank=True, help_text="When the user confirmed they are 18 or older."
    )
    is_bot = models.BooleanField(default=False, help_text="A computer player for practice tables.")
    date_of_birth = models.DateField(null=True, blank=True, help_text="Given at sign-up; 18 or older.")
    region = models.CharField(
        max_length=6,
        default="ZZ",
        help_text='Where the player lives, ISO 3166-2 ("IN-KA"); "ZZ": not declared yet.',
    )
    username_skeleton = models.CharField(
        max_length=150,
        blank=True,
        db_index=True,
        help_text="The name's look-alike form (accounts.usernames).",
    )
    email_verified_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the player confirmed their e-mail address (the link mailed to it); "
        "empty: not confirmed. Cleared when the address changes.",
    )

    objects: ClassVar[Users] = Users()

    class Meta:
        ordering = ["username"]
        constraints = [
            # One account per confirmed address (accounts.addresses): two players confirming
            # the same address at once cannot both succeed.
            models.UniqueConstraint(
                fields=["email"],
                condition=models.Q(email_verified_at__isnull=False),
                name="one_account_per_confirmed_email",
            )
        ]

    def __str__(self) -> str:
        return self.username

    @classmethod
    def normalize_username(cls, username: str) -> str:
        return normalise(username)

    def clean(self) -> None:
        super().clean()
        self.username = normalise(self.username)

    @property
    def public_name(self) -> str:
        """The name shown to other players."""
        return self.display_name or self.username

    @property
    def email_confirmed(self) -> bool:
        return bool(self.email) and self.email_verified_at is not None

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A new password ends every session, API token and websocket of the user (the
        password-change page then signs its own browser in again). A new e-mail address is
        not confirmed, whoever changes it."""
        # AbstractBaseUser keeps a newly set password in ``_password`` until it is saved.
        new_password = getattr(self, "_password", None)
        changed = new_password is not None and self.pk is not None and not self._state.adding
        fields = kwargs.get("update_fields")
        self.username = normalise(self.username)
        self.username_skeleton = skeleton(self.username)
        if fields is not None and "username" in fields:
            kwargs["update_fields"] = fields = {*fields, "username_skeleton"}
        self.email = addresses.normalise(self.email)
        if (
            self.email_verified_at is not None
            and (fields is None or "email" in fields)
            and (not self.email or (not self._state.adding and self._stored_email() != self.email))
        ):
            self.email_verified_at = None
            if fields is not None:
                kwargs["update_fields"] = {*fields, "email_verified_at"}
        super().save(*args, **kwargs)
        if changed:
            from accounts.sessions import revoke_everything

            revoke_everything(self)

    def _stored_email(self) -> str | None:
        return type(self).objects.filter(pk=self.pk).values_list("email", flat=True).first()


class MailRequest(models.Model):
    """One mail asked for (a password reset, an address confirmation): what the throttles
    count (``accounts.throttle``), whether or not the address has an account. Keeps a digest of
    the address, never the address; rows older than the throttles' window are deleted."""

    kind = models.CharField(max_length=16, help_text='"reset" or "confirm".')
    address_digest = models.CharField(max_length=64, help_text="HMAC-SHA256 of the normalised address.")
    client = models.CharField(max_length=64, help_text="The client's address (accounts.client_ip).")
    at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["kind", "address_digest", "at"]),
            models.Index(fields=["kind", "client", "at"]),
        ]

    def __str__(self) -> str:
        return f"{self.kind} mail asked at {self.at:%Y-%m-%d %H:%M} from {self.client}"
