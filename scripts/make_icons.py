"""Draw the app icons (static/icons/icon-192.png, icon-512.png): a white spade on the felt green.

Pure Python (zlib + struct), so the icons can be redrawn anywhere: ``python scripts/make_icons.py``.
The favicon is the same drawing as SVG (static/icons/favicon.svg), written by hand.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

FELT = (13, 92, 58)
WHITE = (255, 255, 255)
GOLD = (242, 183, 5)
OUT = Path(__file__).resolve().parents[1] / "static" / "icons"


def inside_spade(x: float, y: float) -> bool:
    """The spade in a unit square (0..1): a heart turned over, and a stem."""
    # Two lobes and a point: the upside-down heart.
    for cx in (0.36, 0.64):
        if (x - cx) ** 2 + (y - 0.56) ** 2 <= 0.15**2:
            return True
    if 0.2 <= y <= 0.58:
        half = (y - 0.2) / 0.38 * 0.29
        if abs(x - 0.5) <= half:
            return True
    # The stem: a small triangle.
    if 0.6 <= y <= 0.84:
        half = 0.03 + (y - 0.6) / 0.24 * 0.1
        if abs(x - 0.5) <= half:
            return True
    return False


def pixel(x: float, y: float) -> tuple[int, int, int]:
    r = ((x - 0.5) ** 2 + (y - 0.5) ** 2) ** 0.5
    if 0.455 <= r <= 0.48:
        return GOLD
    return WHITE if inside_spade(x, y) else FELT


def png(size: int) -> bytes:
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            # 2x2 supersampling for smooth edges.
            samples = [pixel((i + dx) / size, (j + dy) / size) for dx in (0.25, 0.75) for dy in (0.25, 0.75)]
            row.extend(sum(s[k] for s in samples) // 4 for k in range(3))
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


if __name__ == "__main__":
    for size in (192, 512):
        (OUT / f"icon-{size}.png").write_bytes(png(size))
