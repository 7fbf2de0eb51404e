"""Events: what a trace (:mod:`.trace`) tells, one JSON object at a time; the one place their
kinds and fields are defined (:data:`KINDS`, and a ``TypedDict`` per kind below).

``mineshafted trace --json`` prints them as they are, the live page's Learn tab steps through
them, and the students' guide (``docs/guides/learn.md``) lists them. A :class:`Recorder` is
the plain rungs' observer (:class:`~.plain.Observer`) that turns what they tell into them.

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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, TypedDict

from ..board import Cell, PartialGrid
from . import plain
from .clues import Clues
from .technique import Technique

__all__ = [
    "KINDS",
    "ArcEvent",
    "BoardEvent",
    "Constraint",
    "CountEvent",
    "DecidedCell",
    "DecidedEvent",
    "Domain",
    "EndEvent",
    "Event",
    "ExploreEvent",
    "Recorder",
    "RequeueEvent",
    "ReviseEvent",
    "SubsetEvent",
    "Value",
    "Variable",
    "VariablesEvent",
    "notation",
]

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


def notation(value: Sequence[Cell], cells: Sequence[Cell]) -> list[int]:
    """A value in the assignment's notation: each of ``cells`` (ascending), negative when
    safe.

    >>> notation([2, 5], [2, 5, 8])
    [2, 5, -8]
    """
    mined = set(value)
    return [cell if cell in mined else -cell for cell in sorted(cells)]


class Recorder(plain.Observer):
    """What a plain rung reports (:class:`~.plain.Observer`), as the events of a trace's round
    (:attr:`events`): told over ``clues``, with ``shown`` the cells as known (a clue's number
    at its index), in round ``round_`` of a trace of ``technique``."""

    def __init__(
        self, clues: Clues, shown: Sequence[int | None], round_: int, technique: Technique
    ) -> None:
        self.clues = clues
        self.shown = shown
        self.round = round_
        self.technique = technique
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
                    "round": self.round,
                    "variable": clue,
                    "clue": self.clue(clue),
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
                "round": self.round,
                "within": _constraint(within, origin[within]),
                "of": _constraint(of, origin[of]),
                "difference": _constraint(difference, origin[difference]),
            }
        )

    def passed(self, facts: plain.Facts) -> None:
        if facts and self.technique is Technique.SUBSET:
            self.events.append(self.decided(facts, self.by, []))

    # -- ac3 ----------------------------------------------------------------------------------

    def started(self, domains: dict[Cell, set[plain.Arrangement]], arcs: list[plain.Arc]) -> None:
        self.domains = domains  # ac3's own: it shrinks as ac3 goes
        self.events.append(
            {
                "event": "variables",
                "round": self.round,
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
        round_ = self.round
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
        self.events.append(self.decided(facts, by, final))

    def variable(self, x: Cell, mines: int, domain: set[plain.Arrangement]) -> Variable:
        """The variable ``x`` as AC-3 starts with it."""
        values, written = self.values(x, domain)
        clue = self.clue(x)
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

    def clue(self, cell: Cell) -> int:
        """The number the clue at ``cell`` shows."""
        value = self.shown[cell]
        assert value is not None
        return value

    def decided(
        self, facts: plain.Facts, by: dict[Cell, list[Cell]], domains: list[Domain]
    ) -> DecidedEvent:
        """The ``decided`` event of the rung's fixed point (of a pass, for ``subset``)."""
        return {
            "event": "decided",
            "round": self.round,
            "technique": self.technique.value,
            "cells": [{"cell": c, "mine": facts[c], "by": by[c]} for c in sorted(facts)],
            "domains": domains,
        }


def _constraint(constraint: plain.Constraint, clues: list[Cell]) -> Constraint:
    cells, mines = constraint
    return {"cells": sorted(cells), "mines": mines, "clues": clues}
