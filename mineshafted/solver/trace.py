"""Trace: a solve told one event at a time, as the Mine Shafted assignment tells AC-3.

A trace runs the plain rungs (:mod:`.plain`) over a board behind a manager (:func:`trace`)
or over a position a player sees (:func:`trace_position`) and says what each does: every
cell explored, every clue that decides its cells alone, AC-3's clue variables, domains and
arcs, every revision with the values it removed and why, the arcs put back on the queue,
and at the fixed point the cells decided and the variables whose domains decide them. The
events are plain JSON objects; ``mineshafted trace`` prints them (``--json``: as they are)
and the live page's Learn tab steps through the same list; their fields are defined in one
place, :mod:`.events`.

Rounds
------
A trace goes in rounds, as the assignment does. Round 1 explores the start cell. Then, for
``subset`` and ``ac3``, the *cascade*: a clue whose count alone decides its unknown cells (a
0 above all) decides them, they are explored, and so on until nothing is left to explore
(the ``count`` rung, as the assignment's explore loop does it). Then the rung traced runs to
its own fixed point. The cells it decides safe are explored in the next round, whose new
clues become new variables; when it decides none (or every cell is known), the trace ends.
A position has one round: nothing can be explored in it.

Events
------
The kinds and fields of the events are :mod:`.events`'s.

Examples
--------
>>> from mineshafted import BoardManager
>>> events = list(trace(BoardManager([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]])))
>>> [e["event"] for e in events][:4], events[-1]["solved"]
(['board', 'explore', 'count', 'explore'], True)
>>> first = next(e for e in events if e["event"] == "variables")
>>> [(v["variable"], v["notation"]) for v in first["variables"]][:2]
[(1, [[2, -5], [-2, 5]]), (4, [[2, 5, -8], [2, -5, 8], [-2, 5, 8]])]
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Final

from ..board import MINE, Cell, Geometry, PartialGrid
from ..errors import ContradictionError, NoPlacementError, Why
from . import plain
from .clues import Clues, clue_constraint, clues_of, position_from
from .events import (
    KINDS,
    ArcEvent,
    BoardEvent,
    Constraint,
    CountEvent,
    DecidedEvent,
    EndEvent,
    Event,
    ExploreEvent,
    Recorder,
    RequeueEvent,
    ReviseEvent,
    SubsetEvent,
    VariablesEvent,
    notation,
)
from .manager import Manager
from .technique import Technique
from .total import tally
from .weights import CountTooLargeError, weighed

__all__ = [
    "KINDS",
    "TRACED",
    "ArcEvent",
    "BoardEvent",
    "Constraint",
    "CountEvent",
    "DecidedEvent",
    "EndEvent",
    "Event",
    "ExploreEvent",
    "RequeueEvent",
    "ReviseEvent",
    "SubsetEvent",
    "VariablesEvent",
    "notation",
    "trace",
    "trace_position",
]

log = logging.getLogger(__name__)

TRACED: Final = (Technique.COUNT, Technique.SUBSET, Technique.AC3)
"""The rungs a trace can show: those that reason clue by clue (``complete`` and ``total``
list placements, which is no story to step through)."""


def trace(
    bm: Manager,
    technique: Technique = Technique.AC3,
    *,
    start: Cell = 0,
    mines: int | None = None,
    requeue: plain.Requeue = "assignment",
) -> Iterator[Event]:
    """The events of a solve of ``bm`` from ``start`` with ``technique``, one round at a time.

    Parameters
    ----------
    bm:
        The board, behind the assignment's interface (``size``, ``move``, ``get_adjacent``).
    technique:
        ``count``, ``subset`` or ``ac3`` (:data:`TRACED`).
    start:
        The first move's index: a safe cell.
    mines:
        The mine total, shown in the ``board`` event only (no traced rung uses it).
    requeue:
        Which arcs AC-3 puts back after a revision that narrowed a domain
        (:data:`~.plain.Requeue`): the assignment's rule by default, or the textbook's.

    Yields
    ------
    Event
        ``board`` first and ``end`` last (see the module's Events).

    Raises
    ------
    ValueError
        A technique a trace cannot show.

    Examples
    --------
    >>> from mineshafted import BoardManager
    >>> for e in trace(BoardManager([[1, -1, 1]]), Technique.COUNT, start=0):
    ...     print(e["event"], {k: v for k, v in e.items() if k in ("cell", "clue", "cells")})
    board {}
    explore {'cell': 0, 'clue': 1}
    count {'clue': 1, 'cells': [1]}
    end {}

    Notes
    -----
    Each round builds every clue's constraint again and runs the rung over all of them, as
    the plain rungs do: ``O(cells)`` per round plus the rung's own cost (AC-3: every pair
    of values of every arc, at each revision). For reading, on boards of a few thousand
    cells at most.
    """
    rows, cols = bm.size
    _check(technique)
    tracer = _Tracer(Geometry(rows, cols), [None] * (rows * cols), technique, bm, requeue)
    tracer.safe.add(start)
    yield tracer.board(start, mines)
    yield from tracer.run()


def trace_position(
    grid: PartialGrid,
    technique: Technique = Technique.AC3,
    *,
    mines: int | None = None,
    requeue: plain.Requeue = "assignment",
) -> Iterator[Event]:
    """The events of the rung ``technique`` over a position: one round, nothing explored.

    ``grid`` is a checked partial grid (rows of clues 0-8, ``-1`` known mines, ``None``
    unknown); ``mines`` its mine total; ``requeue`` as for :func:`trace`. The position is
    checked first, as ``mineshafted probabilities`` checks one: it must admit a placement of
    its mines (of the mine total, when given) that meets every clue.

    Raises
    ------
    NoPlacementError
        No placement fits: a clue its known mines or unknown neighbours cannot meet (its row
        and column named, from :func:`~.clues.clues_of`), clues that contradict each other,
        or a mine total too small or too large for them. Raised before the first event.
    ValueError
        A technique a trace cannot show.

    Examples
    --------
    >>> events = list(trace_position([[0, 1, None], [0, 2, None], [0, 2, None], [0, 1, None]]))
    >>> decided = next(e for e in events if e["event"] == "decided")
    >>> [(c["cell"], c["mine"], c["by"]) for c in decided["cells"]]
    [(2, False, [1, 4]), (5, True, [1, 4, 7]), (8, True, [4, 7, 10]), (11, False, [7, 10])]
    """
    _check(technique)
    _check_position(grid, mines)
    geometry = Geometry(len(grid), len(grid[0]))
    values = [value for row in grid for value in row]
    tracer = _Tracer(geometry, values, technique, None, requeue)
    for cell, value in enumerate(values):
        if value is not None and value != MINE:
            tracer.rings[cell] = geometry.neighbours(cell)
    yield tracer.board(None, mines)
    yield from tracer.run()


# -- the tracer -------------------------------------------------------------------------------


class _Tracer:
    """A trace in progress: the cells as known, the clues seen, the cells decided safe."""

    def __init__(
        self,
        geometry: Geometry,
        values: list[int | None],
        technique: Technique,
        bm: Manager | None,
        requeue: plain.Requeue,
    ) -> None:
        self.geometry = geometry
        self.values = values
        self.technique = technique
        self.bm = bm
        self.requeue: plain.Requeue = requeue
        self.rings: dict[Cell, Sequence[Cell]] = {}
        """Each revealed clue's neighbours."""
        self.safe: set[Cell] = set()
        """The cells decided safe and not explored (all of them, in a position)."""
        self.round = 0

    def board(self, start: Cell | None, mines: int | None) -> BoardEvent:
        return {
            "event": "board",
            "round": 0,
            "rows": self.geometry.rows,
            "cols": self.geometry.cols,
            "technique": self.technique.value,
            "start": start,
            "mines": mines,
            "grid": self.grid(),
        }

    def run(self) -> Iterator[Event]:
        """Every round, then the end."""
        contradiction = None
        try:
            while True:
                self.round += 1
                yield from self.explore()
                if self.technique > Technique.COUNT:
                    yield from self.cascade()
                if not self.unknown():
                    break
                found = yield from self.told(self.rung)
                if self.bm is None or not any(not mine for mine in found.values()):
                    break
        except ContradictionError as error:
            contradiction = str(error)
        undetermined = [c for c in self.unknown() if c not in self.safe]
        yield {
            "event": "end",
            "round": self.round,
            "solved": not undetermined and contradiction is None,
            "grid": self.grid(),
            "safe": sorted(self.safe),
            "undetermined": undetermined,
            "contradiction": contradiction,
        }

    # -- the steps ----------------------------------------------------------------------------

    def explore(self) -> Iterator[ExploreEvent]:
        """Move onto every cell decided safe (a position has nothing to move onto)."""
        if self.bm is None:
            return
        for cell in sorted(self.safe):
            clue = self.bm.move(cell)
            self.values[cell] = clue
            self.rings[cell] = list(self.bm.get_adjacent(cell))
            yield {"event": "explore", "round": self.round, "cell": cell, "clue": clue}
        self.safe.clear()

    def cascade(self) -> Iterator[Event]:
        """One pass of ``count`` (:func:`~.plain.each_clue`) and explore, until no clue decides
        anything alone: the assignment's explore loop."""
        while True:
            facts = yield from self.told(plain.each_clue)
            if not facts:
                return
            yield from self.explore()

    def rung(self, clues: Clues, recorder: Recorder) -> plain.Facts:
        """The plain rung traced, to its own fixed point."""
        if self.technique is Technique.AC3:
            return plain.ac3(clues, recorder, requeue=self.requeue)
        if self.technique is Technique.SUBSET:
            return plain.subset(clues, recorder)
        return plain.count(clues, recorder)

    def told(
        self, deduce: Callable[[Clues, Recorder], plain.Facts]
    ) -> Generator[Event, None, plain.Facts]:
        """The events of a plain rung (or pass) over the clues as known, as its observer is
        told them; what it decides is taken as known, and returned."""
        clues = self.clues()
        recorder = Recorder(clues, self.values, self.round, self.technique)
        try:
            facts = deduce(clues, recorder)
        except ContradictionError:
            yield from recorder.events  # up to the step that met the contradiction
            raise
        yield from recorder.events
        self.learn(facts)
        return facts

    # -- what is known ------------------------------------------------------------------------

    def clues(self) -> Clues:
        """What the clues seen say, the cells decided safe taken as known."""
        said = [clue_constraint(self.values, cell, ring) for cell, ring in self.rings.items()]
        for clue in said:
            if not clue.cells and clue.mines:  # every cell around it known, and it is not met
                raise ContradictionError(f"the clue at cell {clue.cell} cannot hold")
        constraints = tuple(sorted((c for c in said if c.cells), key=lambda c: c.cell))
        clues = Clues(constraints, tuple(self.unknown()))
        return clues.reduced(dict.fromkeys(sorted(self.safe), False))

    def learn(self, facts: plain.Facts) -> None:
        """Take ``facts`` as known: mines marked, safe cells to explore."""
        for cell, mine in facts.items():
            if mine:
                self.values[cell] = MINE
            else:
                self.safe.add(cell)

    def unknown(self) -> list[Cell]:
        """The cells neither explored nor known to be mines."""
        return [cell for cell, value in enumerate(self.values) if value is None]

    def clue(self, cell: Cell) -> int:
        """The number the clue at ``cell`` shows."""
        value = self.values[cell]
        assert value is not None
        return value

    def grid(self) -> PartialGrid:
        """The cells as known, as rows."""
        cols = self.geometry.cols
        return [self.values[r * cols : (r + 1) * cols] for r in range(self.geometry.rows)]


