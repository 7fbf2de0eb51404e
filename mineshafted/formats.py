"""Puzzle files in and out: the only file I/O of the core.

A puzzle is a JSON object ``{"board": [[...]], "name": ..., "source": ..., "start": [r, c]}``
(only ``board`` required), or a bare 2D list. Several puzzles may share one file as JSON Lines,
one puzzle per line. Unknown fields are kept, so reading and writing a puzzle loses nothing.

A boards file (``mineshafted play --boards``) is JSON Lines of boards to play, each a puzzle or
a mine list ``{"rows": R, "cols": C, "mines": [[r, c], ...], "first": [r, c]}``
(:func:`parse_board`); it is read a line at a time (:func:`read_lines`), never whole.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .board import MAX_CELLS, MINE, Board, Cell
from .errors import InputError, InvalidBoardError, PuzzleFormatError
from .files import open_regular, read_regular

__all__ = [
    "MAX_CELLS",
    "MAX_FILE_BYTES",
    "STDIN",
    "Puzzle",
    "dump_puzzle",
    "find_puzzle_files",
    "format_puzzle",
    "parse_board",
    "parse_puzzles",
    "read_bytes",
    "read_lines",
    "read_puzzles",
    "read_text",
    "writing",
]

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

    Only a regular file is opened (:func:`mineshafted.files.open_regular`): a FIFO would wait
    for a writer, a device may never end. Standard input, whatever it is, is read to at most
    ``limit + 1`` bytes: one more than the cap shows the input is too large.

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
        The file is missing, is a directory or anything else that is not a regular file,
        cannot be read, holds more than ``limit`` bytes, or is not UTF-8. The message starts
        with the file's name, or ``<stdin>``.

    Examples
    --------
    >>> read_text("/dev/zero", limit=8)
    Traceback (most recent call last):
    ...
    mineshafted.errors.InputError: /dev/zero: not a regular file (a character device); give \
'-' to read standard input

    Notes
    -----
    Costs ``O(limit)`` time and memory at most, whatever the input's size.
    """
    data = read_bytes(path, limit=limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start})", source=_origin(path)) from None


@contextmanager
def writing(path: str | Path) -> Iterator[None]:
    """Name ``path`` in an ``OSError`` raised in the block without a file name.

    Opening a file that cannot be opened names it; a write that fails later (a full disk, a
    device that refuses it) does not: in the block, such an error is raised again with
    ``path`` as its file name, so a message can say which file could not be written.

    Examples
    --------
    >>> with writing("/dev/full"):
    ...     raise OSError(28, "No space left on device")
    Traceback (most recent call last):
    ...
    OSError: [Errno 28] No space left on device: '/dev/full'
    """
    try:
        yield
    except OSError as error:
        if error.filename is not None or isinstance(error, BrokenPipeError):
            raise
        raise OSError(error.errno, error.strerror or str(error), str(path)) from error


def read_bytes(path: str | Path, *, limit: int | None = None) -> bytes:
    """The bytes of the file at ``path`` (``-``: standard input), at most ``limit`` of them.

    A regular file alone is opened (:func:`mineshafted.files.read_regular`), and read no
    further than one byte past the cap; standard input is read the same, whatever it is (a
    pipe, a terminal).

    Raises
    ------
    InputError
        As :func:`read_text`, but for the encoding.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> fifo = os.path.join(folder, "fifo")
    >>> os.mkfifo(fifo)
    >>> try:  # at once: no wait for a writer
    ...     read_bytes(fifo)
    ... except InputError as error:
    ...     print(error.source == fifo, error.reason)
    True not a regular file (a FIFO); give '-' to read standard input
    """
    cap = MAX_FILE_BYTES if limit is None else limit
    if str(path) != STDIN:
        return read_regular(path, limit=cap, hint="; give '-' to read standard input")
    try:
        data: bytes = sys.stdin.buffer.read(cap + 1)
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", source="<stdin>") from None
    if len(data) > cap:
        raise InputError(
            f"larger than {cap:,} bytes: not read past that cap", source="<stdin>", limit=cap
        )
    return data


