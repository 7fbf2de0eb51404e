"""Trace: a solve told one event at a time, as the Mine Shafted assignment tells AC-3.

A trace runs the plain rungs (:mod:`.plain`) over a board behind a manager (:func:`trace`)
or over a position a player sees (:func:`trace_position`) and says what each does: every
cell explored, every clue that decides its cells alone, AC-3's clue variables, domains and
arcs, every revision with the values it removed and why, the arcs put back on the queue,
and at the fixed point the cells decided and the variables whose domains decide them. The
events are plain JSON objects; ``mineshafted trace`` prints them (``--json``: as they are)
and the live page's Learn tab steps through the same list. This module is the one place
their fields are defined (:data:`KINDS`, and a ``TypedDict`` per kind below).

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
Every event has ``event`` (its kind) and ``round`` (from 1; the ``board`` event's is 0).
Cells are row-major indices, as the assignment numbers them. A *value* of a clue variable
(one way to place its mines among its unknown cells) is written as the sorted list of the
cells it mines (``domain``), and also in the assignment's notation (``notation``): each of
the variable's cells, negative when safe, ``[2, 5, -8]``. (Index 0 has no negative: where a
variable's cells hold index 0, read ``domain``.)

``board``
    ``rows``, ``cols``, ``technique``, ``start`` (the first move's index; ``null`` for a
    position), ``mines`` (the mine total, ``null`` when not given), ``grid`` (the cells as
    known before the first move: a clue 0-8, ``-1`` a known mine, ``null`` unknown).
``explore``
    A move onto a safe cell: ``cell`` and the ``clue`` it shows.
``count``
    One clue decides its cells alone: ``variable`` (the clue's index), ``clue`` (its
    number), ``cells`` (its unknown cells), ``mines`` (the mines among them: the clue less
    the known mines around it), ``mine`` (``true``: all mines; ``false``: all safe).
``variables``
    AC-3 starts: ``variables``, each with ``variable``, ``clue``, ``cells``, ``mines``,
    ``domain`` and ``notation`` (its first domain: every arrangement of its mines among its
    cells); ``arcs``, every arc ``[x, y]`` (x and y share a cell) in the order queued.
``arc``
    An arc taken from the queue to be revised: ``arc`` and the ``shared`` cells.
``revise``
    The arc revised: ``arc``; ``removed``, the values of x that no value of y agrees with on
    the shared cells (each as the cells it mines, with ``notation``); ``others``, why: the
    values y allows on the shared cells (each as the shared cells it mines); ``left``, the
    number of values x keeps.
``requeue``
    After a revision that removed something: ``arc`` and ``arcs``, the arcs put back on the
    queue: every arc into x (by the default rule, the assignment's, the one from y too; by the
    textbook's, all but that one: :data:`~.plain.Requeue`) that is not on it already.
``subset``
    One constraint's cells lie within another's: ``within`` and ``of``, and their
    ``difference``, each ``{"cells", "mines", "clues"}`` (the clues it comes from).
``decided``
    The rung's fixed point: ``technique``; ``cells``, each ``{"cell", "mine", "by"}`` (the
    clues whose constraints, or variables whose domains, decide it: for ``ac3`` every
    variable whose values all mine the cell, or all leave it free); ``domains`` (``ac3``:
    each variable's domain at the fixed point, with ``variable``, ``domain``, ``notation``).
``end``
    ``solved`` (every cell decided), ``grid`` (as found: clues, ``-1`` the mines decided or
    known, ``null`` not explored), ``safe`` (the cells decided safe but not explored: a
    position's), ``undetermined`` (the cells no step decided), ``contradiction`` (the clues
    met a contradiction on the way: one line; else ``null``. A board behind a manager has
    none, and a position that has one is refused before its trace begins).

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
from typing import Final, Literal, TypedDict

from ..board import MINE, Cell, Geometry, PartialGrid
from ..errors import ContradictionError, NoPlacementError, Why
from . import plain
from .clues import Clues, clue_constraint, clues_of, position_from
from .count import CountTooLargeError, counted
from .manager import Manager
from .technique import Technique
from .total import tally

__all__ = [
    "KINDS",
    "TRACED",
    "ArcEvent",
    "BoardEvent",
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

KINDS: Final = (
    "board",
    "explore",
    "count",
    "variables",
    "arc",
    "revise",
    "requeue",
    "subset",
    "decided",
    "end",
)
"""Every kind of event, in the order a round may show them."""

TRACED: Final = (Technique.COUNT, Technique.SUBSET, Technique.AC3)
"""The rungs a trace can show: those that reason clue by clue (``complete`` and ``total``
list placements, which is no story to step through)."""

Value = list[Cell]
"""A variable's value, as the sorted cells it mines."""


class BoardEvent(TypedDict):
    """``board``: what is traced (see the module's Events)."""

    event: Literal["board"]
    round: int
    rows: int
    cols: int
    technique: str
    start: Cell | None
    mines: int | None
    grid: PartialGrid


