"""PatternEval's boards: the sizes and percentages of mines allowed."""

from __future__ import annotations

import pytest

from mineshafted.errors import InvalidBoardError
from mineshafted.rules import chance_board


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 5), (5, 1)])
def test_one_row_or_one_column_is_a_board(rows: int, cols: int) -> None:
    assert chance_board(rows, cols, 50, seed=1).geometry.cells == rows * cols


@pytest.mark.parametrize(("rows", "cols"), [(0, 5), (5, 0), (0, 0)])
def test_a_board_without_squares_is_refused(rows: int, cols: int) -> None:
    with pytest.raises(InvalidBoardError, match=f"not {rows}x{cols}"):
        chance_board(rows, cols, 20)


@pytest.mark.parametrize(("percent", "mines"), [(0, 0), (0.5, None), (100, 100)])
def test_every_percentage_from_0_to_100_is_allowed(percent: float, mines: int | None) -> None:
    board = chance_board(10, 10, percent, seed=3)
    assert mines is None or board.mine_total == mines