def read_lines(path: str | Path, *, limit: int | None = None) -> Iterator[tuple[int, str]]:
    """The lines of the regular file at ``path``, one at a time: each numbered from 1, with its
    line break, at most ``limit`` bytes.

    Only a regular file is read (one that can be read again the same: a device, a pipe or
    standard input cannot), a line at a time, so the file may be of any size.

    Parameters
    ----------
    path : str or Path
        The file.
    limit : int, optional
        The byte cap of one line; by default :data:`MAX_FILE_BYTES`.

    Yields
    ------
    tuple of int and str
        The line's number and its text.

    Raises
    ------
    InputError
        The file is missing, not a regular file, cannot be read, or a line holds more than
        ``limit`` bytes or is not UTF-8. The message starts with the file's name, and names
        the line at fault.

    Examples
    --------
    >>> list(read_lines("/dev/zero"))
    Traceback (most recent call last):
    ...
    mineshafted.errors.InputError: /dev/zero: not a regular file (a character device): lines \
are read from a file

    Notes
    -----
    Holds one line at a time: ``O(limit)`` memory at most, whatever the file's size.
    """
    cap = MAX_FILE_BYTES if limit is None else limit
    source = _origin(path)
    if str(path) == STDIN:
        raise InputError("not a regular file: lines are read from a file", source=source)
    stream = open_regular(path, hint=": lines are read from a file")
    with stream:
        number = 0
        while data := _read_line(stream, source, number + 1, cap):
            number += 1
            if len(data) > cap + data.endswith(b"\n"):
                raise InputError(
                    f"line {number}: longer than {cap:,} bytes: not read past that cap",
                    source=source,
                    limit=cap,
                )
            try:
                yield number, data.decode("utf-8")
            except UnicodeDecodeError as error:
                raise InputError(
                    f"line {number}: not UTF-8 text (byte {error.start})", source=source
                ) from None


def _read_line(stream: Any, source: str, number: int, cap: int) -> bytes:
    """Line ``number`` of ``stream``, at most ``cap + 1`` bytes (one more shows it is too long).

    Raises
    ------
    InputError
        The read fails.
    """
    try:
        data: bytes = stream.readline(cap + 1)
    except OSError as error:
        raise InputError(f"line {number}: cannot read: {error.strerror}", source=source) from None
    return data


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
        value = _loads(text)
    except json.JSONDecodeError as error:
        raise PuzzleFormatError(f"{where}: {_describe(error, one_line=True)}") from None
    if not isinstance(value, dict) or "mines" not in value:
        if isinstance(value, dict) and "board" not in value:
            raise PuzzleFormatError(
                f'{where}: neither "board" nor "mines": a board is a puzzle or a mine list'
            )
        return _puzzle(value, where)
    if "board" in value:
        raise PuzzleFormatError(f'{where}: both "board" and "mines": give one of them')
    return _mine_list(value, where)


def _mine_list(value: dict[str, Any], where: str) -> Puzzle:
    """The puzzle of a mine list ``{"rows", "cols", "mines", "first"}``."""
    rows, cols = value.get("rows"), value.get("cols")
    for name, size in (("rows", rows), ("cols", cols)):
        if type(size) is not int or size < 1:
            raise PuzzleFormatError(
                f'{where}: "{name}" must be an integer of 1 or more, not {_shown(size)}'
            )
    assert isinstance(rows, int) and isinstance(cols, int)
    if rows * cols > MAX_CELLS:
        raise PuzzleFormatError(f"{where}: {rows}x{cols}: more than {MAX_CELLS:,} cells")
    mines = value["mines"]
    if not isinstance(mines, list):
        raise PuzzleFormatError(
            f'{where}: "mines" must be a list of [row, column] pairs, not {_kind(mines)}'
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
        raise PuzzleFormatError(f"{what} must be [row, column], not {_shown(pair)}")
    row, col = pair
    if not (0 <= row < rows and 0 <= col < cols):
        raise PuzzleFormatError(
            f"{what} {json.dumps(pair)} is off the {rows}x{cols} board (rows 0..{rows - 1}, "
            f"columns 0..{cols - 1})"
        )
    return int(row * cols + col)


def _shown(value: Any) -> str:
    """A JSON value as a message shows it: short values as JSON, others by kind."""
    text = json.dumps(value)
    return text if len(text) <= 40 else _kind(value)


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
    _check_cells(grid, where)
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
            raise PuzzleFormatError(f"{where}: board: row {r} is {_kind(row)}, not a list")
        for c, cell in enumerate(row):
            if type(cell) is int:
                continue
            at = f"{where}: board: row {r}, column {c}"
            if cell is None:
                raise PuzzleFormatError(
                    f"{at}: null is not a clue 0-8 or a mine -1: a puzzle gives every cell "
                    "(null, an unknown cell, is for a position file)"
                )
            raise PuzzleFormatError(f"{at}: {_shown(cell)} is not an integer")


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
