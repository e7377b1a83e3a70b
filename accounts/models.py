from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models

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

    objects: ClassVar[Users] = Users()

    class Meta:
        ordering = ["username"]

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

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A new password ends every session, API token and websocket of the user (the
        password-change page then signs its own browser in again)."""
        # AbstractBaseUser keeps a newly set password in ``_password`` until it is saved.
        new_password = getattr(self, "_password", None)
        changed = new_password is not None and self.pk is not None and not self._state.adding
        self.username = normalise(self.username)
        self.username_skeleton = skeleton(self.username)
        if kwargs.get("update_fields") is not None and "username" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "username_skeleton"}
        super().save(*args, **kwargs)
        if changed:
            from accounts.sessions import revoke_everything

            revoke_everything(self)
