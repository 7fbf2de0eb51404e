"""The ladder of techniques: each rung in two forms behind one call, and the one question
"which rung decides this?" that rating, certifying and explaining all ask.

A rung (:class:`Rung`) is one technique with one call, :meth:`Rung.deduce`, from what the
clues say (:class:`~.clues.Clues`) to the cells it decides, each run to its own fixed point:

- its **plain** form (:mod:`.plain`): a few lines over plain sets, to read beside the
  assignment; the specification;
- its **fast** form (here): the package's own code, bitmasks and incremental queues (the
  clue-domain CSP of :mod:`.csp`, the component search of :mod:`.search`, the subset closure of
  :mod:`.subset`, the counts of :mod:`.count` and :mod:`.total`), tested against the plain form.

A sweep (:class:`~.sweep.Sweep`) climbs the same rungs over a board, incrementally: explore,
then the first rung that decides something, repeat. What the rungs answer:

- a board's **rating** (:func:`rating`): the strongest rung a sweep up the whole ladder
  needed, which is the first rung whose own sweep solves the board;
- a cell's **rung** on a position (:func:`first_rung`): the first rung that decides it;
- a cell's **proof** (:func:`prove`): that rung, and a minimal set of clues enough for it.

Why the strongest rung used is the first that solves: each rung's deductions are sound and
monotone (knowing more never makes it deduce less), so its loop ends at one fixed point
whatever the order of its steps; and the sweep uses a rung only when every weaker one has
reached its own fixed point without deciding everything.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from ..board import Cell
from ..errors import ContradictionError
from . import plain
from .clues import ClueConstraint, Clues, position_from
from .count import counted
from .csp import ClueCSP
from .search import backbone
from .subset import subset_facts
from .technique import Technique
from .total import combine

__all__ = ["RUNGS", "Facts", "Proof", "Rung", "first_rung", "prove", "rating", "rung"]

Facts = dict[Cell, bool]
"""cell -> whether it holds a mine, for the cells a rung decides."""

Deduction = Callable[[Clues], Facts]
"""One form of a rung: from what the clues say, the cells decided."""


@dataclass(frozen=True)
class Rung:
    """One technique of the ladder, with its plain and its fast form behind one call.

    Examples
    --------
    >>> from mineshafted.solver.clues import clues_of
    >>> clues = clues_of([[None, None, None], [1, 1, 1]])
    >>> rung(Technique.SUBSET).deduce(clues), rung(Technique.SUBSET).deduce(clues, plain=True)
    ({0: False, 1: True, 2: False}, {0: False, 2: False, 1: True})
    >>> rung(Technique.COUNT).deduce(clues)
    {}
    """

    technique: Technique
    plain: Deduction
    """The plain form (:mod:`.plain`): the specification."""
    fast: Deduction
    """The fast form: the package's own code."""

    def deduce(self, clues: Clues, *, plain: bool = False) -> Facts:
        """The cells this rung decides from ``clues``, run to its fixed point (the fast form,
        or with ``plain`` the plain one: the same cells).

        Raises
        ------
        ContradictionError
            The clues contradict each other (the fast ``total`` raises
            :class:`~mineshafted.errors.NoPlacementError` then).
        ValueError
            ``total``, without the mines left.
        """
        return (self.plain if plain else self.fast)(clues)


# -- the fast forms ---------------------------------------------------------------------------


def _count(clues: Clues) -> Facts:
    """``count`` with a work list: a clue is looked at again only when one of its cells is
    decided. ``O(clues + cells decided * clues beside each)``."""
    unknown = {clue.cell: set(clue.cells) for clue in clues.constraints}
    need = {clue.cell: clue.mines for clue in clues.constraints}
    holders: dict[Cell, list[Cell]] = {}
    for clue in clues.constraints:
        for cell in clue.cells:
            holders.setdefault(cell, []).append(clue.cell)
    facts: Facts = {}
    queue = list(unknown)
    while queue:
        x = queue.pop()
        cells, mines = unknown[x], need[x]
        if not 0 <= mines <= len(cells):
            raise ContradictionError(f"the clue at cell {x} cannot hold", cells=[x])
        if cells and mines in (0, len(cells)):
            for cell in list(cells):
                facts[cell] = mines > 0
                for y in holders[cell]:
                    unknown[y].discard(cell)
                    need[y] -= mines > 0
                    queue.append(y)
    return facts


