"""The marks a player must see stand out at 3:1 or more (WCAG's non-text contrast) on every
background a cell can have, computed from the page's own CSS custom properties and colour
ramps (no browser)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "mineshafted" / "web" / "static"

MARKS = {
    "hint": "--hint-ring",
    "why-cell": "--why-ring",
    "best": "--best-ring",
    "why-clue": "--clue-ring",
    "why-named": "--why-ring",
    "now": "--now-ring",
    "focus": "--focus",
}
"""Each two-tone mark: its ring's property (the halo is ``--halo``)."""

BACKGROUNDS = ("--hidden", "--open", "--pending", "--mine-bg", "--hit", "--wrong", "--clue-bg")
"""The fills a cell can have besides a heat map's."""


def _properties() -> dict[str, str]:
    css = (STATIC / "app.css").read_text()
    root = re.search(r":root\s*\{(.*?)\}", css, re.S)
    assert root is not None
    found = dict(re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{3,6})\b", root.group(1)))
    return {k: "#" + "".join(c * 2 for c in v[1:]) if len(v) == 4 else v for k, v in found.items()}


def _ramps() -> dict[str, list[tuple[int, int, int]]]:
    script = (STATIC / "shared.js").read_text()
    found = {}
    for name, body in re.findall(r"(\w+): \[(\[\d+, \d+, \d+\](?:, \[\d+, \d+, \d+\])*)\]", script):
        found[name] = [
            tuple(map(int, stop)) for stop in re.findall(r"\[(\d+), (\d+), (\d+)\]", body)
        ]
    return found


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return (int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16))


def _luminance(rgb: tuple[int, ...]) -> float:
    def linear(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """WCAG's contrast ratio of two colours."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _heat_backgrounds() -> list[tuple[int, int, int]]:
    """Every colour a heat map paints: each ramp sampled at every whole percent, as the page
    interpolates it."""
    colours = []
    for stops in _ramps().values():
        for k in range(101):
            x = k / 100 * (len(stops) - 1)
            i = min(len(stops) - 2, int(x))
            f = x - i
            a, b = stops[i], stops[i + 1]
            colours.append(tuple(round(u + f * (v - u)) for u, v in zip(a, b, strict=True)))
    return colours


def test_the_ratio_is_wcags() -> None:
    assert ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert ratio((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)


def test_both_ramps_are_read_from_the_page() -> None:
    ramps = _ramps()
    assert set(ramps) == {"viridis", "conventional"} and all(len(s) == 5 for s in ramps.values())
    conventional = ramps["conventional"]
    assert conventional[0][1] > conventional[0][0]  # safe is green
    assert conventional[-1][0] > conventional[-1][1]  # a mine is red


@pytest.mark.parametrize("mark", sorted(MARKS))
def test_each_mark_stands_out_at_3_to_1_on_every_background(mark: str) -> None:
    found = _properties()
    ring, halo = _rgb(found[MARKS[mark]]), _rgb(found["--halo"])
    assert ratio(ring, halo) >= 3, "the ring must stand out from its own halo"
    backgrounds = [_rgb(found[name]) for name in BACKGROUNDS] + _heat_backgrounds()
    worst = min(max(ratio(ring, bg), ratio(halo, bg)) for bg in backgrounds)
    assert worst >= 3, f"{mark}: {worst:.2f}:1 on some background"


def test_a_one_colour_mark_would_fail_where_the_old_ones_did() -> None:
    # The old hint ring (#009E73 alone) on the heat map's greens: why a halo is needed.
    old = _rgb("#009E73")
    assert min(ratio(old, bg) for bg in _heat_backgrounds()) < 1.5
