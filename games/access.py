"""Who may see and join a table: public tables are open to every logged-in player; a private
table only to those who hold its invitation (the link or the code) and to anyone who has sat
at it. The same check guards the web pages, the API and the websocket."""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from games.errors import GameError
from games.models import Seat, Table

#: Letters and digits that cannot be mistaken for one another when read out or typed.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


def new_invite_code() -> str:
    """A fresh invitation code: 8 characters, about 40 bits, from the CSPRNG."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(code: object) -> str:
    """The code as typed, tidied (case and spaces do not matter); '' for anything else."""
    if not isinstance(code, str) or len(code) > 40:
        return ""
    return code.strip().upper().replace(" ", "").replace("-", "")


def holds_code(table: Table, code: object) -> bool:
    given = normal_code(code)
    return bool(table.invite_code) and bool(given) and hmac.compare_digest(given, table.invite_code)


def may_see(table: Table, user: Any, code: object = None) -> bool:
    """True if ``user`` may see (and so join) ``table``."""
    if not table.private:
        return True
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return holds_code(table, code) or Seat.objects.filter(table=table, user_id=user.pk).exists()


def check(table: Table, user: Any, code: object = None) -> None:
    """:class:`GameError` ``private_table`` unless ``user`` may see ``table``."""
    if not may_see(table, user, code):
        raise GameError("private_table", "this table is private: you need its invitation link or code")