def _subset(clues: Clues) -> Facts:
    """``subset`` by :func:`~.subset.subset_facts`, which stops at its first facts: asked again
    with them known until it decides nothing (then it has built the whole closure)."""
    facts: Facts = {}
    while True:
        news = subset_facts(clue.constraint for clue in clues.reduced(facts).constraints)
        if not news:
            return facts
        facts.update(news)


def _ac3(clues: Clues) -> Facts:
    """``ac3`` by the clue-domain CSP (:class:`~.csp.ClueCSP`), to its fixed point."""
    return dict(_csp(clues).propagate())


def _complete(clues: Clues) -> Facts:
    """``complete``: AC-3 by the CSP, then each component it leaves searched for its backbone
    (:func:`~.search.backbone`)."""
    csp = _csp(clues)
    facts = dict(csp.propagate())
    for component in csp.components(list(csp.variables)):
        facts.update(backbone(component, csp.graph))
    return facts


def _total(clues: Clues) -> Facts:
    """``total``: the components counted by number of mines (:func:`~.count.counted`) and
    combined under the mines left (:func:`~.total.combine`); the cells certain."""
    if clues.mines_left is None:
        raise ValueError("the rung 'total' needs the mine total")
    position = position_from([], [c.constraint for c in clues.constraints], clues.unknown, 0)
    counts = [counted(tuple(component)) for component in position.components]
    return dict(combine(counts, position.unconstrained, clues.mines_left).certain())


def _csp(clues: Clues) -> ClueCSP:
    """The CSP of ``clues``: one variable per clue."""
    csp = ClueCSP()
    for clue in clues.constraints:
        csp.add(clue.cell, clue.cells, clue.mines)
    return csp


RUNGS: tuple[Rung, ...] = (
    Rung(Technique.COUNT, plain.count, _count),
    Rung(Technique.SUBSET, plain.subset, _subset),
    Rung(Technique.AC3, plain.ac3, _ac3),
    Rung(Technique.COMPLETE, plain.complete, _complete),
    Rung(Technique.TOTAL, plain.total, _total),
)
"""The ladder, weakest first: one rung for each technique that can solve a board."""


def rung(technique: Technique) -> Rung:
    """The rung of ``technique``.

    Raises
    ------
    ValueError
        ``technique`` is ``guess``: no rung, it is what none decides.
    """
    if technique is Technique.GUESS:
        raise ValueError("'guess' is no rung of the ladder: it is what no rung decides")
    return RUNGS[technique.rank]


# -- the questions ----------------------------------------------------------------------------


def rating(used: Iterable[Technique], climbed: Collection[Technique]) -> Technique | None:
    """A solved board's rating, from a sweep that climbed the rungs ``climbed`` (besides
    ``count``, which every sweep has) and used the rungs ``used`` to decide a cell.

    The strongest rung used, unless the rung just below it was not climbed: then the cells it
    decided might have been that weaker rung's, and ``None`` says the sweep cannot tell.

    Examples
    --------
    >>> rating([Technique.COUNT, Technique.AC3], Technique.solving()).value
    'ac3'
    >>> rating([Technique.AC3], [Technique.AC3, Technique.COMPLETE]) is None
    True
    >>> rating([Technique.COMPLETE], [Technique.AC3, Technique.COMPLETE]).value
    'complete'
    """
    strongest = max(used, default=Technique.COUNT)
    below = Technique.solving()[max(strongest.rank - 1, 0)]
    if below is not Technique.COUNT and below not in climbed:
        return None
    return strongest


def first_rung(clues: Clues, cell: Cell, *, plain: bool = False) -> Technique:
    """The first rung, weakest first, that decides ``cell`` from ``clues`` (``guess`` when none
    does; ``total`` is tried only when the mines left are known).

    Every rung below ``total`` decides a cell from the clues linked to it alone, so those are
    asked about the cell's component only.

    Examples
    --------
    >>> from mineshafted.solver.clues import clues_of
    >>> grid = [[None, None, None, None], [None, 3, 2, 1], [2, -1, None, None], [None, 3, None, 2]]
    >>> clues = clues_of(grid, mines=4)
    >>> [(cell, first_rung(clues, cell).value) for cell in (1, 2, 0)]
    [(1, 'subset'), (2, 'ac3'), (0, 'complete')]
    >>> first_rung(clues_of([[0, 1, -1, None]], mines=2), 3).value
    'total'
    >>> first_rung(clues_of([[1, None], [None, None]], mines=1), 3).value
    'guess'
    """
    return _first(clues, cell, plain=plain)[0]


