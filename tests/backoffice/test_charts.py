"""The charts are inline SVG drawn on the server: well-formed, escaped, honest about values."""

from __future__ import annotations

import re
from xml.etree import ElementTree

from backoffice import charts

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ElementTree.Element:
    return ElementTree.fromstring(svg)  # noqa: S314 - our own output, not untrusted data


def test_bars_draw_one_rect_per_nonzero_value_with_its_amount():
    svg = charts.bars(
        "Rake",
        ["1 Mar", "2 Mar"],
        [charts.Series("pool101", [750, 0]), charts.Series("pool61", [3000, -250])],
        money=True,
    )
    root = parse(svg)
    bars = [rect for rect in root.iter(f"{SVG}rect") if rect.find(f"{SVG}title") is not None]
    titles = [rect.find(f"{SVG}title").text for rect in bars]
    assert titles == ["1 Mar pool101: ₹7.50", "1 Mar pool61: ₹30.00", "2 Mar pool61: -₹2.50"]
    heights = [float(rect.get("height")) for rect in bars]
    assert heights[1] == max(heights)
    assert abs(heights[1] / heights[0] - 4) < 0.05, "3000 is 4x 750"
    assert root.get("role") == "img"
    assert root.get("aria-label") == "Rake"


def test_lines_draw_a_point_per_day():
    root = parse(charts.lines("Held", ["a", "b", "c"], [charts.Series("pools", [0, 5, 10])]))
    points = root.find(f"{SVG}polyline").get("points").split()
    ys = [float(point.split(",")[1]) for point in points]
    assert ys[0] > ys[1] > ys[2], "higher values are drawn higher"
    assert len(list(root.iter(f"{SVG}circle"))) == 3


def test_text_is_escaped_and_nothing_is_loaded_from_elsewhere():
    svg = charts.bars('<script>alert("x")</script>', ["<b>"], [charts.Series("a&b", [1])])
    parse(svg)
    assert "<script" not in svg
    assert "&lt;script&gt;" in svg
    assert "a&amp;b" in svg
    assert not re.search(r"href|src=|http(?!://www.w3.org/2000/svg)", svg)


def test_an_empty_range_says_so():
    svg = charts.bars("Rake", [], [])
    assert "No data in this range" in svg
    parse(svg)
