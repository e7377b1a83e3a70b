"""The shuffle and its commitment (R-DEAL-1, R-DEAL-5).

The server draws a secret seed with :func:`new_seed` (32 bytes from :mod:`secrets`), publishes
:func:`commitment` of it before the deal, deals from :func:`shuffled` and reveals the seed
after the deal. Anyone can then check ``verify(commitment, seed)`` and re-derive the order.

The order is a pure function of the seed. To re-implement it (any language):

1. **Byte stream.** Block ``k`` (k = 0, 1, 2, ...) is ``SHA-256(seed || k)``, where ``k`` is
   written as 8 bytes, unsigned big-endian. The stream is block 0, then block 1, and so on,
   each block's 32 bytes in order.
2. **Draws.** A draw takes the next 4 bytes of the stream as an unsigned big-endian 32-bit
   integer ``r``. Draws never straddle blocks (32 is a multiple of 4).
3. **Uniform index below n** (rejection sampling, so no modulo bias): let
   ``limit = 2**32 - (2**32 mod n)``; draw ``r``; if ``r >= limit`` discard it and draw again;
   otherwise the index is ``r mod n``.
4. **Fisher-Yates** (Durstenfeld): put the input cards in a list ``a`` of length ``N`` (the
   given order, e.g. :func:`games.engine.cards.shoe`: spades A..K, hearts, diamonds, clubs,
   then the printed joker, repeated per pack). For ``i`` from ``N - 1`` down to ``1``: take a
   uniform index ``j`` below ``i + 1`` and swap ``a[i]`` and ``a[j]``. The result is ``a``;
   ``a[0]`` is the top of the deck, dealt first.

The commitment is the lowercase hex SHA-256 of the seed alone. Publishing it does not reveal
the stream: the stream blocks hash ``seed || k``, which SHA-256 length extension cannot reach
from ``SHA-256(seed)`` (extension appends the padding first).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from typing import TypeVar

SEED_BYTES = 32
"""Length of a seed from :func:`new_seed`."""
MIN_SEED_BYTES = 16
"""Shorter seeds are refused: they could be guessed from the commitment."""

_T = TypeVar("_T")
_DRAW_RANGE = 1 << 32


class SeedError(ValueError):
    """A seed that cannot be used: too short, not bytes, or not valid hex."""


def new_seed() -> bytes:
    """A fresh secret seed of 32 bytes from the operating system's CSPRNG (R-DEAL-1)."""
    return secrets.token_bytes(SEED_BYTES)


def _check_seed(seed: bytes) -> bytes:
    if not isinstance(seed, bytes | bytearray):
        raise SeedError(f"a seed must be bytes, not {type(seed).__name__}")
    if len(seed) < MIN_SEED_BYTES:
        raise SeedError(f"a seed must have at least {MIN_SEED_BYTES} bytes, not {len(seed)}")
    return bytes(seed)


def commitment(seed: bytes) -> str:
    """The public commitment to ``seed``: lowercase hex SHA-256 of it (R-DEAL-5)."""
    return hashlib.sha256(_check_seed(seed)).hexdigest()


def verify(commitment_hex: str, seed: bytes) -> bool:
    """True if ``seed`` is the one committed to (constant-time compare, case-insensitive hex)."""
    expected = commitment(seed).encode("ascii")
    given = commitment_hex.strip().lower().encode("utf-8", errors="replace")
    return hmac.compare_digest(expected, given)


def seed_hex(seed: bytes) -> str:
    """The seed as lowercase hex, the form in which it is revealed."""
    return _check_seed(seed).hex()


def seed_from_hex(text: str) -> bytes:
    """The seed written by :func:`seed_hex`; a :class:`SeedError` if ``text`` is not such a seed."""
    try:
        seed = bytes.fromhex(text)
    except (ValueError, TypeError):
        raise SeedError(f"not a hex seed: {text!r}") from None
    return _check_seed(seed)


def _stream(seed: bytes) -> Iterator[int]:
    """Unsigned 32-bit draws from the counter-mode SHA-256 stream of ``seed`` (steps 1-2)."""
    counter = 0
    while True:
        block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        for offset in range(0, len(block), 4):
            yield int.from_bytes(block[offset : offset + 4], "big")
        counter += 1


def _index_below(draws: Iterator[int], n: int) -> int:
    """A uniform index in ``range(n)`` by rejection sampling (step 3)."""
    limit = _DRAW_RANGE - _DRAW_RANGE % n
    while True:
        r = next(draws)
        if r < limit:
            return r % n


def shuffled(cards: Sequence[_T], seed: bytes) -> tuple[_T, ...]:
    """The order of ``cards`` after the seeded Fisher-Yates shuffle described above.

    A pure function of ``cards`` and ``seed``: the same inputs always give the same order.
    """
    deck = list(cards)
    draws = _stream(_check_seed(seed))
    for i in range(len(deck) - 1, 0, -1):
        j = _index_below(draws, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)
