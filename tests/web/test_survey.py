"""A survey (what the page shows the policy knows at a stall) is the library's own figures:
each cell's look-ahead (secondary safety, progress, dead), the endgame search's exact chance,
the policy's choice; and every fifty-fifty it marks holds one mine between two cells in every
placement (brute force)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from mineshafted.probability import Best, best_reveal, outlook, view_odds
from mineshafted.probability.endgame import nodes_for
from mineshafted.web.survey import stall_of, survey

from .conftest import Brute, Cut, cuts


def _stalls(count: int, *, rows: int, cols: int, seed: int) -> list[Cut]:
    found = []
    for cut in cuts(400, seed=seed, rows=rows, cols=cols, density=0.25):
        try:
            result = view_odds(cut.grid, cut.mines)
        except Exception:
            continue
        not_decided = [c for c, m in result.mined.items() if 0 < m < result.placements]
        if not result.safe and not_decided:
            found.append(cut)
        if len(found) == count:
            break
    return found


STALLS = [
    # the eighth's endgame search takes over half a second
    *(
        pytest.param(cut, marks=pytest.mark.slow) if k == 7 else cut
        for k, cut in enumerate(_stalls(20, rows=5, cols=8, seed=3))
    ),
    # a small board's (at most 36 cells): its endgame searches up to 100,000 sets, a second
    *(pytest.param(cut, marks=pytest.mark.slow) for cut in _stalls(5, rows=5, cols=6, seed=3)),
    *(pytest.param(cut, marks=pytest.mark.slow) for cut in _stalls(5, rows=9, cols=9, seed=4)),
]


def test_there_are_stalls_to_check() -> None:
    assert len(STALLS) == 30


@pytest.mark.parametrize("cut", STALLS, ids=[f"stall{k}" for k in range(len(STALLS))])
def test_each_cells_figures_are_the_look_aheads(cut: Cut) -> None:
    result = view_odds(cut.grid, cut.mines)
    shown = survey(cut.grid, cut.mines, result)
    position, stall, marked = stall_of(cut.grid, cut.mines, result)
    cols = len(cut.grid[0])
    assert shown["stall"]
    expected = {}
    for cell, mined in stall.mined.items():
        if 0 < mined < stall.placements:
            look = outlook(position, stall, marked, cell)  # every cell counted on its own
            expected[cell] = {
                "cell": [cell // cols, cell % cols],
                "mine": mined / stall.placements,
                "secondary": float(look.lookahead),
                "progress": float(look.progress),
                "dead": look.dead,
            }
    assert shown["cells"] == [expected[c] for c in sorted(expected)]
    found = best_reveal(position, marked, stall.mines_left, nodes=nodes_for(marked))  # as best
    if found is None:
        assert shown["endgame"] is None
    else:
        assert shown["endgame"] == {
            "cell": [found.cell // cols, found.cell % cols],
            "wins": found.wins,
            "placements": found.placements,
            "chance": float(Fraction(found.wins, found.placements)),
        }
    choice = Best().choose(position, stall, marked, random.Random(0))
    assert shown["best"] == [choice // cols, choice % cols]


@pytest.mark.slow
def test_some_stalls_finish_the_endgame_and_show_dead_cells() -> None:
    small = _stalls(25, rows=5, cols=6, seed=3)
    shown = [survey(c.grid, c.mines, view_odds(c.grid, c.mines)) for c in small]
    assert sum(s["endgame"] is not None for s in shown) >= 5
    assert any(cell["dead"] for s in shown for cell in s["cells"])


@pytest.mark.slow
def test_every_fifty_fifty_holds_one_mine_between_its_two_cells() -> None:
    marked = 0
    for cut in _stalls(60, rows=4, cols=4, seed=9):
        shown = survey(cut.grid, cut.mines, view_odds(cut.grid, cut.mines))
        brute = Brute(cut)
        every = list(brute.assignments(brute.clues(), total=True))
        for (r1, c1), (r2, c2) in shown["fifties"]:
            a = brute.bit[r1 * brute.cols + c1]
            b = brute.bit[r2 * brute.cols + c2]
            assert all(bool(x & a) != bool(x & b) for x in every)
            marked += 1
    assert marked >= 1


def test_a_position_with_a_safe_cell_is_no_stall() -> None:
    grid = [[0, 1, None], [0, 1, None], [0, 1, None]]
    shown = survey(grid, 1, view_odds(grid, 1))
    assert shown == {"stall": False, "cells": [], "fifties": [], "endgame": None, "best": [0, 2]}
