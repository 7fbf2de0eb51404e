"""Board model: geometry, validation naming the bad cell, construction and rendering."""

from __future__ import annotations

import pytest

from mineshafted import Board, Geometry, InvalidBoardError, render


def test_neighbours_are_row_major_and_clipped() -> None:
    g = Geometry(4, 3)
    assert g.neighbours(0) == [1, 3, 4]
    assert g.neighbours(4) == [0, 1, 2, 3, 5, 6, 7, 8]
    assert g.neighbours(11) == [7, 8, 10]
    assert Geometry(1, 1).neighbours(0) == []


def test_neighbour_table_matches_neighbours() -> None:
    g = Geometry(5, 7)
    assert [list(n) for n in g.neighbour_table()] == [g.neighbours(c) for c in range(g.cells)]


def test_from_mines_computes_clues(sample: list[list[int]]) -> None:
    assert Board.from_mines(4, 3, [5, 8]).to_grid() == sample


def test_from_text_shorthand() -> None:
    board = Board.from_text(
        """
        * . .
        . . *
        """
    )
    assert board.to_grid() == [[-1, 2, 1], [1, 2, -1]]
    assert board.mine_total == 2 and board.safe_count == 4


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ([], "non-empty list of rows"),
        ("0 1", "non-empty list of rows"),
        ([[0, 0], [0]], "row 1 has 1 cells but row 0 has 2"),
        ([[0], 5], "row 1 is int, not a list"),
        ([[]], "row 0 is empty"),
        ([[0, 9]], "row 0, column 1: 9 is not a clue 0-8 or a mine -1"),
        ([[0, -2]], "row 0, column 1: -2 is not a clue"),
        ([[0, 1.0]], "row 0, column 1: 1.0 is not an integer"),
        ([[0, True]], "row 0, column 1: True is not an integer"),
        ([[0, "1"]], "row 0, column 1: '1' is not an integer"),
    ],
)
def test_malformed_grids_are_refused(grid: object, message: str) -> None:
    with pytest.raises(InvalidBoardError, match=message):
        Board.from_grid(grid)


def test_wrong_clue_names_cell_expected_and_found() -> None:
    with pytest.raises(InvalidBoardError) as info:
        Board.from_grid([[0, 1, 1], [0, 2, -1], [0, 3, -1], [0, 1, 1]])
    assert (info.value.row, info.value.col) == (2, 1)
    assert str(info.value) == "row 2, column 1: clue 3 but 2 adjacent mine(s)"


def test_from_mines_refuses_bad_indices() -> None:
    with pytest.raises(InvalidBoardError, match=r"outside 0\.\.5"):
        Board.from_mines(2, 3, [6])
    with pytest.raises(InvalidBoardError, match="at least 1 row"):
        Board.from_mines(0, 3, [])


def test_render_uses_glyphs() -> None:
    assert render([[0, 1, None], [2, -1, 8]]) == ". 1 ?\n2 * 8"
