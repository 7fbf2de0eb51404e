"""``generate --uniform`` draws every board its technique solves equally often: a chi-square
test over every such layout of a small size (``scripts/uniformity.py``'s, seeded, so the
verdict is fixed), which the perturbation generator fails."""

from __future__ import annotations

from collections import Counter

import pytest

from mineshafted import Technique

from .conftest import script

UNIFORMITY = script("uniformity.py")  # it imports its neighbours (sizes, solvable_share)

POPULATION = UNIFORMITY["population"](4, 4, 3, Technique.COMPLETE)
"""Every 4x4 layout of 3 mines, start area clear, that ``complete`` solves from (0, 0)."""


def _p_value(uniform: bool) -> float:
    draws = 10 * len(POPULATION)
    made = UNIFORMITY["boards"](4, 4, 3, draws, 2026, uniform=uniform, technique=Technique.COMPLETE)
    counts = Counter(g.board.mines for g in made)
    assert set(counts) <= set(POPULATION)
    _, _, p = UNIFORMITY["chi_square"]((counts[k] for k in POPULATION), draws / len(POPULATION))
    return float(p)


def test_the_population_is_every_layout_complete_solves() -> None:
    assert len(POPULATION) == 126


def test_uniform_boards_pass_the_chi_square_test() -> None:
    assert _p_value(uniform=True) > 0.01


def test_perturbed_boards_fail_it() -> None:
    assert _p_value(uniform=False) < 1e-6


@pytest.mark.parametrize(("a", "x", "q"), [(1.0, 2.0, 0.1353352832), (62.5, 64.6, 0.3806)])
def test_the_chi_square_tail_matches_known_values(a: float, x: float, q: float) -> None:
    assert UNIFORMITY["upper_gamma"](a, x) == pytest.approx(q, rel=1e-3)
