"""Charts drawn on the server as inline SVG: no JavaScript, nothing loaded from elsewhere.

``bars`` draws stacked bars (one bar per label, one segment per series), ``lines`` one line
per series. Every text is escaped; each bar and point carries a ``<title>`` for its value.
Values are plain numbers; ``money=True`` formats them as rupees from paise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from wallet.money import money as format_money
from wallet.money import rupees

PALETTE = ("#0d5c3a", "#f2b705", "#c0282d", "#2b6cb0", "#6b46c1", "#718096", "#dd6b20", "#38a169")
WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 70, 10, 10, 50


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[int | float]


def amount(value: float, money: bool | str) -> str:
    """A chart or report value: ``money`` True (rupees) or a currency ("INR", "CHIPS": chips
    are never shown as ₹), or False for a plain number."""
    if isinstance(money, str) and money:
        return format_money(int(value), money)
    if not money:
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}"
    return rupees(int(value))


def _frame(title: str, low: float, high: float, money: bool | str, labels: Sequence[str]) -> list[str]:
    plot_h = HEIGHT - TOP - BOTTOM
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="#999"/>',
    ]
    for fraction in (0, 0.5, 1):
        value = low + (high - low) * fraction
        y = TOP + plot_h - plot_h * fraction
        parts.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#e2e2e2"/>'
            f'<text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end" font-size="11">'
            f"{escape(amount(value, money))}</text>"
        )
    return parts


def _labels(labels: Sequence[str], x_of: list[float]) -> list[str]:
    step = max(1, len(labels) // 12)  # at most about 12 labels on the axis
    return [
        f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 14}" text-anchor="middle" font-size="11">'
        f"{escape(label)}</text>"
        for index, (label, x) in enumerate(zip(labels, x_of, strict=True))
        if index % step == 0
    ]


def _legend(series: Sequence[Series]) -> list[str]:
    parts = []
    x = LEFT
    for index, one in enumerate(series):
        colour = PALETTE[index % len(PALETTE)]
        parts.append(
            f'<rect x="{x}" y="{HEIGHT - 18}" width="10" height="10" fill="{colour}"/>'
            f'<text x="{x + 14}" y="{HEIGHT - 9}" font-size="11">{escape(one.name)}</text>'
        )
        x += 24 + 7 * len(one.name)
    return parts


def _empty(title: str) -> SafeString:
    return mark_safe(  # noqa: S308 - every text in it is escaped
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} 60" role="img" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>'
        f'<text x="{WIDTH / 2}" y="35" text-anchor="middle" font-size="13">No data in this range</text></svg>'
    )


def bars(
    title: str, labels: Sequence[str], series: Sequence[Series], *, money: bool | str = False
) -> SafeString:
    """Stacked bars: positive segments stack up from zero, negative ones down."""
    if not labels or not series:
        return _empty(title)
    ups = [sum(max(0, s.values[i]) for s in series) for i in range(len(labels))]
    downs = [sum(min(0, s.values[i]) for s in series) for i in range(len(labels))]
    high, low = max([*ups, 0]), min([*downs, 0])
    if high == low:
        high = 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / len(labels)
    bar_w = max(1.0, slot * 0.7)

    def y_of(value: float) -> float:
        return TOP + plot_h - (value - low) / (high - low) * plot_h

    parts = _frame(title, low, high, money, labels)
    x_of = [LEFT + slot * i + slot / 2 for i in range(len(labels))]
    for i, label in enumerate(labels):
        up, down = 0.0, 0.0
        for index, one in enumerate(series):
            value = one.values[i]
            if not value:
                continue
            start = up if value > 0 else down
            end = start + value
            if value > 0:
                up = end
            else:
                down = end
            top, bottom = y_of(max(start, end)), y_of(min(start, end))
            parts.append(
                f'<rect x="{x_of[i] - bar_w / 2:.1f}" y="{top:.1f}" width="{bar_w:.1f}" '
                f'height="{max(0.5, bottom - top):.1f}" fill="{PALETTE[index % len(PALETTE)]}">'
                f"<title>{escape(label)} {escape(one.name)}: {escape(amount(value, money))}</title></rect>"
            )
    parts.append(
        f'<line x1="{LEFT}" y1="{y_of(0):.1f}" x2="{WIDTH - RIGHT}" y2="{y_of(0):.1f}" stroke="#666"/>'
    )
    parts += _labels(labels, x_of)
    parts += _legend(series)
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text in it is escaped


def lines(
    title: str, labels: Sequence[str], series: Sequence[Series], *, money: bool | str = False
) -> SafeString:
    """One polyline per series over the labels (days), with a dot and a title per point."""
    if not labels or not series:
        return _empty(title)
    values = [v for s in series for v in s.values]
    high, low = max([*values, 0]), min([*values, 0])
    if high == low:
        high = low + 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / len(labels)
    x_of = [LEFT + slot * i + slot / 2 for i in range(len(labels))]

    def y_of(value: float) -> float:
        return TOP + plot_h - (value - low) / (high - low) * plot_h

    parts = _frame(title, low, high, money, labels)
    for index, one in enumerate(series):
        colour = PALETTE[index % len(PALETTE)]
        points = " ".join(f"{x:.1f},{y_of(v):.1f}" for x, v in zip(x_of, one.values, strict=True))
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for label, x, value in zip(labels, x_of, one.values, strict=True):
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y_of(value):.1f}" r="3" fill="{colour}">'
                f"<title>{escape(label)} {escape(one.name)}: {escape(amount(value, money))}</title></circle>"
            )
    parts += _labels(labels, x_of)
    parts += _legend(series)
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text in it is escaped
