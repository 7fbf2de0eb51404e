"""Loading: a pasted or uploaded text as a position for the analyser.

The text is what the page read from a file the user chose, or typed: it never names a file
on the server, and nothing here opens one.

Glossary
--------
text grid
    One row a line: digits for clues, ``.`` for 0, ``?`` for an unknown cell, ``*`` or ``F``
    for a known mine; blanks between cells are ignored.
position file
    ``{"board": [[0, 1, null, ...], ...], "mines": 10}``, as ``mineshafted probabilities``
    reads it.
puzzle file
    A full board (``mineshafted generate``, ``mineshafted board``): loaded as the player sees
    it after the first move, its start cell revealed (a 0 opening its region).
game record
    A game's JSON Lines (``mineshafted play --record``): loaded as the player saw it at the
    end, revealed cells only (flags are the player's opinion, not what is known).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..board import MINE, PartialGrid
from ..errors import MineshaftedError
from ..formats import MAX_CELLS, parse_puzzles
from ..game import FirstMove, Game, Rules, read_record, rebuild
from ..game.record import FORMAT
from ..probability import parse_position, position_of
from ..solver import counted
from ..text import visible
from .errors import RequestError

__all__ = ["Kind", "Loaded", "load", "parse_text_grid"]

GLYPHS = {".": 0, "?": None, "*": MINE, "F": MINE, "f": MINE, **{str(n): n for n in range(9)}}
"""What each character of a text grid stands for."""


class Kind(StrEnum):
    """What a loaded text turned out to be."""

    TEXT = "text"
    POSITION = "position"
    PUZZLE = "puzzle"
    RECORD = "record"


@dataclass(frozen=True)
class Loaded:
    """A position read from a text, and what the text was."""

    kind: Kind
    board: PartialGrid
    mines: int
    name: str | None = None

    def to_json(self) -> dict[str, object]:
        """``kind``, ``board`` (a position's grid), ``mines`` and ``name`` (a puzzle's, from
        the text: its control characters written as escapes)."""
        return {
            "kind": self.kind.value,
            "board": self.board,
            "mines": self.mines,
            "name": None if self.name is None else visible(self.name),
        }


def load(text: str, *, mines: int | None = None) -> Loaded:
    """The position a text holds: a game record, a position file, a puzzle file or a text grid.

    Parameters
    ----------
    text:
        The text, as pasted or read from a file by the page.
    mines:
        The mine total for a text grid, which carries none (moved into the range the clues
        allow when it is outside: see :func:`fitting`); ignored for the files, which carry
        their own.

    Raises
    ------
    RequestError
        422: the text is none of these, or is malformed (the message says where).

    Examples
    --------
    >>> load(". 1 ?\\n. 1 *", mines=2).board
    [[0, 1, None], [0, 1, -1]]
    >>> load('{"board": [[1, null]], "mines": 1}').kind.value
    'position'
    >>> loaded = load('{"board": [[0, 1, -1]], "start": [0, 0]}')
    >>> loaded.kind.value, loaded.board, loaded.mines
    ('puzzle', [[0, 1, None]], 1)
    """
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        raise RequestError(422, "text: empty: paste a position, a puzzle, a record or a grid")
    try:
        if stripped[0] in "{[":
            return _json_file(stripped)
        grid = parse_text_grid(stripped)
    except RequestError:
        raise
    except MineshaftedError as error:
        raise RequestError(422, f"text: {error}") from None
    return Loaded(Kind.TEXT, grid, fitting(grid, mines if mines is not None else 0))


def fitting(grid: PartialGrid, mines: int) -> int:
    """``mines``, or the nearest mine total the clues of ``grid`` allow.

    A text grid carries no total: the page offers its own, and this keeps it when it fits.

    Raises
    ------
    RequestError
        422: the clues contradict each other, whatever the total (the message says where).

    Examples
    --------
    >>> grid = [[1, None, None], [None, None, None]]  # one mine by the clue, two cells free
    >>> fitting(grid, 10), fitting(grid, 0), fitting(grid, 2)
    (3, 1, 2)
    >>> fitting([[0, 1, None, None]], 2)
    2
    """
    try:
        position = position_of(grid)
    except MineshaftedError as error:
        raise RequestError(422, f"text: {error}") from None
    low = high = position.mines_found
    for component in position.components:
        placements = counted(tuple(component)).placements
        feasible = [k for k, n in enumerate(placements) if n]
        if not feasible:
            raise RequestError(422, "text: the clues contradict each other")
        low += feasible[0]
        high += feasible[-1]
    high += len(position.unconstrained)
    return min(max(mines, low), high)


def parse_text_grid(text: str) -> PartialGrid:
    """A text grid's rows (see the glossary), blank lines and blanks between cells ignored.

    Raises
    ------
    RequestError
        422: a character that stands for nothing, rows of different lengths, or more than
        :data:`~mineshafted.formats.MAX_CELLS` cells; the message names the line and column.

    Examples
    --------
    >>> parse_text_grid("1?\\n*F")
    [[1, None], [-1, -1]]
    >>> parse_text_grid("1 x")
    Traceback (most recent call last):
    ...
    mineshafted.web.errors.RequestError: text: line 1, column 3: 'x' is not a clue 0-8, '.', \
