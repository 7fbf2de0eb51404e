"""Puzzles: a board with its name, source and start, read from and written to JSON.

A puzzle is a JSON object ``{"board": [[...]], "name": ..., "source": ..., "start": [r, c]}``
(only ``board`` required), or a bare 2D list. Several puzzles may share one file as JSON Lines,
one puzzle per line. Unknown fields are kept, so reading and writing a puzzle loses nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..board import MAX_CELLS, MINE, Board, Cell
from ..errors import InputError, InvalidBoardError, PuzzleFormatError
from .reading import origin, read_text
from .values import describe, kind, loads, shown

__all__ = [
    "Puzzle",
    "dump_puzzle",
    "find_puzzle_files",
    "format_puzzle",
    "parse_puzzles",
    "puzzle_of",
    "read_puzzles",
]

_KNOWN = ("board", "name", "source", "start")


@dataclass(frozen=True)
class Puzzle:
    """A board to solve, where to start, and what is known about where it came from.

    Examples
    --------
    >>> p = parse_puzzles('{"board": [[1, 1], [1, -1]], "name": "tiny", "seed": 7}')[0]
    >>> p.name, p.start, p.extra
    ('tiny', 0, {'seed': 7})
    >>> dump_puzzle(p)
    '{"board": [[1, 1], [1, -1]], "name": "tiny", "seed": 7}'
    """

    board: Board
    name: str | None = None
    source: str | None = None
    start: Cell = 0
    """The row-major index play starts from."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Every other field of the puzzle object, kept as read."""

    def to_json(self) -> dict[str, Any]:
        """The puzzle as a JSON-ready object."""
        obj: dict[str, Any] = {"board": self.board.to_grid()}
        if self.name is not None:
            obj["name"] = self.name
        if self.source is not None:
            obj["source"] = self.source
        if self.start:
            obj["start"] = list(self.board.geometry.coords(self.start))
        obj.update(self.extra)
        return obj


def dump_puzzle(puzzle: Puzzle) -> str:
    """One puzzle as one line of JSON."""
    return json.dumps(puzzle.to_json(), separators=(", ", ": "))


def format_puzzle(puzzle: Puzzle) -> str:
    """One puzzle as a readable JSON file: its fields first, then the board a row per line.

    Examples
    --------
    >>> print(format_puzzle(Puzzle(Board.from_grid([[1, 1], [1, -1]]), name="tiny")))
    {
      "name": "tiny",
      "board": [
        [1, 1],
        [1, -1]
      ]
    }
    """
    fields = puzzle.to_json()
    grid = fields.pop("board")
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}," for key, value in fields.items()]
    rows = ",\n".join("    " + json.dumps(row) for row in grid)
    return "{\n" + "\n".join(lines) + ("\n" if lines else "") + f'  "board": [\n{rows}\n  ]\n}}'


def parse_puzzles(text: str, *, origin: str = "<input>") -> list[Puzzle]:
    """Read one puzzle (JSON) or several (JSON Lines) from ``text``.

    Raises
    ------
    PuzzleFormatError
        The text is not JSON, or a puzzle in it is malformed. The message starts with
        ``origin`` and names the line, field, row and column at fault.
    """
    if not text.strip():
        raise PuzzleFormatError(f"{origin}: empty input: expected a puzzle (JSON)")
    try:
        values: list[tuple[str, Any]] = [(origin, loads(text))]
    except json.JSONDecodeError as whole:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if whole.msg != "Extra data" or len(lines) < 2:
            raise PuzzleFormatError(f"{origin}: {describe(whole)}") from None
        values = []
        for number, line in lines:
            where = f"{origin}: line {number}"
            try:
                values.append((where, loads(line)))
            except json.JSONDecodeError as error:
                raise PuzzleFormatError(f"{where}: {describe(error, one_line=True)}") from None
    return [puzzle_of(value, where) for where, value in values]


