from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import models, transaction


class User(AbstractUser):
    """A player or a staff member (``is_staff``). Custom from the first migration."""

    display_name = models.CharField(
        max_length=40, blank=True, help_text="The name other players see at the table."
    )
    adult_confirmed_at = models.DateTimeField(
        null=True, blank=True, help_text="When the user confirmed they are 18 or older."
    )
    is_bot = models.BooleanField(default=False, help_text="A computer player for practice tables.")

    class Meta:
        ordering = ["username"]

    def __str__(self) -> str:
        return self.username

    @property
    def public_name(self) -> str:
        """The name shown to other players."""
        return self.display_name or self.username

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A new password ends every session, API token and websocket of the user (the
        password-change page then signs its own browser in again)."""
        changed = self._password is not None and self.pk is not None and not self._state.adding
        super().save(*args, **kwargs)
        if changed:
            from accounts.sessions import revoke_everything

            transaction.on_commit(lambda: revoke_everything(self))