def _check_position(grid: PartialGrid, mines: int | None) -> None:
    """Refuse a position no placement fits, as ``mineshafted probabilities`` does: a clue its
    known mines or unknown neighbours cannot meet (:func:`~.clues.clues_of`, row and column
    named), then the placements counted (:func:`~.total.tally`, under the mine total when
    given). A position too wide to count (past :data:`~.weights.MEMORY`) is traced unchecked,
    with a warning: a contradiction its rung meets still ends its trace.

    Raises
    ------
    NoPlacementError
        No placement fits.
    """
    clues = clues_of(grid)
    found = sum(row.count(MINE) for row in grid)
    if mines is not None and mines < found:
        raise NoPlacementError(f"{mines} mine(s) in all, but {found} are known", why=Why.TOO_FEW)
    position = position_from(grid, [c.constraint for c in clues.constraints], clues.unknown, found)
    try:
        if mines is not None:
            tally(position, mines)
            return
        for component in position.components:  # without the total: each on its own
            count = weighed(tuple(component))
            if not any(count.placements):
                raise NoPlacementError(
                    f"the clues contradict each other around cells {count.cells}",
                    why=Why.CLUES,
                    cells=count.cells,
                )
    except CountTooLargeError as error:
        log.warning("the position is not checked: %s", error)


def _check(technique: Technique) -> None:
    """Refuse a rung a trace cannot show."""
    if technique not in TRACED:
        names = ", ".join(t.value for t in TRACED)
        raise ValueError(f"a trace shows {names}, not {technique.value!r}")
