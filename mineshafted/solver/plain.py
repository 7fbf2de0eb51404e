"""The ladder, plainly: each rung of the reasoning ladder in a few lines over plain sets.

Read this beside the Mine Shafted assignment. Each rung is one function, ``rung(clues) ->
facts``: from what the revealed clues say (:class:`~.clues.Clues`), the unknown cells it
decides, each mapped to whether it holds a mine. A rung runs to its own fixed point: what it
decides is taken as known and it looks again, until nothing is new; nothing is revealed
meanwhile (revealing is the sweep's part: :func:`sweep`). Each rung decides all that the rungs
before it decide, and more.

``count``
    A clue with no mine left to place has only safe cells; one with as many mines as unknown
    cells has only mines.
``subset``
    If one constraint's cells lie within another's, the difference of their cells holds the
    difference of their mines: derive to a fixed point, then count every constraint.
``ac3``
    AC-3 over the clue variables: each clue's domain is every arrangement of its mines among
    its unknown cells; an arc joins two clues that share a cell; revising an arc removes the
    values that no value of the other clue agrees with, and puts the arcs into it back on the
    queue; a cell mined in every value of some domain, or in none, is decided.
``complete``
    Every placement of mines that meets all the clues together; a cell with one value in all
    of them is decided.
``total``
    The same, over the placements that also hold exactly the mines left.

These are the specification: the fast rungs behind the same call (:mod:`.ladder`) and the
sweep (:mod:`.sweep`) are tested against them on every board the tests can make. They are
exponential where the fast ones are not (``complete`` and ``total`` list placements), so they
are for reading and for checking, on small boards. ``count``, ``subset`` and ``ac3`` tell an
:class:`Observer` what they do as they go: a trace (:mod:`.trace`) is that, told. (One module
past the package's usual 450 lines, on purpose: the whole specification, its observer and its
sweep read on one page, which the docs' solver page shows.)

Glossary
--------
arrangement
    One value of a clue variable: here the frozenset of the cells of the clue's scope that
    hold its mines (the fast rungs keep it as a bitmask).
placement
    A choice of which unknown cells hold mines: here cell -> is a mine.
constraint
    ``(cells, mines)``: exactly ``mines`` mines among ``cells`` (a clue's, or one ``subset``
    derived).
pass
    One look of ``count`` or ``subset`` at every constraint; the rung repeats it, what it
    decided taken as known, until a pass decides nothing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations
from typing import Final, Literal, NamedTuple

from ..board import MINE, Cell, PartialGrid
from ..errors import ContradictionError
from .clues import ClueConstraint, Clues, clue_constraint
from .manager import Manager
from .technique import Technique

__all__ = [
    "REQUEUE",
    "RUNGS",
    "Facts",
    "Observer",
    "Requeue",
    "Swept",
    "ac3",
    "complete",
    "count",
    "each_clue",
    "placements",
    "subset",
    "sweep",
    "total",
]

Facts = dict[Cell, bool]
"""cell -> whether it holds a mine, for the cells a rung decides."""

Arrangement = frozenset[Cell]
"""A clue variable's value: the cells of its scope that hold its mines."""

Arc = tuple[Cell, Cell]
"""``(x, y)``: the clue variables ``x`` and ``y`` share a cell; revising it narrows ``x``."""

Constraint = tuple[frozenset[Cell], int]
"""``(cells, mines)``: exactly ``mines`` mines among ``cells``."""

Requeue = Literal["assignment", "textbook"]
"""Which arcs a revision of ``(x, y)`` that narrowed ``x`` puts back on AC-3's queue:
``assignment``, every arc into ``x`` (``(y, x)`` too), as the Mine Shafted assignment words it
("all arcs containing the left-sided variable on the right side"); ``textbook``, every arc
into ``x`` but ``(y, x)``, as AIMA's AC-3 does (``y`` was just checked against the larger
domain of ``x``, so revising it again removes nothing). Either way the queue is a set: an arc
already on it is not put on again. The fixed point is the same."""