def read_puzzles(path: str | Path) -> list[Puzzle]:
    """Read the puzzles in the file at ``path`` (``-``: standard input; see :func:`parse_puzzles`).

    Raises
    ------
    PuzzleFormatError
        The input cannot be read (see :func:`read_text`) or holds no valid puzzle; the message
        starts with the file's name, or ``<stdin>``.
    """
    try:
        text = read_text(path)
    except InputError as error:
        raise PuzzleFormatError(str(error)) from error
    return parse_puzzles(text, origin=origin(path))


def find_puzzle_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Expand directories into the ``*.json`` and ``*.jsonl`` files below them, sorted."""
    for entry in paths:
        path = Path(entry)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in (".json", ".jsonl"))
        else:
            yield path


def puzzle_of(value: Any, where: str) -> Puzzle:
    """Check one decoded JSON value and build its puzzle."""
    if isinstance(value, list):
        value = {"board": value}
    if not isinstance(value, dict):
        raise PuzzleFormatError(
            f'{where}: a puzzle is an object with a "board" or a 2D list, not {kind(value)}'
        )
    if "board" not in value:
        raise PuzzleFormatError(f'{where}: the puzzle has no "board" field')
    grid = value["board"]
    if _cell_count(grid) > MAX_CELLS:
        raise PuzzleFormatError(f"{where}: board: more than {MAX_CELLS} cells")
    _check_cells(grid, where)
    try:
        board = Board.from_grid(grid)
    except InvalidBoardError as error:
        raise PuzzleFormatError(f"{where}: board: {error}") from None
    for key in ("name", "source"):
        if key in value and value[key] is not None and not isinstance(value[key], str):
            raise PuzzleFormatError(f'{where}: "{key}" must be a string, not {kind(value[key])}')
    start = _start(value.get("start"), board, where)
    return Puzzle(
        board=board,
        name=value.get("name"),
        source=value.get("source"),
        start=start,
        extra={k: v for k, v in value.items() if k not in _KNOWN},
    )


def _check_cells(grid: Any, where: str) -> None:
    """Refuse a row that is not a list, or a cell that is not an integer, in the file's words
    (``null``, ``true``, ``"1"``: JSON's, not Python's).

    Raises
    ------
    PuzzleFormatError
        Naming the row (and column) at fault; a ``null`` cell is told apart: a puzzle's board
        is the whole board, and an unknown cell belongs in a position file.
    """
    if not isinstance(grid, list):
        return  # Board.from_grid says what a board is
    for r, row in enumerate(grid):
        if not isinstance(row, list):
            raise PuzzleFormatError(f"{where}: board: row {r} is {kind(row)}, not a list")
        for c, cell in enumerate(row):
            if type(cell) is int:
                continue
            at = f"{where}: board: row {r}, column {c}"
            if cell is None:
                raise PuzzleFormatError(
                    f"{at}: null is not a clue 0-8 or a mine -1: a puzzle gives every cell "
                    "(null, an unknown cell, is for a position file)"
                )
            raise PuzzleFormatError(f"{at}: {shown(cell)} is not an integer")


def _start(value: Any, board: Board, where: str) -> Cell:
    """The start cell named by a ``"start": [row, col]`` field (default: the first cell)."""
    if value is None:
        if board.values[0] == MINE:
            raise PuzzleFormatError(
                f'{where}: the default start [0, 0] is a mine: name a safe cell in "start"'
            )
        return 0
    if not isinstance(value, list) or len(value) != 2 or any(type(v) is not int for v in value):
        raise PuzzleFormatError(f'{where}: "start" must be [row, column], not {json.dumps(value)}')
    row, col = value
    if not board.geometry.contains(row, col):
        rows, cols = board.geometry.rows, board.geometry.cols
        raise PuzzleFormatError(f'{where}: "start" [{row}, {col}] is off the {rows}x{cols} board')
    cell = board.geometry.index(row, col)
    if board.values[cell] == MINE:
        raise PuzzleFormatError(f'{where}: "start" [{row}, {col}] is a mine')
    return cell


def _cell_count(grid: Any) -> int:
    """Rows times the first row's length, for a grid-shaped value; else 0."""
    if isinstance(grid, list) and grid and isinstance(grid[0], list):
        return len(grid) * len(grid[0])
    return 0
