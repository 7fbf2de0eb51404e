"""Puzzle files in and out: the only file I/O of the core.

A puzzle is a JSON object ``{"board": [[...]], "name": ..., "source": ..., "start": [r, c]}``
(only ``board`` required), or a bare 2D list. Several puzzles may share one file as JSON Lines,
one puzzle per line. Unknown fields are kept, so reading and writing a puzzle loses nothing.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .board import MINE, Board, Cell
from .errors import InputError, InvalidBoardError, PuzzleFormatError

__all__ = [
    "MAX_CELLS",
    "MAX_FILE_BYTES",
    "STDIN",
    "Puzzle",
    "dump_puzzle",
    "find_puzzle_files",
    "format_puzzle",
    "parse_puzzles",
    "read_bytes",
    "read_puzzles",
    "read_text",
]

MAX_CELLS = 1_000_000
"""The largest board a puzzle file may hold."""

MAX_FILE_BYTES = 64 * 1024 * 1024
"""The most bytes read from one input (a file, a device, a pipe or standard input)."""

STDIN = "-"
"""The path that names standard input."""

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
        values: list[tuple[str, Any]] = [(origin, _loads(text))]
    except json.JSONDecodeError as whole:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if whole.msg != "Extra data" or len(lines) < 2:
            raise PuzzleFormatError(f"{origin}: {_describe(whole)}") from None
        values = []
        for number, line in lines:
            where = f"{origin}: line {number}"
            try:
                values.append((where, _loads(line)))
            except json.JSONDecodeError as error:
                raise PuzzleFormatError(f"{where}: {_describe(error, one_line=True)}") from None
    return [_puzzle(value, where) for where, value in values]


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
    return parse_puzzles(text, origin=_origin(path))


def read_text(path: str | Path, *, limit: int | None = None) -> str:
    """The UTF-8 text of the file at ``path`` (``-``: standard input), at most ``limit`` bytes.

    Whatever the source (a file, a device such as ``/dev/zero``, a pipe, standard input), at
    most ``limit + 1`` bytes are read: one more than the cap shows the input is too large.

    Parameters
    ----------
    path : str or Path
        The file to read, or :data:`STDIN`.
    limit : int, optional
        The byte cap; by default :data:`MAX_FILE_BYTES`.

    Returns
    -------
    str
        The whole text.

    Raises
    ------
    InputError
        The file is missing, is a directory, cannot be read, holds more than ``limit`` bytes,
        or is not UTF-8. The message starts with the file's name, or ``<stdin>``.

    Examples
    --------
    >>> read_text("/dev/zero", limit=8)
    Traceback (most recent call last):
    ...
    mineshafted.errors.InputError: /dev/zero: larger than 8 bytes: not read past that cap

    Notes
    -----
    Costs ``O(limit)`` time and memory at most, whatever the input's size.
    """
    data = read_bytes(path, limit=limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start})", source=_origin(path)) from None


def read_bytes(path: str | Path, *, limit: int | None = None) -> bytes:
    """The bytes of the file at ``path`` (``-``: standard input), at most ``limit`` of them.

    Opened once (a FIFO gives its bytes to this one reader) and read no further than one byte
    past the cap, whatever the source.

    Raises
    ------
    InputError
        As :func:`read_text`, but for the encoding.

    Examples
    --------
    >>> read_bytes("/dev/zero", limit=4)
    Traceback (most recent call last):
    ...
    mineshafted.errors.InputError: /dev/zero: larger than 4 bytes: not read past that cap
    """
    cap = MAX_FILE_BYTES if limit is None else limit
    source = _origin(path)
    try:
        if str(path) == STDIN:
            data = sys.stdin.buffer.read(cap + 1)
        else:
            if Path(path).is_dir():
                raise InputError("is a directory, not a file to read", source=source)
            with open(path, "rb") as stream:
                data = stream.read(cap + 1)
    except FileNotFoundError:
        raise InputError("no such file", source=source) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", source=source) from None
    if len(data) > cap:
        raise InputError(
            f"larger than {cap:,} bytes: not read past that cap", source=source, limit=cap
        )
    return data


def find_puzzle_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Expand directories into the ``*.json`` and ``*.jsonl`` files below them, sorted."""
    for entry in paths:
        path = Path(entry)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in (".json", ".jsonl"))
        else:
            yield path


def _origin(path: str | Path) -> str:
    """How errors name ``path``: its own name, or ``<stdin>`` for :data:`STDIN`."""
    return "<stdin>" if str(path) == STDIN else str(path)


def _loads(text: str) -> Any:
    """``json.loads`` with nesting too deep to parse, or an integer past Python's digit
    limit, reported as a JSON error."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, 0) from None
    except json.JSONDecodeError:
        raise
    except ValueError as error:  # an integer of more than 4300 digits
        raise json.JSONDecodeError(str(error).split(";")[0], text, 0) from None


def _describe(error: json.JSONDecodeError, *, one_line: bool = False) -> str:
    where = f"column {error.colno}" if one_line else f"line {error.lineno}, column {error.colno}"
    return f"not valid JSON: {error.msg} at {where}"


def _puzzle(value: Any, where: str) -> Puzzle:
    """Check one decoded JSON value and build its puzzle."""
    if isinstance(value, list):
        value = {"board": value}
    if not isinstance(value, dict):
        raise PuzzleFormatError(
            f'{where}: a puzzle is an object with a "board" or a 2D list, not {_kind(value)}'
        )
    if "board" not in value:
        raise PuzzleFormatError(f'{where}: the puzzle has no "board" field')
    grid = value["board"]
    if _cell_count(grid) > MAX_CELLS:
        raise PuzzleFormatError(f"{where}: board: more than {MAX_CELLS} cells")
    try:
        board = Board.from_grid(grid)
    except InvalidBoardError as error:
        raise PuzzleFormatError(f"{where}: board: {error}") from None
    for key in ("name", "source"):
        if key in value and value[key] is not None and not isinstance(value[key], str):
            raise PuzzleFormatError(f'{where}: "{key}" must be a string, not {_kind(value[key])}')
    start = _start(value.get("start"), board, where)
    return Puzzle(
        board=board,
        name=value.get("name"),
        source=value.get("source"),
        start=start,
        extra={k: v for k, v in value.items() if k not in _KNOWN},
    )


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


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "null" if value is None else "a number"
    )