REQUEUE: Final[tuple[Requeue, ...]] = ("assignment", "textbook")
"""Every requeue rule, the default first."""


class Observer:
    """What :func:`count`, :func:`subset` and :func:`ac3` report as they go. Every method does
    nothing here: a trace overrides the ones it needs (the domains and arcs passed are ac3's
    own: copy to keep)."""

    def passing(self, clues: Clues) -> None:
        """A pass of ``count`` or ``subset`` begins, over ``clues`` (what the passes before
        it decided taken as known)."""

    def counted(self, constraint: Constraint, clue: Cell | None) -> None:
        """``count`` or ``subset``: ``constraint`` decides its cells on its own (no mine left
        among them, or as many as cells); told only when it decides a cell that no constraint
        before it in the same pass did. ``clue``: the clue it is, for ``count``."""

    def derived(self, within: Constraint, of: Constraint, difference: Constraint) -> None:
        """``subset``: the cells of ``within`` lie within those of ``of``, so ``difference``
        holds; told once for each constraint new to the closure, with the first pair found."""

    def passed(self, facts: Facts) -> None:
        """A pass of ``count`` or ``subset`` ended, deciding ``facts`` (taken as known by the
        next pass; the last pass decides nothing)."""

    def started(self, domains: dict[Cell, set[Arrangement]], arcs: list[Arc]) -> None:
        """``ac3``: the variables, their first domains and the arcs, in the order queued."""

    def revised(self, arc: Arc, removed: set[Arrangement], requeued: list[Arc]) -> None:
        """``ac3``: ``arc`` was revised: ``removed`` left the domain of ``arc[0]``,
        ``requeued`` were put back on the queue (the arcs into ``arc[0]`` the requeue rule
        names that were not on it already; none when nothing was removed)."""

    def finished(self, domains: dict[Cell, set[Arrangement]], facts: Facts) -> None:
        """``ac3``: the queue is empty: the domains at the fixed point and the cells they
        decide."""


# -- count and subset -------------------------------------------------------------------------


# --8<-- [start:count]
def count(clues: Clues, observer: Observer | None = None) -> Facts:
    """``count``: each clue on its own, to a fixed point.

    >>> from mineshafted.solver.clues import clues_of
    >>> count(clues_of([[None, 2, None], [1, 2, 1]]))
    {0: True, 2: True}
    """
    observer = observer or Observer()
    return _repeated(lambda known: each_clue(known, observer), clues, observer)


def each_clue(clues: Clues, observer: Observer | None = None) -> Facts:
    """One pass of ``count``: what each clue decides on its own."""
    observer = observer or Observer()
    facts: Facts = {}
    for clue in clues.constraints:
        if _decide(facts, clue.cells, clue.mines, clue.cell):
            observer.counted((frozenset(clue.cells), clue.mines), clue.cell)
    return facts


def _decide(facts: Facts, cells: Iterable[Cell], mines: int, clue: Cell | None) -> bool:
    """Add to ``facts`` the cells a constraint decides alone (no mine left among them, or all
    mines); whether one of them was new."""
    cells = list(cells)
    what = "a constraint" if clue is None else f"the clue at cell {clue}"
    if not 0 <= mines <= len(cells):
        raise ContradictionError(f"{what} cannot hold: {mines} mine(s) among {len(cells)} cell(s)")
    if mines not in (0, len(cells)):
        return False
    new = False
    for cell in cells:
        new |= cell not in facts
        if facts.setdefault(cell, mines > 0) != (mines > 0):
            raise ContradictionError(
                f"{what} and another disagree on cell {cell}: a mine for one, safe for the other",
                cells=[] if clue is None else [clue],
            )
    return new


