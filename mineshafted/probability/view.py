"""A player's grid: checked, turned into a position, read from and written to JSON.

Glossary
--------
grid
    A partial grid (:data:`~mineshafted.board.PartialGrid`): rows of cells as a player sees
    them, an int 0-8 for a revealed clue, ``-1`` for a known mine, ``None`` for an unknown cell.
position file
    JSON ``{"board": <grid>, "mines": <the mine total>}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..board import MAX_CELLS, MINE, PartialGrid
from ..errors import InvalidBoardError, NoPlacementError, Why
from ..solver import Position
from ..solver.clues import TABLE_CELLS, clues_of, position_from
from .errors import PositionFormatError
from .odds import Odds, odds

__all__ = [
    "MAX_CELLS",
    "TABLE_CELLS",
    "PositionFile",
    "count_text",
    "odds_json",
    "parse_position",
    "position_of",
    "read_position",
    "view_odds",
]

EXACT_DIGITS = 4300
"""The most digits a count is written out in full: Python's own limit on converting an
integer to text."""

FIELDS = ("board", "mines")
"""The fields of a position file, all required."""


@dataclass(frozen=True)
class PositionFile:
    """A position file's contents: the player's view and the mine total."""

    board: PartialGrid
    mines: int

    def odds(self) -> Odds:
        """The exact odds of the position (see :func:`view_odds`)."""
        return view_odds(self.board, self.mines)


def position_of(grid: object) -> Position:
    """Check a player's grid and turn it into a position: each clue's constraint, by component.

    Each revealed clue with unknown neighbours says: its mines less the known mines around it
    lie among those neighbours (the constraints are built by
    :func:`~mineshafted.solver.clues.clues_of`, as everywhere in the package).

    Raises
    ------
    InvalidBoardError
        Not a non-empty rectangle of ints 0-8, ``-1`` and ``None``; names the row and column.
    NoPlacementError
        A clue with more known mines around it than its value, or fewer unknown neighbours
        than the mines it still needs; names the row and column.

    Examples
    --------
    >>> position = position_of([[1, None], [None, None]])
    >>> position.components, position.unconstrained, position.mines_found
    ([[((1, 2, 3), 1)]], [], 0)
    """
    problem = _problem(grid)
    if problem is not None:
        message, row, col = problem
        raise InvalidBoardError(message, row=row, col=col)
    rows: PartialGrid = grid  # type: ignore[assignment]  # checked just above
    clues = clues_of(rows, table_cells=TABLE_CELLS)
    found = sum(row.count(MINE) for row in rows)
    pairs = [clue.constraint for clue in clues.constraints]
    return position_from([list(row) for row in rows], pairs, clues.unknown, found)


def view_odds(grid: object, mines: int) -> Odds:
    """The exact probability of a mine on each unknown cell of a player's view.

    Parameters
    ----------
    grid:
        Rows of an int 0-8 (a revealed clue), ``-1`` (a known mine) or ``None`` (unknown).
    mines:
        The board's mine total, known mines included.

    Returns
    -------
    Odds
        As :func:`~.odds.odds` for the grid's position.

    Raises
    ------
    InvalidBoardError
        The grid is malformed (names the row and column).
    NoPlacementError
        No placement fits: a clue contradicts the known mines, the clues contradict each
        other, or the total is too small or too large for them.

    Examples
    --------
    A clue 1 beside three unknown cells, one of which holds the board's only mine:

    >>> result = view_odds([[1, None], [None, None]], 1)
    >>> result.placements, result.fractions()
    (3, {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)})
    >>> view_odds([[1, None], [None, None]], 3)
    Traceback (most recent call last):
    ...
    mineshafted.errors.NoPlacementError: 3 mine(s) left, but at most 1 fit in the \
unknown cells

    Notes
    -----
    Building the position is ``O(cells)``; counting costs as :func:`~.odds.odds`.
    """
    position = position_of(grid)
    if mines < position.mines_found:
        raise NoPlacementError(
            f"{mines} mine(s) in all, but {position.mines_found} are known", why=Why.TOO_FEW
        )
    return odds(position, mines)


def parse_position(text: str, *, source: str | None = None) -> PositionFile:
    """Read a position file's JSON text: ``{"board": [[0, 1, null, ...], ...], "mines": 10}``.

    Raises
    ------
    PositionFormatError
        Not JSON, not an object, a field missing, unknown or malformed; the message names the
        field and, for the board, the row and column.

    Examples
    --------
    >>> parse_position('{"board": [[1, null]], "mines": 1}')
    PositionFile(board=[[1, None]], mines=1)
    >>> parse_position('{"board": [[1, 9]], "mines": 1}')
    Traceback (most recent call last):
    ...
    mineshafted.probability.errors.PositionFormatError: field 'board', row 0, column 1: \
