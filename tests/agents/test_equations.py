"""The CS440 project's clue equations: the basic checks, and the subset rule of improved."""

from __future__ import annotations

from mineshafted.agents import ClueEquations
from mineshafted.board import Geometry

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