def _repeated(rung: Callable[[Clues], Facts], clues: Clues, observer: Observer) -> Facts:
    """Apply ``rung``, take what it decides as known, and apply it again, until nothing new."""
    facts: Facts = {}
    while True:
        known = clues.reduced(facts)
        observer.passing(known)
        news = rung(known)
        observer.passed(news)
        if not news:
            return facts
        facts |= news


# --8<-- [end:count]


# --8<-- [start:subset]
def subset(clues: Clues, observer: Observer | None = None) -> Facts:
    """``subset``: constraints and their differences, counted, to a fixed point.

    >>> from mineshafted.solver.clues import clues_of
    >>> subset(clues_of([[None, None, None], [1, 1, 1]]))  # {0, 1} within {0, 1, 2}: 2 safe...
    {0: False, 1: True, 2: False}
    """
    observer = observer or Observer()
    return _repeated(lambda known: _subset_closure(known, observer), clues, observer)


def _subset_closure(clues: Clues, observer: Observer) -> Facts:
    """Every constraint, and ``(B - A, mines_B - mines_A)`` for ``A`` within ``B``, derived ones
    included, until nothing new is derived; then each counted (fewest cells first)."""
    known = {(frozenset(clue.cells), clue.mines) for clue in clues.constraints}
    while True:
        ordered = sorted(known, key=_order)
        derived: dict[Constraint, tuple[Constraint, Constraint]] = {}
        for a in ordered:
            for b in ordered:
                if a[0] < b[0]:
                    derived.setdefault((b[0] - a[0], b[1] - a[1]), (a, b))
        new = {difference: ab for difference, ab in derived.items() if difference not in known}
        if not new:
            break
        for difference, (a, b) in new.items():
            observer.derived(a, b, difference)
        known |= new.keys()
    facts: Facts = {}
    for constraint in ordered:
        if _decide(facts, *constraint, None):
            observer.counted(constraint, None)
    return facts


def _order(constraint: Constraint) -> tuple[int, list[Cell], int]:
    """Fewest cells first, then by cell."""
    cells, mines = constraint
    return len(cells), sorted(cells), mines


# --8<-- [end:subset]


# -- ac3 --------------------------------------------------------------------------------------


# --8<-- [start:ac3]
def ac3(
    clues: Clues, observer: Observer | None = None, *, requeue: Requeue = "assignment"
) -> Facts:
    """``ac3``: arc consistency over the clue variables' domains, as the assignment states it:
    the arcs to revise are a set (an arc on the queue is not put on again), and a revision that
    narrows ``x`` puts back the arcs into ``x`` that the ``requeue`` rule names (:data:`Requeue`).

    Examples
    --------
    The assignment's 4x3 sample once index 0 is explored: clues 1, 4, 7 and 10 border the
    unknown cells 2, 5, 8 and 11.

    >>> from mineshafted.solver.clues import clues_of
    >>> sample = clues_of([[0, 1, None], [0, 2, None], [0, 2, None], [0, 1, None]])
    >>> sorted(ac3(sample).items())
    [(2, False), (5, True), (8, True), (11, False)]
    """
    observer = observer or Observer()
    scope = {clue.cell: frozenset(clue.cells) for clue in clues.constraints}
    domains = {clue.cell: arrangements(clue) for clue in clues.constraints}
    arcs = [
        arc for x, y in combinations(scope, 2) if scope[x] & scope[y] for arc in ((x, y), (y, x))
    ]
    observer.started(domains, arcs)
    queue, queued = deque(arcs), set(arcs)
    while queue:
        x, y = queue.popleft()
        queued.remove((x, y))
        removed = revise(domains, scope, x, y)
        requeued = []
        if removed:
            back = [(z, w) for z, w in arcs if w == x and (z != y or requeue == "assignment")]
            requeued = [arc for arc in back if arc not in queued]
            queue.extend(requeued)
            queued.update(requeued)
        observer.revised((x, y), removed, requeued)
        if not domains[x]:
            raise ContradictionError(f"the clue at cell {x} has no value left", cells=[x])
    facts = decided(domains, scope)
    observer.finished(domains, facts)
    return facts


