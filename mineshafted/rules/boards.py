"""Boards for PatternEval: each square a mine with a given chance, as the original drew them."""

from __future__ import annotations

import random

from ..board import Board
from ..errors import InvalidBoardError

__all__ = ["chance_board"]


def chance_board(rows: int, cols: int, mine_percent: float, *, seed: int | None = None) -> Board:
    """A ``rows`` x ``cols`` board where each square is a mine with ``mine_percent`` % chance.

    Raises
    ------
    InvalidBoardError
        No squares, or a percentage outside 0..100.

    Examples
    --------
    >>> board = chance_board(30, 30, 25, seed=1)
    >>> board.geometry.cells, 180 < board.mine_total < 270
    (900, True)
    >>> chance_board(30, 30, 25, seed=1) == board
    True

    Notes
    -----
    One draw per square: ``O(rows * cols)``.
    """
    if rows < 1 or cols < 1:
        raise InvalidBoardError(f"a board needs at least 1 row and 1 column, not {rows}x{cols}")
    if not 0 <= mine_percent <= 100:
        raise InvalidBoardError(f"a mine percentage of {mine_percent} is not in 0..100")
    rng = random.Random(seed)
    chance = mine_percent / 100
    mines = [cell for cell in range(rows * cols) if rng.random() < chance]
    return Board.from_mines(rows, cols, mines)
