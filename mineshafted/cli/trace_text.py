"""The events of ``mineshafted trace`` as the Mine Shafted assignment writes them: the text
output, at the grain of ``--steps`` (every event on its line, one line per arc revised, one
table per round)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from ..board import PartialGrid
    from ..solver import events as ev

__all__ = ["Text"]


class Text:
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

    def lines(self, event: ev.Event) -> list[str]:
        """The lines ``event`` completes: those waiting before it, then its own."""
        out: list[str] = []
        if event["round"] > self.round:
            out += self.flush() + self.summary()
            self.round = event["round"]
            out.append(f"round {self.round}")
        kind = event["event"]
        if kind != "explore":
            out += self._explored()
        if kind != "requeue":
            out += self.flush()
        handler = self._HANDLERS.get(kind)
        if handler is not None:
            out += handler(self, event)
        return out

    # -- one event each -----------------------------------------------------------------------

    def _board(self, event: ev.BoardEvent) -> list[str]:
        self.position = event["start"] is None
        out = [self.heading, "cell indices:", *_indices(event["rows"], event["cols"])]
        if self.position:
            out += ["as known:", *_indented(_render(event["grid"]))]
        return out

    def _explore(self, event: ev.ExploreEvent) -> list[str]:
        self.explored.append(f"{event['cell']} (clue {event['clue']})")
        self._count("explored")
        return []

    def _clue_count(self, event: ev.CountEvent) -> list[str]:
        cells, mines = _cells(event["cells"]), event["mines"]
        what = "all mines" if event["mine"] else "all safe"
        self._count("count")
        if self.steps == "round":
            return []
        return [
            f"  count: {event['variable']} (clue {event['clue']}) has {mines} mine(s) "
            f"left among {cells}: {what}"
        ]

    def _variables(self, event: ev.VariablesEvent) -> list[str]:
        self.removed = {v["variable"]: [] for v in event["variables"]}
        self.queue = deque((x, y) for x, y in event["arcs"])
        for v in event["variables"]:
            self.clue[v["variable"]] = v["clue"]
            self.scope[v["variable"]] = v["cells"]
        self.tally |= {"variables": len(event["variables"]), "arcs": len(event["arcs"])}
        if self.steps == "round":
            return []
        out = [f"  AC-3 over {len(event['variables'])} clue variable(s):"]
        width = _width(v["variable"] for v in event["variables"])
        for v in event["variables"]:
            values = " ".join(_value(d, v["cells"]) for d in v["domain"])
            out.append(f"    {v['variable']:>{width}}  clue {v['clue']}: {values}")
        arcs = " ".join(_pair(arc) for arc in event["arcs"])
        out.append(f"  arcs, queued in this order: {arcs or 'none'}")
        return out

    def _arc(self, event: ev.ArcEvent) -> list[str]:
        self.queue.popleft()
        if self.steps != "fine":
            return []
        return [
            f"  arc {_pair(event['arc'])} from the queue: shared cells {_cells(event['shared'])}"
        ]

    def _revise(self, event: ev.ReviseEvent) -> list[str]:
        x = event["arc"][0]
        for value in event["removed"]:
            self.removed[x].append(f"{_value(value, self.scope[x])} by {_pair(event['arc'])}")
        self._count("revisions")
        if self.steps == "round":
            return []
        self.pending.append(self._revision(event))
        if self.steps != "fine":
            return []
        out = self.flush()
        if not event["removed"]:
            out.append(self._queue())
        return out

    def _revision(self, event: ev.ReviseEvent) -> str:
        """One revision's line: what it removed and why, or that it removed nothing."""
        x, y = event["arc"]
        if not event["removed"]:
            return f"  revise {_pair(event['arc'])}: consistent, nothing removed"
        shared = sorted(set(self.scope[x]) & set(self.scope[y]))
        values = " ".join(_value(v, self.scope[x]) for v in event["removed"])
        allows = " ".join(_value(v, shared) for v in event["others"])
        return (
            f"  revise {_pair(event['arc'])}: remove {values} from {x}: {y} allows "
            f"only {allows} on cells {_cells(shared)}"
        )

    def _requeue(self, event: ev.RequeueEvent) -> list[str]:
        self.queue.extend((z, w) for z, w in event["arcs"])
        arcs = " ".join(_pair(arc) for arc in event["arcs"]) or self._none(event["arc"][0])
        if self.steps == "fine":
            return [f"  requeue {arcs}", self._queue()]
        if self.steps == "arc":
            self.pending[-1] += f"; requeue {arcs}"
            return self.flush()
        return []

    def _subset(self, event: ev.SubsetEvent) -> list[str]:
        self._count("derived")
        if self.steps == "round":
            return []
        within, of, difference = event["within"], event["of"], event["difference"]
        return [
            f"  subset: {_constraint(within)} lies within {_constraint(of)}, so "
            f"{_constraint(difference)}"
        ]

    def _decided_event(self, event: ev.DecidedEvent) -> list[str]:
        return self.summary() + self._decided(event)

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

    def _decided(self, event: ev.DecidedEvent) -> list[str]:
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

    def _end(self, event: ev.EndEvent) -> list[str]:
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

    _HANDLERS: ClassVar[dict[str, Callable[[Text, Any], list[str]]]] = {
        "board": _board,
        "explore": _explore,
        "count": _clue_count,
        "variables": _variables,
        "arc": _arc,
        "revise": _revise,
        "requeue": _requeue,
        "subset": _subset,
        "decided": _decided_event,
        "end": _end,
    }
    """Each event's kind -> what it writes (and keeps for later); ``lines`` passes each its
    own kind of event."""


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


def _constraint(constraint: ev.Constraint) -> str:
    """A constraint of the subset rung, its mines among its cells: ``{2, 5} = 1 (from 1)``."""
    clues = _cells(constraint["clues"])
    return f"{{{_cells(constraint['cells'])}}} = {constraint['mines']} (from {clues})"
