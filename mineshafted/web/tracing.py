"""Tracing: what the Learn tab steps through: a shipped puzzle or a position traced by
:mod:`mineshafted.solver.trace`, the very events ``mineshafted trace --json`` prints.

The trace is computed in a worker, under the compute budget, like every computation of the
server (:func:`traced` is the job). Only shipped puzzles (public files) and positions the user
gives are traced: never a live game of Play, whose board is hidden.
"""

from __future__ import annotations

import json
import logging
from functools import cache
from pathlib import Path
from typing import Any, Final

from ..board import MINE
from ..errors import MineshaftedError
from ..formats import Puzzle, read_puzzles
from ..game import BoardManager
from ..solver.technique import Technique
from ..solver.trace import Event, trace, trace_position
from .bodies import cell_field, position, validated
from .errors import RequestError
from .requests import LearnIn

__all__ = ["CELLS", "EVENTS", "SAMPLE", "catalogue", "shipped", "traced"]

log = logging.getLogger(__name__)

CELLS: Final = 3_600
"""The largest board the Learn tab traces (60x60): every cell is drawn, and every event
stepped through, in the page."""

EVENTS: Final = 50_000
"""The most events a trace for the page may have (the 60x60 shipped puzzles have about
6,000)."""

SAMPLE: Final = "no-guess/4x3-sample/01.json"
"""The Mine Shafted assignment's 4x3 sample, among the shipped puzzles."""


def traced(raw: bytes) -> bytes:
    """The job of ``POST /api/learn``: the body read, the trace's events as JSON bytes.

    Raises
    ------
    RequestError
        422: a field missing, unknown or malformed, a puzzle not shipped, a start off the
        board or on a mine, a board of more than :data:`CELLS` cells, a trace of more than
        :data:`EVENTS` events.
    MineshaftedError
        A position no placement fits (its row and column named), answered 422.

    Examples
    --------
    >>> answer = json.loads(traced(b'{"board": [[1, null], [null, null]]}'))
    >>> [event["event"] for event in answer["events"]][-3:]
    ['variables', 'decided', 'end']
    """
    body = validated(LearnIn, raw)
    technique = Technique(body.technique)
    if body.puzzle is not None:
        name, puzzle = _puzzle(body.puzzle)
        start = _start(body.start, puzzle)
        board = puzzle.board
        events = trace(BoardManager(board), technique, start=start, mines=len(board.mines))
        title = puzzle.name or name
    else:
        assert body.board is not None  # the model gives one of the two
        events = trace_position(_grid(body.board), technique, mines=body.mines)
        title = None
    kept: list[Event] = []
    try:
        for event in events:
            if len(kept) == EVENTS:
                raise RequestError(
                    422,
                    f"the trace has more than {EVENTS:,} events: too long to step through "
                    "here; mineshafted trace --steps round shows it",
                )
            kept.append(event)
    except RequestError:
        raise
    except MineshaftedError as error:  # a clue no placement meets, its row and column named
        raise RequestError(422, f"board: {error}") from None
    return json.dumps({"name": title, "events": kept}, separators=(",", ":")).encode()


@cache
def shipped() -> dict[str, Puzzle]:
    """Every shipped puzzle the Learn tab can trace (at most :data:`CELLS` cells, one puzzle
    a file), by its path under ``puzzles/``, the assignment's sample first."""
    root = _root()
    found: dict[str, Puzzle] = {}
    if root is None:
        log.warning("the shipped puzzles are not installed: Learn traces positions only")
        return found
    for path in sorted(
        root.rglob("*.json"), key=lambda p: (p.relative_to(root) != Path(SAMPLE), p)
    ):
        try:
            puzzles = read_puzzles(path)
        except (MineshaftedError, OSError) as error:
            log.warning("a shipped puzzle file cannot be read: %s", error)
            continue
        if len(puzzles) == 1 and puzzles[0].board.geometry.cells <= CELLS:
            found[path.relative_to(root).as_posix()] = puzzles[0]
    return found


def catalogue() -> list[dict[str, Any]]:
    """The shipped puzzles the tab offers: ``name`` (its path, what a request names),
    ``title`` (the puzzle's own name, if any), ``rows``, ``cols``, ``mines``."""
    return [
        {
            "name": name,
            "title": puzzle.name,
            "rows": puzzle.board.geometry.rows,
            "cols": puzzle.board.geometry.cols,
            "mines": len(puzzle.board.mines),
        }
        for name, puzzle in shipped().items()
    ]


def _root() -> Path | None:
    """The shipped ``puzzles/`` folder: inside an installed wheel, or beside a source
    checkout (as the grader finds it)."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "puzzles", here.parent / "puzzles"):
        if (candidate / "no-guess").is_dir():
            return candidate
    return None


def _puzzle(name: str) -> tuple[str, Puzzle]:
    """The shipped puzzle ``name`` names (nothing else: no path is opened from a request)."""
    puzzles = shipped()
    if name not in puzzles:
        shown = json.dumps(name)[:60]
        raise RequestError(
            422, f"puzzle: {shown} is not a shipped puzzle of {CELLS:,} cells or fewer"
        )
    return name, puzzles[name]


def _start(value: list[int] | None, puzzle: Puzzle) -> int:
    """The first move: ``start`` (``[row, column]``, a safe cell), else the puzzle's own."""
    if value is None:
        return puzzle.start
    geometry = puzzle.board.geometry
    row, col = cell_field(value, geometry.rows, geometry.cols, name="start")
    index = geometry.index(row, col)
    if puzzle.board.values[index] == MINE:
        raise RequestError(422, f"start: [{row}, {col}] is a mine")
    return index


def _grid(board: object) -> list[list[int | None]]:
    """A position's grid, checked as ``mineshafted probabilities`` checks one, at most
    :data:`CELLS` cells."""
    if isinstance(board, list) and board and isinstance(board[0], list):
        rows, cols = len(board), len(board[0])
        if rows * cols > CELLS:
            raise RequestError(422, f"board: {rows}x{cols} is more than {CELLS:,} cells")
    return position(json.dumps({"board": board, "mines": 0}).encode()).board