def arrangements(clue: ClueConstraint) -> set[Arrangement]:
    """A clue variable's first domain: every arrangement of its mines among its unknown
    cells."""
    return {frozenset(mined) for mined in combinations(clue.cells, clue.mines)}


def revise(
    domains: dict[Cell, set[Arrangement]], scope: dict[Cell, frozenset[Cell]], x: Cell, y: Cell
) -> set[Arrangement]:
    """Remove from ``x``'s domain each value that no value of ``y`` agrees with on the cells
    they share; return the values removed."""
    shared = scope[x] & scope[y]
    removed = {vx for vx in domains[x] if not any(vx & shared == vy & shared for vy in domains[y])}
    domains[x] -= removed
    return removed


def decided(domains: dict[Cell, set[Arrangement]], scope: dict[Cell, frozenset[Cell]]) -> Facts:
    """The cells mined in every value of some domain (mines), or in none (safe to explore)."""
    facts: Facts = {}
    for x, values in domains.items():
        for cell in scope[x]:
            if all(cell in value for value in values):
                facts[cell] = True
            elif not any(cell in value for value in values):
                facts[cell] = False
    return facts


# --8<-- [end:ac3]


# -- complete and total -----------------------------------------------------------------------


# --8<-- [start:complete]
def complete(clues: Clues) -> Facts:
    """``complete``: the cells with one value in every placement that meets all the clues.

    Clues that share no cell, directly or through others, place their mines independently, so
    each component of linked clues is enumerated on its own.

    >>> from mineshafted.solver.clues import clues_of
    >>> complete(clues_of([[None, 1, None, 1, None]]))
    {}
    >>> grid = [[None, None, None, None], [None, 3, 2, 1], [2, -1, None, None], [None, 3, None, 2]]
    >>> facts = complete(clues_of(grid))  # ac3 decides only 1, 2, 3 and 14
    >>> sorted(cell for cell, mine in facts.items() if mine), sorted(facts)
    ([4, 10, 14], [0, 1, 2, 3, 4, 10, 11, 12, 14])
    """
    facts: Facts = {}
    for group in linked(clues.constraints):
        facts |= agreed(list(placements(group)))
    return facts


def total(clues: Clues) -> Facts:
    """``total``: the cells with one value in every placement of the mines left that meets all
    the clues; the cells no clue sees (the rest) hold whatever the others leave.

    >>> from mineshafted.solver.clues import clues_of
    >>> total(clues_of([[0, 1, -1, None]], mines=1))
    {3: False}
    """
    if clues.mines_left is None:
        raise ValueError("the rung 'total' needs the mine total")
    left = clues.mines_left
    groups = [list(placements(group)) for group in linked(clues.constraints)]
    seen = {cell for clue in clues.constraints for cell in clue.cells}
    rest = [cell for cell in clues.unknown if cell not in seen]
    facts: Facts = {}
    for j, group in enumerate(groups):
        others = _sums(groups[:j] + groups[j + 1 :])
        fits = [p for p in group if any(0 <= left - _mines(p) - s <= len(rest) for s in others)]
        facts |= agreed(fits)
    leftover = {left - s for s in _sums(groups) if 0 <= left - s <= len(rest)}
    if not leftover:
        raise ContradictionError(f"no placement of the {left} mine(s) left meets every clue")
    if rest and leftover in ({0}, {len(rest)}):
        facts |= dict.fromkeys(rest, leftover == {len(rest)})
    return facts


def placements(constraints: Sequence[ClueConstraint]) -> Iterator[Facts]:
    """Every placement of mines on the constraints' cells that meets each of them exactly,
    as cell -> is a mine: clue by clue, each choice of its mines among its cells not yet placed.

    >>> [sorted(p.items()) for p in placements([ClueConstraint(0, (1, 2), 1)])]
    [[(1, True), (2, False)], [(1, False), (2, True)]]
    """
    if not constraints:
        yield {}
        return
    clue, rest = constraints[0], constraints[1:]
    for placed in placements(rest):
        free = [cell for cell in clue.cells if cell not in placed]
        need = clue.mines - sum(placed[cell] for cell in clue.cells if cell in placed)
        for mined in combinations(free, need) if need >= 0 else ():
            yield placed | {cell: cell in mined for cell in free}


