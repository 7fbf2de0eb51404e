"""The CS440 project's clue equations: the basic checks, and the subset rule of improved; inference
stops only at a fixed point, and a contradiction names its cell."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted.agents import ClueEquations, KnowledgeBase, revealed_cells
from mineshafted.board import MINE, Geometry
from mineshafted.errors import ContradictionError
from mineshafted.game import Game, Rules

from ..conftest import view_of

# A 2x3 board, the top row hidden and the bottom row showing 1 2 1 (mines on cells 0 and 2):
# each clue alone decides nothing; {0,1,2} = 2 less {0,1} = 1 gives {2} = 1.
ROW_121 = ((3, 1), (4, 2), (5, 1))


def equations(
    subsets: bool, clues: tuple[tuple[int, int], ...], rows: int, cols: int
) -> ClueEquations:
    eq = ClueEquations(subsets=subsets, neighbours=Geometry(rows, cols).neighbour_table())
    for cell, value in clues:
        eq.learn_clue(cell, value)
    eq.infer()
    return eq


def test_the_no_mines_check_clears_a_zero_clue_s_neighbours() -> None:
    eq = equations(False, ((0, 0),), 2, 2)
    assert eq.safe == {0, 1, 2, 3}


def test_the_all_mines_check_marks_a_full_clue_s_neighbours() -> None:
    eq = equations(False, ((0, 3),), 2, 2)
    assert eq.mines == {1, 2, 3}


def test_known_mines_boil_an_equation_down() -> None:
    # The row "* 2 * ?": a mine revealed at 0 leaves the 2 needing cell 2.
    eq = ClueEquations(neighbours=Geometry(1, 4).neighbour_table())
    eq.learn_mine(0)
    eq.learn_clue(1, 2)
    eq.infer()
    assert eq.mines == {0, 2}
    assert eq.equations[1] == (set(), 0)


def test_basic_stalls_where_the_subset_rule_is_needed() -> None:
    eq = equations(False, ROW_121, 2, 3)
    assert not eq.mines and eq.safe == {3, 4, 5}


def test_improved_derives_a_from_a_plus_b_plus_c_and_b_plus_c() -> None:
    eq = equations(True, ROW_121, 2, 3)
    assert eq.mines == {0, 2}
    assert eq.safe == {1, 3, 4, 5}


def test_mentioned_cells_are_those_an_equation_holds() -> None:
    eq = equations(False, ROW_121, 2, 3)
    assert eq.mentioned() == {0, 1, 2}
    eq = equations(True, ROW_121, 2, 3)
    assert eq.mentioned() == set()


def test_the_subset_rule_looks_past_a_clue_with_nothing_left_to_say() -> None:
    # Zeros on top (cell 0's equation is empty once its neighbours are shown), "1 2 1" in the
    # middle, the bottom row hidden: the subset rule must still reach the middle row.
    eq = ClueEquations(subsets=True, neighbours=Geometry(3, 3).neighbour_table())
    for cell, value in ((0, 0), (1, 0), (2, 0), (3, 1), (4, 2), (5, 1)):
        eq.learn_clue(cell, value)
    eq.infer()
    assert eq.mines == {6, 8}
    assert eq.safe == {0, 1, 2, 3, 4, 5, 7}


@st.composite
def views(draw: st.DrawFn) -> tuple[Geometry, list[tuple[int, int]]]:
    """A random CS440 game's revealed cells after a few reveals (mines included)."""
    rows, cols = draw(st.integers(2, 7)), draw(st.integers(2, 7))
    mines = draw(st.integers(0, rows * cols // 2))
    game = Game.draw(rows, cols, mines, rules=Rules.CS440, seed=draw(st.integers(0, 2**32)))
    for cell in draw(st.lists(st.integers(0, rows * cols - 1), min_size=1, max_size=8)):
        if not game.over and game.shown(cell) is None:
            game.reveal(cell, guess=True)
    return game.geometry, revealed_cells(game.view())


@settings(max_examples=150, deadline=None)
@given(seen=views(), subsets=st.booleans())
def test_infer_stops_only_at_a_fixed_point(
    seen: tuple[Geometry, list[tuple[int, int]]], subsets: bool
) -> None:
    geometry, cells = seen
    table = geometry.neighbour_table()
    eq = ClueEquations(subsets=subsets, neighbours=table)
    kb = KnowledgeBase(merge=subsets, neighbours=table)
    for reasoner in (eq, kb):
        for cell, value in cells:
            if value == MINE:
                reasoner.learn_mine(cell)
            else:
                reasoner.learn_clue(cell, value)
        reasoner.infer()
    found = (set(eq.safe), set(eq.mines))
    eq.infer()
    assert (eq.safe, eq.mines) == found
    assert kb.make_inferences() is False
    if not subsets:  # the basic checks and the lab's three rules agree
        assert (kb.safe, kb.mines) == found


# Views from random games where the subset rule's derivations chain: a stop short of the fixed
# point (a lost progress flag, an unpaired changed equation) shows on them.
CHAINED = [
    view_of(
        """
        . . 1 ? ?
        . . 2 ? ?
        1 1 3 ? 2
        ? ? ? 2 ?
        2 ? ? ? ?
        ? ? ? ? ?
        """
    ),
    view_of(
        """
        ? ? ? 1 . .
        ? 1 ? 1 . .
        ? 2 ? 3 1 .
        ? 1 ? ? 1 .
        ? ? ? ? 2 .
        ? ? ? ? 1 .
        """
    ),
    view_of(
        """
        1 ? ? ?
        ? ? ? ?
        ? ? 3 1
        ? ? 2 .
        ? ? 1 .
        ? ? 1 .
        """
    ),
]


@pytest.mark.parametrize("grid", CHAINED)
def test_improved_reaches_the_fixed_point_in_one_infer(grid: list[list[int | None]]) -> None:
    geometry = Geometry(len(grid), len(grid[0]))
    eq = ClueEquations(subsets=True, neighbours=geometry.neighbour_table())
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value is not None:
                eq.learn_clue(r * geometry.cols + c, value)
    eq.infer()
    found = (set(eq.safe), set(eq.mines))
    eq.infer()
    assert (eq.safe, eq.mines) == found


def test_a_clue_with_too_many_known_mines_names_itself() -> None:
    eq = ClueEquations(neighbours=Geometry(1, 3).neighbour_table())
    eq.learn_mine(0)
    with pytest.raises(ContradictionError, match="clue at 1 needs -1") as caught:
        eq.learn_clue(1, 0)
    assert caught.value.cells == (1,)


def test_a_cell_known_the_other_way_is_named() -> None:
    eq = ClueEquations(neighbours=Geometry(1, 3).neighbour_table())
    eq.learn_mine(0)
    with pytest.raises(ContradictionError, match="cell 0") as caught:
        eq.learn_clue(0, 1)
    assert caught.value.cells == (0,)
