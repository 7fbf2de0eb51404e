"""``mineshafted trace``: AC-3 (or count, or subset) on one board, step by step, as the Mine
Shafted assignment writes it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, Final

import typer

from .options import parse_cell
from .output import emit, fail, fail_on_error
from .trace_text import Text

if TYPE_CHECKING:
    from ..board import Board
    from ..formats import Puzzle
    from ..probability import PositionFile
    from ..solver.plain import Requeue
    from ..solver.technique import Technique
    from ..solver.trace import Event

__all__ = ["CELLS", "HELP", "STEPS", "command"]

CELLS: Final = 40_000
"""The largest board traced: 200x200, the largest shipped puzzle's (its trace takes seconds
and prints about 60,000 events)."""

STEPS: Final = ("fine", "arc", "round")
"""``--steps``: every event on its line, one line per arc revised, one table per round."""

REQUEUES: Final = ("assignment", "textbook")
"""``--requeue``: :data:`mineshafted.solver.plain.REQUEUE`, written here so that ``--help``
does not import the solver."""

HELP = (
    "Show a solve step by step, as the Mine Shafted assignment writes AC-3: the board with\n"
    "its cell indices; for each round the clue variables (index, clue, domain: a positive\n"
    "index a mine, a negative one safe, as (2, 5, -8)) and the arcs; every revision (the\n"
    "values removed and why: the values the other variable allows on their shared cells) and\n"
    "the arcs put back on the queue; at the fixed point each domain, the cells it decides,\n"
    "and the safe ones explored next, their clues becoming new variables.\n\n"
    "The queue is a set of arcs, as the assignment keeps it (an arc on it is not queued\n"
    "again). A revision of (x, y) that removes values puts back every arc into x, (y, x)\n"
    "included, as the assignment words it; --requeue textbook leaves (y, x) out, as the\n"
    "textbook's AC-3 does (fewer revisions, the same fixed point).\n\n"
    "Before AC-3 the board is explored as the assignment does: a clue whose count alone\n"
    "decides its unknown cells (a 0 above all) decides them. --technique count shows only\n"
    "that (each clue and its unknown cells); subset shows each constraint lying within\n"
    "another, and their difference.\n\n"
    "PUZZLE is a puzzle file, played from its start, or a position file\n"
    '({"board": [[0, 1, null, ...], ...], "mines": N}), traced for one round: nothing can be\n'
    "explored in it; a position no placement fits (clues that contradict each other, a mine\n"
    "total too small or too large for them) is refused, as probabilities refuses it. Boards\n"
    "up to 40,000 cells (200x200).\n\n"
    "Output: text; with --json one JSON object per event, whatever --steps (the fields are in\n"
    "the students' guide: docs/guides/learn.md).\n\n"
    "Exit status: 0 traced; 2 invalid input (a position no placement fits among it: one line\n"
    "on stderr says why); 141 the reader closed the output early (a pipe into head)."
)
"""The command's ``--help`` text."""


def command(
    puzzle: Annotated[
        str,
        typer.Argument(
            metavar="PUZZLE",
            help="A puzzle file (one puzzle) or a position file; '-' reads standard input.",
            show_default=False,
        ),
    ],
    technique: Annotated[
        str,
        typer.Option("--technique", metavar="T", help="The rung to show: ac3, count or subset."),
    ] = "ac3",
    start: Annotated[
        str | None,
        typer.Option(
            metavar="R,C",
            help='First move (row,column), instead of the puzzle\'s own "start" (default '
            "[0, 0]). Not for a position.",
            show_default=False,
        ),
    ] = None,
    json_output: Annotated[
        bool,
        typer.Option("--json", help="One JSON object per event (every event, whatever --steps)."),
    ] = False,
    steps: Annotated[
        str,
        typer.Option(
            "--steps",
            metavar="fine|arc|round",
            help="fine: every event on its line (the arc taken, its revision, the arcs put "
            "back, the queue); arc: one line per arc revised; round: one table per round, "
            "for large boards.",
        ),
    ] = "arc",
    requeue: Annotated[
        str,
        typer.Option(
            "--requeue",
            metavar="assignment|textbook",
            help="The arcs AC-3 puts back after a revision of (x, y) that removed values: "
            "assignment, every arc into x, (y, x) included, as the assignment words it; "
            "textbook, all but (y, x).",
        ),
    ] = "assignment",
) -> None:
    """Trace one board, printing each event as it comes."""
    from ..game import BoardManager
    from ..probability import PositionFile
    from ..solver.trace import trace, trace_position

    if steps not in STEPS:
        fail(f"--steps: {steps!r} is not one of {', '.join(STEPS)}")
    rule = _requeue(requeue)
    rung = _technique(technique)
    cell = parse_cell(start) if start is not None else None
    where, read = _read(puzzle)
    if isinstance(read, PositionFile):
        rows, cols = len(read.board), len(read.board[0])
    else:
        rows, cols = read.board.geometry.rows, read.board.geometry.cols
    if rows * cols > CELLS:
        fail(f"{where}: {rows}x{cols} is more than {CELLS:,} cells: too long a trace to follow")
    events: Iterator[Event]
    if isinstance(read, PositionFile):
        if cell is not None:
            fail(f"{where}: --start: a position has no first move (its clues are revealed)")
        heading = f"{where}: a {rows}x{cols} position, {rung.value} (one round)"
        with fail_on_error(where):
            events = trace_position(read.board, rung, mines=read.mines, requeue=rule)
            first = next(events)
    else:
        index = read.start if cell is None else _start(where, read.board, cell)
        r, c = read.board.geometry.coords(index)
        heading = (
            f"{where}: {rows}x{cols}, {read.board.mine_total} mines; {rung.value} from index "
            f"{index} (row {r}, column {c})"
        )
        board = BoardManager(read.board)
        events = trace(board, rung, start=index, mines=read.board.mine_total, requeue=rule)
        first = next(events)
    shown = _Json() if json_output else Text(heading, steps, rule)
    last = first
    for event in _chain(first, events):
        for line in shown.lines(event):
            emit(line)
        last = event
    if last["event"] == "end" and last["contradiction"] is not None:
        fail(f"{where}: the clues contradict each other: {last['contradiction']}")


