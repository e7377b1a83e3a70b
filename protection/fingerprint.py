"""Keyed hashes of what identifies a person: a document's number, a payment instrument.

HMAC-SHA256 with a server secret (``FAIRPLAY_HASH_KEY``; when it is not set, a key derived from
``SECRET_KEY``), so two accounts with the same document or card can be told apart from two with
different ones, while the stored hash reveals neither the number nor, without the key, whether a
number someone guesses is among them. The kind is part of what is hashed: a PAN and a UPI id that
happen to spell the same never match.
"""

from __future__ import annotations

import hashlib
import hmac
import re

from django.conf import settings

_SPACING = re.compile(r"[\s-]")


def _key() -> bytes:
    key = str(getattr(settings, "FAIRPLAY_HASH_KEY", "") or "")
    if key:
        return key.encode()
    return hashlib.sha256(b"fairplay-hash-key:" + str(settings.SECRET_KEY).encode()).digest()


def keyed_hash(kind: str, value: str) -> str:
    """The hex HMAC of ``value`` (spaces and dashes dropped, upper case) as a ``kind``."""
    normal = _SPACING.sub("", str(value)).upper()
    return hmac.new(_key(), f"{kind}:{normal}".encode(), hashlib.sha256).hexdigest()


def document_hash(document_type: str, number: str) -> str:
    """A document's number as a keyed hash: one per document, whatever account submits it."""
    return keyed_hash(f"document:{document_type}", number)


def instrument_hash(instrument: str) -> str:
    """A payment instrument (a UPI id, a card's fingerprint from the provider) as a keyed hash."""
    return keyed_hash("instrument", instrument)