class ExploreEvent(TypedDict):
    """``explore``: a move onto a safe cell."""

    event: Literal["explore"]
    round: int
    cell: Cell
    clue: int


class CountEvent(TypedDict):
    """``count``: one clue decides its cells alone."""

    event: Literal["count"]
    round: int
    variable: Cell
    clue: int
    cells: list[Cell]
    mines: int
    mine: bool


class Variable(TypedDict):
    """A clue variable as AC-3 starts with it."""

    variable: Cell
    clue: int
    cells: list[Cell]
    mines: int
    domain: list[Value]
    notation: list[list[int]]


class VariablesEvent(TypedDict):
    """``variables``: AC-3's variables, first domains and arcs."""

    event: Literal["variables"]
    round: int
    variables: list[Variable]
    arcs: list[list[Cell]]


class ArcEvent(TypedDict):
    """``arc``: an arc taken from the queue."""

    event: Literal["arc"]
    round: int
    arc: list[Cell]
    shared: list[Cell]


class ReviseEvent(TypedDict):
    """``revise``: an arc revised."""

    event: Literal["revise"]
    round: int
    arc: list[Cell]
    removed: list[Value]
    notation: list[list[int]]
    others: list[Value]
    left: int


class RequeueEvent(TypedDict):
    """``requeue``: arcs put back after a removal."""

    event: Literal["requeue"]
    round: int
    arc: list[Cell]
    arcs: list[list[Cell]]


class Constraint(TypedDict):
    """A constraint of the subset rung: ``mines`` mines among ``cells``, from ``clues``."""

    cells: list[Cell]
    mines: int
    clues: list[Cell]


class SubsetEvent(TypedDict):
    """``subset``: a constraint within another, and their difference."""

    event: Literal["subset"]
    round: int
    within: Constraint
    of: Constraint
    difference: Constraint


class DecidedCell(TypedDict):
    """A cell a rung decided, and what decides it."""

    cell: Cell
    mine: bool
    by: list[Cell]


class Domain(TypedDict):
    """A variable's domain at AC-3's fixed point."""

    variable: Cell
    domain: list[Value]
    notation: list[list[int]]


class DecidedEvent(TypedDict):
    """``decided``: a rung's fixed point."""

    event: Literal["decided"]
    round: int
    technique: str
    cells: list[DecidedCell]
    domains: list[Domain]


class EndEvent(TypedDict):
    """``end``: how the trace ended."""

    event: Literal["end"]
    round: int
    solved: bool
    grid: PartialGrid
    safe: list[Cell]
    undetermined: list[Cell]
    contradiction: str | None


Event = (
    BoardEvent
    | ExploreEvent
    | CountEvent
    | VariablesEvent
    | ArcEvent
    | ReviseEvent
    | RequeueEvent
    | SubsetEvent
    | DecidedEvent
    | EndEvent
)
"""One event of a trace: a JSON-ready object."""


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


def notation(value: Sequence[Cell], cells: Sequence[Cell]) -> list[int]:
    """A value in the assignment's notation: each of ``cells`` (ascending), negative when
    safe.

    >>> notation([2, 5], [2, 5, 8])
    [2, 5, -8]
    """
    mined = set(value)
    return [cell if cell in mined else -cell for cell in sorted(cells)]


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

    def rung(self, clues: Clues, recorder: _Recorder) -> plain.Facts:
        """The plain rung traced, to its own fixed point."""
        if self.technique is Technique.AC3:
            return plain.ac3(clues, recorder, requeue=self.requeue)
        if self.technique is Technique.SUBSET:
            return plain.subset(clues, recorder)
        return plain.count(clues, recorder)

    def told(
        self, deduce: Callable[[Clues, _Recorder], plain.Facts]
    ) -> Generator[Event, None, plain.Facts]:
        """The events of a plain rung (or pass) over the clues as known, as its observer is
        told them; what it decides is taken as known, and returned."""
        clues = self.clues()
        recorder = _Recorder(self, clues)
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

    def decided(
        self, facts: plain.Facts, by: dict[Cell, list[Cell]], domains: list[Domain]
    ) -> DecidedEvent:
        return {
            "event": "decided",
            "round": self.round,
            "technique": self.technique.value,
            "cells": [{"cell": c, "mine": facts[c], "by": by[c]} for c in sorted(facts)],
            "domains": domains,
        }