def agreed(every: list[Facts]) -> Facts:
    """The cells that take one value in every placement of ``every``."""
    if not every:
        raise ContradictionError("no placement meets every clue")
    first, *others = every
    return {cell: mine for cell, mine in first.items() if all(p[cell] == mine for p in others)}


def linked(constraints: Iterable[ClueConstraint]) -> list[list[ClueConstraint]]:
    """The constraints in components: groups linked by shared cells, directly or not."""
    groups: list[list[ClueConstraint]] = []
    for clue in constraints:
        touching = [g for g in groups if any(set(clue.cells) & set(c.cells) for c in g)]
        groups = [g for g in groups if g not in touching]
        groups.append([c for g in touching for c in g] + [clue])
    return groups


# --8<-- [end:complete]


def _sums(groups: list[list[Facts]]) -> set[int]:
    """Every number of mines the groups' placements can hold together."""
    sums = {0}
    for group in groups:
        sums = {s + _mines(p) for s in sums for p in group}
    return sums


def _mines(placement: Facts) -> int:
    """How many mines a placement holds."""
    return sum(placement.values())


RUNGS: dict[Technique, Callable[[Clues], Facts]] = {
    Technique.COUNT: count,
    Technique.SUBSET: subset,
    Technique.AC3: ac3,
    Technique.COMPLETE: complete,
    Technique.TOTAL: total,
}
"""Every rung, weakest first."""


# -- the sweep --------------------------------------------------------------------------------


class Swept(NamedTuple):
    """What :func:`sweep` ends with."""

    board: PartialGrid
    """The board as found: clues, ``-1`` for the mines decided, ``None`` where undetermined."""
    technique: Technique
    """The strongest rung that decided a cell (``count`` when none but the start was needed)."""

    @property
    def solved(self) -> bool:
        """Whether every cell was decided."""
        return all(value is not None for row in self.board for value in row)


# --8<-- [start:sweep]
def sweep(bm: Manager, technique: Technique, *, start: Cell = 0, mines: int | None = None) -> Swept:
    """Play ``bm`` from ``start`` with the rungs up to ``technique``: explore every cell proven
    safe, then let the first rung that decides something decide, and repeat until none does.

    ``mines`` is the mine total, which only ``total`` uses.

    >>> from mineshafted import BoardManager
    >>> swept = sweep(BoardManager([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]), Technique.AC3)
    >>> swept.board, swept.technique.value
    ([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]], 'subset')
    """
    rows, cols = bm.size
    values: list[int | None] = [None] * (rows * cols)
    rings: dict[Cell, list[Cell]] = {}
    safe, strongest = {start}, Technique.COUNT
    rungs = [t for t in RUNGS if t <= technique]
    while True:
        for cell in sorted(safe - rings.keys()):
            values[cell] = bm.move(cell)
            rings[cell] = list(bm.get_adjacent(cell))
        said = [clue_constraint(values, cell, ring) for cell, ring in sorted(rings.items())]
        unknown = tuple(cell for cell, value in enumerate(values) if value is None)
        left = None if mines is None else mines - values.count(MINE)
        clues = Clues(tuple(c for c in said if c.cells), unknown, left)
        for rung in rungs:
            facts = RUNGS[rung](clues)
            if facts:
                break
        else:
            return Swept([values[r * cols : (r + 1) * cols] for r in range(rows)], strongest)
        strongest = max(strongest, rung)
        for cell, mine in facts.items():
            if mine:
                values[cell] = MINE
            else:
                safe.add(cell)


# --8<-- [end:sweep]