9 is not a clue 0-8, a mine -1 or null
    """
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise PositionFormatError(
            f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}", source=source
        ) from None
    except RecursionError:
        raise PositionFormatError(
            "not JSON that can be read: nested too deeply", source=source
        ) from None
    except ValueError as error:  # an integer of more than 4300 digits
        raise PositionFormatError(
            f"not JSON that can be read: {str(error).split(';')[0]}", source=source
        ) from None
    if not isinstance(data, dict):
        raise PositionFormatError(
            f"a position is a JSON object, not {_json_type(data)}", source=source
        )
    for name in FIELDS:
        if name not in data:
            raise PositionFormatError("missing", field=name, source=source)
    for name in data:
        if name not in FIELDS:
            raise PositionFormatError(
                f"unknown field (a position has {', '.join(FIELDS)})", field=name, source=source
            )
    grid = data["board"]
    wide = isinstance(grid, list) and grid and isinstance(grid[0], list)
    if wide and len(grid) * len(grid[0]) > MAX_CELLS:
        raise PositionFormatError(
            f"{len(grid)}x{len(grid[0])}: more than {MAX_CELLS:,} cells",
            field="board",
            source=source,
        )
    problem = _problem(grid, json_names=True)
    if problem is not None:
        message, row, col = problem
        raise PositionFormatError(message, field="board", row=row, col=col, source=source)
    mines = data["mines"]
    if type(mines) is not int or mines < 0:
        raise PositionFormatError(
            f"{json.dumps(mines)} is not a mine total (an integer 0 or more)",
            field="mines",
            source=source,
        )
    return PositionFile(data["board"], mines)


def read_position(path: str | Path) -> PositionFile:
    """Read a position file (see :func:`parse_position`); errors name the file.

    Raises
    ------
    PositionFormatError
        The file is malformed.
    OSError
        The file cannot be read.
    """
    path = Path(path)
    return parse_position(path.read_text(encoding="utf-8"), source=str(path))


def odds_json(grid: PartialGrid, result: Odds) -> dict[str, object]:
    """The odds as JSON-ready data: a grid of probabilities, the mines left, the placements.

    ``probabilities`` has a float in [0, 1] for each unknown cell, ``1.0`` for a known mine
    and ``None`` for a revealed clue; ``placements`` is a string (it can exceed what JSON
    numbers hold exactly).

    Examples
    --------
    >>> grid = [[1, None], [None, -1]]
    >>> odds_json(grid, view_odds(grid, 1))
    {'probabilities': [[None, 0.0], [0.0, 1.0]], 'mines_left': 0, 'placements': '1'}
    """
    floats = result.floats()
    cols = len(grid[0])
    probabilities: list[list[float | None]] = []
    for r, row in enumerate(grid):
        line: list[float | None] = []
        for c, value in enumerate(row):
            if value is None:
                line.append(floats[r * cols + c])
            else:
                line.append(1.0 if value == MINE else None)
        probabilities.append(line)
    return {
        "probabilities": probabilities,
        "mines_left": result.mines_left,
        "placements": count_text(result.placements),
    }


def count_text(count: int) -> str:
    """``count`` in full, or past :data:`EXACT_DIGITS` digits in scientific form with its
    number of digits (Python will not write such an integer out, and nobody would read it).

    Examples
    --------
    >>> count_text(12345)
    '12345'
    >>> count_text(3 * 10**5000 + 10**4990)
    '3.000e+5000 (5001 digits)'

    Notes
    -----
    ``O(digits^2)`` at worst, through big-integer division; no text of the full number is made.
    """
    if count < 10**EXACT_DIGITS:
        return str(count)
    digits = _digits(count)
    lead = count // 10 ** (digits - 4)  # the first four digits
    return f"{lead // 1000}.{lead % 1000:03d}e+{digits - 1} ({digits} digits)"


def _problem(
    grid: object, *, json_names: bool = False
) -> tuple[str, int | None, int | None] | None:
    """The first thing wrong with a grid's shape or values: ``(message, row, col)``, or ``None``.

    ``json_names`` words the messages for a JSON file (``null``, array) rather than Python.
    """
    unknown = "null" if json_names else "None"
    rows_word = "array" if json_names else "list"
    if not isinstance(grid, list) or not grid:
        return f"a board is a non-empty {rows_word} of rows", None, None
    width: int | None = None
    for r, row in enumerate(grid):
        if not isinstance(row, list) or not row:
            return f"row {r} is not a non-empty {rows_word}", None, None
        if width is None:
            width = len(row)
        elif len(row) != width:
            return f"row {r} has {len(row)} cells but row 0 has {width}", None, None
        for c, value in enumerate(row):
            if value is None:
                continue
            shown = json.dumps(value) if json_names else repr(value)
            if type(value) is not int or not MINE <= value <= 8:
                return f"{shown} is not a clue 0-8, a mine -1 or {unknown}", r, c
    return None


def _digits(count: int) -> int:
    """How many decimal digits the positive integer ``count`` has, without writing it out."""
    import math

    digits = int(count.bit_length() * math.log10(2)) + 1
    while 10 ** (digits - 1) > count:
        digits -= 1
    while 10**digits <= count:
        digits += 1
    return digits


def _json_type(value: object) -> str:
    """The JSON name of a decoded value's type, with an article."""
    names = {list: "an array", str: "a string", int: "a number", float: "a number"}
    return names.get(type(value), "null" if value is None else "a boolean")