def _first(clues: Clues, cell: Cell, *, plain: bool = False) -> tuple[Technique, bool]:
    """:func:`first_rung`, and whether the cell holds a mine (``False`` for ``guess``)."""
    near = clues.only(component(clues.constraints, cell))
    for each in RUNGS:
        if each.technique is Technique.TOTAL and clues.mines_left is None:
            break
        facts = each.deduce(clues if each.technique is Technique.TOTAL else near, plain=plain)
        if cell in facts:
            return each.technique, facts[cell]
    return Technique.GUESS, False


@dataclass(frozen=True)
class Proof:
    """Why the clues decide a cell: the first rung that does, and clues enough for it."""

    cell: Cell
    mine: bool
    """Whether the cell holds a mine (else it is safe)."""
    technique: Technique
    """The first rung that decides the cell from all the clues."""
    clues: tuple[ClueConstraint, ...]
    """Clues that are enough for that rung to decide the cell, nearest first; minimal: without
    any one of them it does not (``total`` also counts the unknown cells and the mines left)."""


def prove(clues: Clues, cell: Cell) -> Proof:
    """The first rung that decides ``cell`` and a minimal set of clues enough for it.

    How the clues are found: a single clue that sees the cell, if one is enough; otherwise the
    clues linked to the cell taken in rings of distance (those that see it, then those sharing
    a cell with one of them, ...) until they are enough, then each dropped in turn, farthest
    first, when the rest are still enough (deletion: a rung only decides more with more clues,
    so the result is minimal). For ``total`` the deletion starts from every clue.

    Raises
    ------
    ValueError
        No rung decides ``cell``.

    Examples
    --------
    >>> from mineshafted.solver.clues import clues_of
    >>> proof = prove(clues_of([[None, None, None], [1, 1, 1]], mines=1), 2)
    >>> proof.mine, proof.technique.value, [clue.cell for clue in proof.clues]
    (False, 'subset', [4, 3])

    Notes
    -----
    One climb of the ladder over the cell's component (and the whole position for
    ``total``); then one deduction by that rung per ring and per clue dropped.
    """
    technique, mine = _first(clues, cell)
    if technique is Technique.GUESS:
        raise ValueError(f"no rung decides cell {cell}")
    deduce = rung(technique).deduce

    def enough(chosen: Sequence[ClueConstraint]) -> bool:
        return deduce(clues.only(chosen)).get(cell) is mine

    rings = _rings(clues.constraints, cell)
    for clue in rings[0] if rings else ():
        if enough([clue]):
            return Proof(cell, mine, technique, (clue,))
    chosen: list[ClueConstraint] = []
    if technique is Technique.TOTAL:
        chosen = [clue for ring in rings for clue in ring]
        near = {clue.cell for clue in chosen}
        chosen += [clue for clue in clues.constraints if clue.cell not in near]
    else:
        for ring in rings:
            chosen += ring
            if enough(chosen):
                break
    for clue in reversed(list(chosen)):
        trial = [c for c in chosen if c is not clue]
        if enough(trial):
            chosen = trial
    return Proof(cell, mine, technique, tuple(chosen))


def component(constraints: Sequence[ClueConstraint], cell: Cell) -> list[ClueConstraint]:
    """The clues linked to ``cell`` through shared unknown cells, nearest first (none if no
    clue sees it)."""
    return [clue for ring in _rings(constraints, cell) for clue in ring]


def _rings(constraints: Sequence[ClueConstraint], cell: Cell) -> list[list[ClueConstraint]]:
    """The clues linked to ``cell``, by distance: those that see it, then those sharing an
    unknown cell with one of them, and so on (breadth first, in the given order within a
    ring)."""
    holders: dict[Cell, list[int]] = {}
    for index, clue in enumerate(constraints):
        for unknown in clue.cells:
            holders.setdefault(unknown, []).append(index)
    seen_cells = {cell}
    seen: set[int] = set()
    ring = sorted(set(holders.get(cell, ())))
    rings: list[list[ClueConstraint]] = []
    while ring:
        seen.update(ring)
        rings.append([constraints[i] for i in ring])
        reached = {u for i in ring for u in constraints[i].cells} - seen_cells
        seen_cells |= reached
        ring = sorted({i for u in reached for i in holders.get(u, ()) if i not in seen})
    return rings
