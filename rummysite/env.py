"""Read settings from the environment, failing loudly on values that make no sense."""

from __future__ import annotations

import os
import re
from email.utils import parseaddr

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean: use 1/0, true/false, yes/no or on/off")


def env_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} must be at least {minimum}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} must be at most {maximum}")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


_ADDRESS = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$")


def env_email(name: str, default: str) -> str:
    """A sender's address, ``noreply@example.com`` or ``Rummy <noreply@example.com>``."""
    value = os.environ.get(name)
    if value is None:
        return default
    _, address = parseaddr(value)
    if "\n" in value or "\r" in value or not _ADDRESS.match(address):
        raise ImproperlyConfigured(
            f"{name}={value!r} is not an e-mail address: "
            "use noreply@example.com or Rummy <noreply@example.com>"
        )
    return value.strip()


def env_url(name: str, schemes: tuple[str, ...]) -> str | None:
    """A URL setting, or None when unset or empty; refuses a URL of the wrong kind."""
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    scheme = value.split("://", 1)[0] if "://" in value else ""
    if scheme not in schemes:
        raise ImproperlyConfigured(f"{name} must start with one of {', '.join(s + '://' for s in schemes)}")
    return value