class _Recorder(plain.Observer):
    """What a plain rung reports, as events."""

    def __init__(self, tracer: _Tracer, clues: Clues) -> None:
        self.tracer = tracer
        self.clues = clues
        self.scope = {clue.cell: sorted(clue.cells) for clue in clues.constraints}
        self.events: list[Event] = []
        self.domains: dict[Cell, set[plain.Arrangement]] = {}
        self.origin: dict[plain.Constraint, list[Cell]] = {}
        """``subset``: each constraint of the closure -> the clues it comes from."""
        self.by: dict[Cell, list[Cell]] = {}
        """``subset``: each cell decided in this pass -> the clues of what decided it."""

    # -- count and subset ---------------------------------------------------------------------

    def passing(self, clues: Clues) -> None:
        self.origin, self.by = {}, {}
        for clue in clues.constraints:
            self.origin.setdefault((frozenset(clue.cells), clue.mines), [clue.cell])

    def counted(self, constraint: plain.Constraint, clue: Cell | None) -> None:
        cells, mines = constraint
        if clue is not None:
            self.events.append(
                {
                    "event": "count",
                    "round": self.tracer.round,
                    "variable": clue,
                    "clue": self.tracer.clue(clue),
                    "cells": sorted(cells),
                    "mines": mines,
                    "mine": mines > 0,
                }
            )
            return
        for cell in cells:
            self.by.setdefault(cell, self.origin[constraint])

    def derived(
        self, within: plain.Constraint, of: plain.Constraint, difference: plain.Constraint
    ) -> None:
        origin = self.origin
        origin[difference] = sorted({*origin[within], *origin[of]})
        self.events.append(
            {
                "event": "subset",
                "round": self.tracer.round,
                "within": _constraint(within, origin[within]),
                "of": _constraint(of, origin[of]),
                "difference": _constraint(difference, origin[difference]),
            }
        )

    def passed(self, facts: plain.Facts) -> None:
        if facts and self.tracer.technique is Technique.SUBSET:
            self.events.append(self.tracer.decided(facts, self.by, []))

    # -- ac3 ----------------------------------------------------------------------------------

    def started(self, domains: dict[Cell, set[plain.Arrangement]], arcs: list[plain.Arc]) -> None:
        self.domains = domains  # ac3's own: it shrinks as ac3 goes
        self.events.append(
            {
                "event": "variables",
                "round": self.tracer.round,
                "variables": [
                    self.variable(clue.cell, clue.mines, domains[clue.cell])
                    for clue in self.clues.constraints
                ],
                "arcs": [[x, y] for x, y in arcs],
            }
        )

    def revised(
        self, arc: plain.Arc, removed: set[plain.Arrangement], requeued: list[plain.Arc]
    ) -> None:
        x, y = arc
        shared = sorted(set(self.scope[x]) & set(self.scope[y]))
        round_ = self.tracer.round
        self.events.append({"event": "arc", "round": round_, "arc": [x, y], "shared": shared})
        gone, written = self.values(x, removed)
        others = {tuple(sorted(value.intersection(shared))) for value in self.domains[y]}
        self.events.append(
            {
                "event": "revise",
                "round": round_,
                "arc": [x, y],
                "removed": gone,
                "notation": written,
                "others": [list(value) for value in sorted(others)],
                "left": len(self.domains[x]),
            }
        )
        if removed:
            self.events.append(
                {
                    "event": "requeue",
                    "round": round_,
                    "arc": [x, y],
                    "arcs": [[z, w] for z, w in requeued],
                }
            )

    def finished(self, domains: dict[Cell, set[plain.Arrangement]], facts: plain.Facts) -> None:
        by: dict[Cell, list[Cell]] = {}
        for x in sorted(domains):
            for cell in self.scope[x]:
                mined = {cell in value for value in domains[x]}
                if len(mined) == 1:
                    by.setdefault(cell, []).append(x)
        final: list[Domain] = []
        for x in sorted(domains):
            domain, written = self.values(x, domains[x])
            final.append({"variable": x, "domain": domain, "notation": written})
        self.events.append(self.tracer.decided(facts, by, final))

    def variable(self, x: Cell, mines: int, domain: set[plain.Arrangement]) -> Variable:
        """The variable ``x`` as AC-3 starts with it."""
        values, written = self.values(x, domain)
        clue = self.tracer.clue(x)
        cells = self.scope[x]
        return {
            "variable": x,
            "clue": clue,
            "cells": cells,
            "mines": mines,
            "domain": values,
            "notation": written,
        }

    def values(
        self, x: Cell, values: set[plain.Arrangement]
    ) -> tuple[list[Value], list[list[int]]]:
        """``values`` of the variable ``x`` in the order the assignment lists them (mines on
        the lowest cells first): as the cells each mines, and in the assignment's notation."""
        ordered = sorted(sorted(value) for value in values)
        return ordered, [notation(value, self.scope[x]) for value in ordered]


def _check_position(grid: PartialGrid, mines: int | None) -> None:
    """Refuse a position no placement fits, as ``mineshafted probabilities`` does: a clue its
    known mines or unknown neighbours cannot meet (:func:`~.clues.clues_of`, row and column
    named), then the placements counted (:func:`~.total.tally`, under the mine total when
    given). A position too wide to count (past :data:`~.count.MEMORY`) is traced unchecked,
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
            count = counted(tuple(component))
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


def _constraint(constraint: plain.Constraint, clues: list[Cell]) -> Constraint:
    cells, mines = constraint
    return {"cells": sorted(cells), "mines": mines, "clues": clues}
