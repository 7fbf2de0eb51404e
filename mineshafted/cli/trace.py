"""``mineshafted trace``: AC-3 (or count, or subset) on one board, step by step, as the Mine
Shafted assignment writes it."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Annotated, Final

import typer

from .options import parse_cell
from .output import emit, fail, fail_on_error

if TYPE_CHECKING:
    from ..board import Board, PartialGrid
    from ..formats import Puzzle
    from ..probability import PositionFile
    from ..solver.plain import Requeue
    from ..solver.technique import Technique
    from ..solver.trace import Constraint, Event

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
            f"{where}: {rows}x{cols}, {read.board.mine_count} mines; {rung.value} from index "
            f"{index} (row {r}, column {c})"
        )
        board = BoardManager(read.board)
        events = trace(board, rung, start=index, mines=read.board.mine_count, requeue=rule)
        first = next(events)
    shown = _Json() if json_output else _Text(heading, steps, rule)
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


# -- showing events ---------------------------------------------------------------------------


class _Json:
    """Each event as one line of JSON."""

    def lines(self, event: Event) -> list[str]:
        return [json.dumps(event, separators=(",", ":"))]


class _Text:
    """Events as the assignment writes them, at the grain of ``--steps``.

    Lines a later event completes (explored cells, a revision and its requeue) wait in
    :attr:`pending` until it comes or another event does."""

    def __init__(self, heading: str, steps: str, requeue: str) -> None:
        self.heading = heading
        self.steps = steps
        self.requeue = requeue
        self.round = 0
        self.position = False
        self.pending: list[str] = []
        self.explored: list[str] = []
        self.clue: dict[int, int] = {}
        self.scope: dict[int, list[int]] = {}
        self.removed: dict[int, list[str]] = {}
        self.queue: deque[tuple[int, int]] = deque()
        self.tally: dict[str, int] = {}

    def lines(self, event: Event) -> list[str]:
        out: list[str] = []
        if event["round"] > self.round:
            out += self.flush() + self.summary()
            self.round = event["round"]
            out.append(f"round {self.round}")
        kind = event["event"]
        if kind != "explore":
            out += self._explored()
        if kind not in ("requeue",):
            out += self.flush()
        if event["event"] == "board":
            self.position = event["start"] is None
            out += [self.heading, "cell indices:", *_indices(event["rows"], event["cols"])]
            if self.position:
                out += ["as known:", *_indented(_render(event["grid"]))]
        elif event["event"] == "explore":
            self.explored.append(f"{event['cell']} (clue {event['clue']})")
            self._count("explored")
        elif event["event"] == "count":
            cells, mines = _cells(event["cells"]), event["mines"]
            what = "all mines" if event["mine"] else "all safe"
            self._count("count")
            if self.steps != "round":
                out.append(
                    f"  count: {event['variable']} (clue {event['clue']}) has {mines} mine(s) "
                    f"left among {cells}: {what}"
                )
        elif event["event"] == "variables":
            self.removed = {v["variable"]: [] for v in event["variables"]}
            self.queue = deque((x, y) for x, y in event["arcs"])
            for v in event["variables"]:
                self.clue[v["variable"]] = v["clue"]
                self.scope[v["variable"]] = v["cells"]
            if self.steps != "round":
                out.append(f"  AC-3 over {len(event['variables'])} clue variable(s):")
                width = _width(v["variable"] for v in event["variables"])
                for v in event["variables"]:
                    values = " ".join(_value(d, v["cells"]) for d in v["domain"])
                    out.append(f"    {v['variable']:>{width}}  clue {v['clue']}: {values}")
                arcs = " ".join(_pair(arc) for arc in event["arcs"])
                out.append(f"  arcs, queued in this order: {arcs or 'none'}")
            self.tally |= {"variables": len(event["variables"]), "arcs": len(event["arcs"])}
        elif event["event"] == "arc":
            self.queue.popleft()
            if self.steps == "fine":
                out.append(
                    f"  arc {_pair(event['arc'])} from the queue: shared cells "
                    f"{_cells(event['shared'])}"
                )
        elif event["event"] == "revise":
            x, y = event["arc"]
            for value in event["removed"]:
                self.removed[x].append(f"{_value(value, self.scope[x])} by {_pair(event['arc'])}")
            self._count("revisions")
            if self.steps != "round":
                shared = sorted(set(self.scope[x]) & set(self.scope[y]))
                if event["removed"]:
                    values = " ".join(_value(v, self.scope[x]) for v in event["removed"])
                    allows = " ".join(_value(v, shared) for v in event["others"])
                    line = (
                        f"  revise {_pair(event['arc'])}: remove {values} from {x}: {y} allows "
                        f"only {allows} on cells {_cells(shared)}"
                    )
                else:
                    line = f"  revise {_pair(event['arc'])}: consistent, nothing removed"
                self.pending.append(line)
                if self.steps == "fine":
                    out += self.flush()
                    if not event["removed"]:
                        out.append(self._queue())
        elif event["event"] == "requeue":
            self.queue.extend((z, w) for z, w in event["arcs"])
            arcs = " ".join(_pair(arc) for arc in event["arcs"]) or self._none(event["arc"][0])
            if self.steps == "fine":
                out += [f"  requeue {arcs}", self._queue()]
            elif self.steps == "arc":
                self.pending[-1] += f"; requeue {arcs}"
                out += self.flush()
        elif event["event"] == "subset":
            self._count("derived")
            if self.steps != "round":
                within, of, difference = event["within"], event["of"], event["difference"]
                out.append(
                    f"  subset: {_constraint(within)} lies within {_constraint(of)}, so "
                    f"{_constraint(difference)}"
                )
        elif event["event"] == "decided":
            out += self.summary()
            out += self._decided(event)
        elif event["event"] == "end":
            out += self._end(event)
        return out

    # -- pieces -------------------------------------------------------------------------------

    def flush(self) -> list[str]:
        out, self.pending = self.pending, []
        return out

    def _explored(self) -> list[str]:
        if not self.explored or self.steps == "round":
            self.explored = []
            return []
        out = [f"  explore {', '.join(self.explored)}"]
        self.explored = []
        return out

    def _count(self, name: str) -> None:
        self.tally[name] = self.tally.get(name, 0) + 1

    def summary(self) -> list[str]:
        """In round steps, what the round did before its fixed point, in one line."""
        tally, self.tally = self.tally, {}
        if self.steps != "round" or not tally:
            return []
        words = {
            "explored": "cell(s) explored",
            "count": "clue(s) decided their cells alone",
            "variables": "variable(s)",
            "arcs": "arc(s)",
            "revisions": "revision(s)",
            "derived": "difference(s) derived",
        }
        return ["  " + ", ".join(f"{n:,} {words[k]}" for k, n in tally.items())]

    def _none(self, x: int) -> str:
        """What a requeue that puts no arc back says."""
        if self.requeue == "textbook":
            return f"none (no other arc into {x}, or each is queued already)"
        return f"none (each arc into {x} is queued already)"

    def _queue(self) -> str:
        return f"    queue: {' '.join(_pair(arc) for arc in self.queue) or 'empty'}"

    def _decided(self, event: Event) -> list[str]:
        assert event["event"] == "decided"
        out = []
        if event["domains"]:
            out.append("  fixed point (variable, clue: domain; removed by arc):")
            width = _width(d["variable"] for d in event["domains"])
            for d in event["domains"]:
                x = d["variable"]
                values = " ".join(_value(v, self.scope[x]) for v in d["domain"])
                gone = f"; removed {', '.join(self.removed[x])}" if self.removed.get(x) else ""
                out.append(f"    {x:>{width}}  clue {self.clue[x]}: {values}{gone}")
        cells = event["cells"]
        if not cells:
            return [*out, f"  decided: nothing: {event['technique']} stalls here"]
        said = [
            f"{c['cell']} {'mine' if c['mine'] else 'safe'} (by {', '.join(map(str, c['by']))})"
            for c in cells
        ]
        out.append(f"  decided: {'; '.join(said)}")
        safe = [c["cell"] for c in cells if not c["mine"]]
        if safe and not self.position:
            out.append(f"  explored next: {_cells(safe)} (their clues become variables)")
        return out

    def _end(self, event: Event) -> list[str]:
        assert event["event"] == "end"
        out = self.summary()
        rounds = f"{event['round']} round(s)"
        if event["contradiction"] is not None:
            out.append(f"contradiction after {rounds}: {event['contradiction']}")
        elif event["solved"]:
            out.append(f"solved in {rounds}:")
        else:
            left = len(event["undetermined"])
            out.append(f"stalled after {rounds}: {left} cell(s) undetermined (?):")
        out += _indented(_render(event["grid"]))
        if event["safe"]:
            out.append(f"safe, not explored: {_cells(event['safe'])}")
        return out


def _indices(rows: int, cols: int) -> list[str]:
    """The board's cells as their indices, a row a line."""
    width = len(str(rows * cols - 1))
    return ["    " + " ".join(f"{r * cols + c:>{width}}" for c in range(cols)) for r in range(rows)]


def _render(grid: PartialGrid) -> str:
    from ..board import render

    return render(grid)


def _indented(text: str) -> list[str]:
    return ["    " + line for line in text.splitlines()]


def _width(numbers: Iterator[int] | Sequence[int]) -> int:
    return max((len(str(n)) for n in numbers), default=1)


def _value(mined: Sequence[int], cells: Sequence[int]) -> str:
    """The value that mines ``mined`` of ``cells`` as the assignment writes it, each cell
    negative when safe: ``(2, 5, -8)`` (a safe index 0 as ``-0``)."""
    return "(" + ", ".join(str(c) if c in mined else f"-{c}" for c in cells) + ")"


def _pair(arc: Sequence[int]) -> str:
    return f"({arc[0]}, {arc[1]})"


def _cells(cells: Sequence[int]) -> str:
    return ", ".join(map(str, cells))


def _constraint(constraint: Constraint) -> str:
    """A constraint of the subset rung, its mines among its cells: ``{2, 5} = 1 (from 1)``."""
    clues = _cells(constraint["clues"])
    return f"{{{_cells(constraint['cells'])}}} = {constraint['mines']} (from {clues})"
