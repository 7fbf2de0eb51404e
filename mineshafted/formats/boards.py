"""A boards file's line (``mineshafted play --boards``): a puzzle, or a mine list
``{"rows": R, "cols": C, "mines": [[r, c], ...], "first": [r, c]}`` made a puzzle."""

from __future__ import annotations

import json
from typing import Any

from ..board import MAX_CELLS, Board, Cell
from ..errors import PuzzleFormatError
from .puzzles import Puzzle, puzzle_of
from .values import describe, kind, loads, shown

__all__ = ["parse_board"]


def parse_board(text: str, *, where: str) -> Puzzle:
    """One board of a boards file: a puzzle, or a mine list (``rows``, ``cols``, ``mines``,
    ``first``) made a puzzle whose start is ``first``.

    Parameters
    ----------
    text : str
        One line of JSON.
    where : str
        Where the line is, to begin every message (``boards.jsonl: line 3``).

    Returns
    -------
    Puzzle
        The board and its start (a safe cell); any other field in :attr:`Puzzle.extra`.

    Raises
    ------
    PuzzleFormatError
        The line is not JSON, is neither form, or a field is wrong: a size that is not a
        positive integer or makes more than :data:`MAX_CELLS` cells, a mine that is not
        ``[row, column]``, off the board or given twice, ``first`` missing, off the board or
        a mine. The message names the field and the item at fault.

    Examples
    --------
    >>> puzzle = parse_board('{"rows": 2, "cols": 3, "mines": [[1, 2]], "first": [0, 0]}',
    ...                      where="line 1")
    >>> puzzle.board.to_grid(), puzzle.start
    ([[0, 1, 1], [0, 1, -1]], 0)
    >>> parse_board('{"rows": 2, "cols": 3, "mines": [[1, 2], [1, 2]], "first": [0, 0]}',
    ...             where="line 2")
    Traceback (most recent call last):
    ...
    mineshafted.errors.PuzzleFormatError: line 2: "mines"[1] [1, 2] is a mine already, at \
"mines"[0]
    """
    if not text.strip():
        raise PuzzleFormatError(f"{where}: empty: one board a line")
    try:
        value = loads(text)
    except json.JSONDecodeError as error:
        raise PuzzleFormatError(f"{where}: {describe(error, one_line=True)}") from None
    if not isinstance(value, dict) or "mines" not in value:
        if isinstance(value, dict) and "board" not in value:
            raise PuzzleFormatError(
                f'{where}: neither "board" nor "mines": a board is a puzzle or a mine list'
            )
        return puzzle_of(value, where)
    if "board" in value:
        raise PuzzleFormatError(f'{where}: both "board" and "mines": give one of them')
    return _mine_list(value, where)


def _mine_list(value: dict[str, Any], where: str) -> Puzzle:
    """The puzzle of a mine list ``{"rows", "cols", "mines", "first"}``."""
    rows, cols = value.get("rows"), value.get("cols")
    for name, size in (("rows", rows), ("cols", cols)):
        if type(size) is not int or size < 1:
            raise PuzzleFormatError(
                f'{where}: "{name}" must be an integer of 1 or more, not {shown(size)}'
            )
    assert isinstance(rows, int) and isinstance(cols, int)
    if rows * cols > MAX_CELLS:
        raise PuzzleFormatError(f"{where}: {rows}x{cols}: more than {MAX_CELLS:,} cells")
    mines = value["mines"]
    if not isinstance(mines, list):
        raise PuzzleFormatError(
            f'{where}: "mines" must be a list of [row, column] pairs, not {kind(mines)}'
        )
    cells: dict[Cell, int] = {}
    for number, pair in enumerate(mines):
        cell = _cell_at(pair, rows, cols, f'{where}: "mines"[{number}]')
        if cell in cells:
            raise PuzzleFormatError(
                f'{where}: "mines"[{number}] {json.dumps(pair)} is a mine already, at '
                f'"mines"[{cells[cell]}]'
            )
        cells[cell] = number
    if "first" not in value:
        raise PuzzleFormatError(f'{where}: no "first": name the first reveal as [row, column]')
    start = _cell_at(value["first"], rows, cols, f'{where}: "first"')
    if start in cells:
        raise PuzzleFormatError(
            f'{where}: "first" {json.dumps(value["first"])} is a mine: '
            "the first reveal must be safe"
        )
    board = Board.from_mines(rows, cols, cells)
    extra = {k: v for k, v in value.items() if k not in ("rows", "cols", "mines", "first")}
    return Puzzle(board=board, start=start, extra=extra)


def _cell_at(pair: Any, rows: int, cols: int, what: str) -> Cell:
    """The cell of a ``[row, column]`` pair on a ``rows`` x ``cols`` board."""
    if not isinstance(pair, list) or len(pair) != 2 or any(type(v) is not int for v in pair):
        raise PuzzleFormatError(f"{what} must be [row, column], not {shown(pair)}")
    row, col = pair
    if not (0 <= row < rows and 0 <= col < cols):
        raise PuzzleFormatError(
            f"{what} {json.dumps(pair)} is off the {rows}x{cols} board (rows 0..{rows - 1}, "
            f"columns 0..{cols - 1})"
        )
    return int(row * cols + col)