'?', '*' or 'F'
    """
    grid: PartialGrid = []
    cells = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        row: list[int | None] = []
        for column, char in enumerate(line, start=1):
            if char.isspace():
                continue
            if char not in GLYPHS:
                raise RequestError(
                    422,
                    f"text: line {number}, column {column}: {char!r} is not a clue 0-8, '.', "
                    "'?', '*' or 'F'",
                )
            row.append(GLYPHS[char])
        if grid and len(row) != len(grid[0]):
            raise RequestError(
                422,
                f"text: line {number} has {len(row)} cells but the first row has {len(grid[0])}",
            )
        cells += len(row)
        if cells > MAX_CELLS:
            raise RequestError(422, f"text: more than {MAX_CELLS:,} cells")
        grid.append(row)
    return grid


def _json_file(text: str) -> Loaded:
    """A record, a position or a puzzle, by its first line and its fields."""
    first = text.split("\n", 1)[0]
    head = _json_line(first)
    if isinstance(head, dict) and head.get("format") == FORMAT:
        return _record(text, head)
    whole = _json_line(text)
    if isinstance(whole, dict) and "mines" in whole and set(whole) <= {"board", "mines"}:
        read = parse_position(text, source="text")
        return Loaded(Kind.POSITION, read.board, read.mines)
    puzzle = parse_puzzles(text, origin="text")[0]
    rules = Rules(FirstMove.NONE, auto_expand=True, total_known=True)
    game = Game.on(puzzle.board, rules=rules)
    game.reveal(puzzle.start)
    return Loaded(Kind.PUZZLE, game.view().grid, len(puzzle.board.mines), puzzle.name)


def _record(text: str, head: dict[str, Any]) -> Loaded:
    """A game record's last position, its size checked before any board is made."""
    rows, cols = head.get("rows"), head.get("cols")
    if type(rows) is int and type(cols) is int and rows * cols > MAX_CELLS:
        raise RequestError(
            422, f"text: line 1: a {rows}x{cols} board: more than {MAX_CELLS:,} cells"
        )
    for number, line in enumerate(text.splitlines(), start=1):
        _json_line(line, number)
    stream = io.StringIO(text)
    stream.name = "text"
    record = read_record(stream)
    view = rebuild(record).view()
    return Loaded(Kind.RECORD, view.grid, record.header.mines)


def _json_line(line: str, number: int | None = None) -> object:
    """``line`` as JSON (``None`` when it is not JSON); nesting too deep or an integer of
    thousands of digits is a 422 naming the line."""
    where = "text" if number is None else f"text: line {number}"
    try:
        return json.loads(line) if line.strip() else None
    except json.JSONDecodeError:
        return None
    except RecursionError:
        raise RequestError(422, f"{where}: nested too deeply to read") from None
    except ValueError as error:  # an integer of more than 4300 digits
        raise RequestError(422, f"{where}: {str(error).split(';')[0]}") from None