def _chain(first: Event, rest: Iterator[Event]) -> Iterator[Event]:
    yield first
    yield from rest


def _requeue(text: str) -> Requeue:
    """The rule ``--requeue`` names."""
    for rule in REQUEUES:
        if text == rule:
            return rule
    fail(f"--requeue: {text!r} is not one of {', '.join(REQUEUES)}")


def _technique(text: str) -> Technique:
    """The rung ``--technique`` names, one a trace shows."""
    from ..solver.technique import Technique
    from ..solver.trace import TRACED

    names = ", ".join(t.value for t in TRACED)
    try:
        technique = Technique.parse(text)
    except ValueError:
        fail(f"--technique: {text!r} is not one of {names}")
    if technique not in TRACED:
        fail(f"--technique: a trace shows {names}, not {technique.value}")
    return technique


def _read(path: str) -> tuple[str, Puzzle | PositionFile]:
    """The file's name for messages (a puzzle's own name if it has one) and what it holds: a
    puzzle, or a position."""
    from ..formats import parse_puzzles, read_text
    from ..probability import parse_position

    source = "<stdin>" if path == "-" else path
    with fail_on_error():
        text = read_text(path)
    twice = _given_twice(text)
    if twice is not None:
        fail(f"{source}: field {twice!r} is given twice in one object: give it once")
    if _is_position(text):
        with fail_on_error():
            return source, parse_position(text, source=source)
    with fail_on_error():
        puzzles = parse_puzzles(text, origin=source)
    if len(puzzles) != 1:
        fail(f"{source}: {len(puzzles)} puzzles: a trace takes one")
    return puzzles[0].name or source, puzzles[0]


def _given_twice(text: str) -> str | None:
    """A key that some JSON object of ``text`` (JSON, or JSON Lines) gives twice, else
    ``None`` (also for text that is not JSON: the readers say what is wrong with it)."""

    def unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
        seen: dict[str, object] = {}
        for key, value in pairs:
            if key in seen:
                raise _Twice(key)
            seen[key] = value
        return seen

    for chunk in (text, *text.splitlines()):
        try:
            json.loads(chunk, object_pairs_hook=unique)
        except _Twice as twice:
            return str(twice.args[0])
        except (ValueError, RecursionError):
            continue
        if chunk is text:  # the whole text is one JSON value: its lines are not read
            return None
    return None


class _Twice(Exception):
    """A JSON object gives a key twice (the key is the argument)."""


def _is_position(text: str) -> bool:
    """Whether ``text`` is a position file: one object of a board and a mine total (as the
    live page's loader tells them from puzzles)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and "mines" in data and set(data) <= {"board", "mines"}


def _start(where: str, board: Board, cell: tuple[int, int]) -> int:
    """``--start``'s index, checked against ``board``."""
    geometry = board.geometry
    row, col = cell
    if not geometry.contains(row, col):
        fail(f"{where}: --start [{row}, {col}] is off the {geometry.rows}x{geometry.cols} board")
    index = geometry.index(row, col)
    if index in board.mines:
        fail(f"{where}: --start [{row}, {col}] is a mine")
    return index


class _Json:
    """Each event as one line of JSON."""

    def lines(self, event: Event) -> list[str]:
        return [json.dumps(event, separators=(",", ":"))]
