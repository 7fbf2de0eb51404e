"""The ladder of techniques: each rung in three forms, and the sweep's own question, a
board's rating.

A rung (:class:`Rung`) is one technique in three forms:

- its **plain** form (:mod:`.plain`): a few lines over plain sets, to read beside the
  assignment; the specification;
- its **fast** form: one call, :meth:`Rung.deduce`, from what the clues say
  (:class:`~.clues.Clues`) to the cells it decides, run to its own fixed point, by the
  package's own machinery (the count's work list, the subset closure of :mod:`.subset`, the
  clue-domain CSP of :mod:`.csp`, the component search of :mod:`.search`, the counts of
  :mod:`.weights` and :mod:`.total`), tested against the plain form;
- its **step** (:attr:`Rung.step`): the same machinery driven incrementally, one round of a
  sweep (:class:`~.sweep.Sweep`) at a time, over what the sweep keeps between rounds
  (:class:`Sweeper`): the CSP holds its domains and its queue, the search knows which
  components changed, and each step stops at its first conclusions for the sweep to explore
  what they open. The count's step is the explore loop itself (:class:`~.explore.Explorer`),
  which counts as it moves.

A sweep climbs the rungs over a board: the count's step (explore), then the step of the first
rung above it that decides something, repeat. Its **rating** (:func:`rating`) is the strongest
rung it needed, which is the first rung whose own sweep solves the board: each rung's
deductions are sound and monotone (knowing more never makes it deduce less), so its loop ends
at one fixed point whatever the order of its steps; and the sweep uses a rung only when every
weaker one has reached its own fixed point without deciding everything. Which rung decides a
cell of a position, and with which clues, is :mod:`.proof`'s question.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Protocol

from ..board import Cell
from ..errors import ContradictionError
from . import plain
from .clues import Clues, position_from
from .csp import ClueCSP
from .explore import Explorer
from .knowledge import CellState, Knowledge
from .manager import Manager
from .position import Constraint, Position
from .search import ComponentSearch, backbone
from .subset import subset_facts
from .technique import Stage, Technique
from .total import combine, decided_by_total
from .weights import CountTooLargeError, weighed

__all__ = ["RUNGS", "Facts", "Rung", "Sweeper", "rating", "rung"]

log = logging.getLogger("mineshafted.solver.sweep")
"""The sweep's logger: the steps below are the rounds of a sweep, and log as the sweep's."""

Facts = dict[Cell, bool]
"""cell -> whether it holds a mine, for the cells a rung decides."""

Deduction = Callable[[Clues], Facts]
"""The plain or the fast form of a rung: from what the clues say, the cells decided."""


class Sweeper(Protocol):
    """What a sweep keeps from round to round, which the rungs' steps read and grow
    (:class:`~.sweep.Sweep` is one)."""

    bm: Manager
    """The board, behind the assignment's interface."""
    knowledge: Knowledge
    """The facts: cell states, clues, rings."""
    explorer: Explorer
    """The explore loop over :attr:`knowledge` (the count's step)."""
    csp: ClueCSP
    """The clue-domain CSP: AC-3's variables, domains and queue, kept between rounds."""
    variables: bool
    """Whether explored clues become CSP variables (for ``ac3`` and ``complete``)."""
    search: ComponentSearch
    """The component-search engine (``complete``)."""
    searches: int
    """How many components were searched."""
    mines: int | None
    """The mine total, when known (``total``)."""

    def constraints(self) -> list[Constraint]:
        """The constraint of every explored clue beside an unknown cell."""
        ...  # pragma: no cover - protocol

    def position(self) -> Position:
        """The position as known: constraints by component, and more."""
        ...  # pragma: no cover - protocol

    def prove(self, cell: Cell, *, mine: bool, stage: Stage) -> bool:
        """Record that ``stage`` decided ``cell``; whether it was news."""
        ...  # pragma: no cover - protocol


Step = Callable[[Sweeper], bool]
"""The incremental form of a rung: one round of it in a sweep; whether it decided a cell."""


@dataclass(frozen=True)
class Rung:
    """One technique of the ladder, in its three forms: plain, fast, and a sweep's step.

    Examples
    --------
    >>> from mineshafted.solver.clues import clues_of
    >>> clues = clues_of([[None, None, None], [1, 1, 1]])
    >>> rung(Technique.SUBSET).deduce(clues), rung(Technique.SUBSET).deduce(clues, plain=True)
    ({0: False, 1: True, 2: False}, {0: False, 1: True, 2: False})
    >>> rung(Technique.COUNT).deduce(clues)
    {}
    """

    technique: Technique
    plain: Deduction
    """The plain form (:mod:`.plain`): the specification."""
    fast: Deduction
    """The fast form: the package's own code, on a position."""
    step: Step
    """The incremental form: the fast form's machinery, one round of a sweep at a time."""

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
    """``total``: the components counted by number of mines (:func:`~.weights.weighed`) and
    combined under the mines left (:func:`~.total.combine`); the cells certain."""
    if clues.mines_left is None:
        raise ValueError("the rung 'total' needs the mine total")
    position = position_from([], [c.constraint for c in clues.constraints], clues.unknown, 0)
    counts = [weighed(tuple(component)) for component in position.components]
    return dict(combine(counts, position.unconstrained, clues.mines_left).certain())


def _csp(clues: Clues) -> ClueCSP:
    """The CSP of ``clues``: one variable per clue."""
    csp = ClueCSP()
    for clue in clues.constraints:
        csp.add(clue.cell, clue.cells, clue.mines)
    return csp


# -- the steps: each fast form driven incrementally, over what a sweep keeps ------------------


def _explore(sweep: Sweeper) -> bool:
    """``count``'s step, the explore loop: move onto every cell proven safe and let each
    clue's count decide what it can on its own (:meth:`~.explore.Explorer.explore`); the clues
    it leaves open become CSP variables. Whether it moved.

    A clue whose count alone decides its unknown neighbours (a zero, say) decides them. The
    others become CSP variables only when no safe cell and no such clue is left: by then most
    have been decided by their neighbours and need no variable.
    """
    knowledge, explorer = sweep.knowledge, sweep.explorer
    before = knowledge.explored
    fresh = explorer.explore(sweep.bm.move, sweep.bm.get_adjacent)
    if sweep.variables:
        csp = sweep.csp
        for cell in fresh:
            unknown, mines = explorer.constraint(cell)
            csp.add(cell, unknown, mines)
    explored = knowledge.explored - before
    log.debug("explore: %d cell(s) explored, %d clue(s) became variables", explored, len(fresh))
    return explored > 0


def _derive_subsets(sweep: Sweeper) -> bool:
    """``subset``'s step: what the subset closure of the frontier's constraints decides, up to
    its first facts (:func:`~.subset.subset_facts`); whether it decided a cell."""
    if CellState.UNKNOWN not in sweep.knowledge.state:
        return False
    progress = False
    for cell, mine in subset_facts(sweep.constraints()):
        progress |= sweep.prove(cell, mine=mine, stage=Stage.SUBSET)
    log.debug("subset: decided cells: %s", progress)
    return progress


def _propagate(sweep: Sweeper) -> bool:
    """``ac3``'s step: tell the CSP the cells decided since the last round, then AC-3 from the
    queue it left until it draws a fact; whether it drew one (else it reached its fixed
    point)."""
    csp = sweep.csp
    csp.learn(sweep.explorer.take_facts())
    facts = csp.propagate(until_facts=True)
    for cell, mine in facts:
        sweep.prove(cell, mine=mine, stage=Stage.AC3)
    log.debug("propagate: AC-3 decided %d cell(s)", len(facts))
    return bool(facts)


def _search_components(sweep: Sweeper) -> bool:
    """``complete``'s step: search each component of the CSP changed since the last search
    for its backbone (the sweep's engine, :func:`~.search.backbone` by default); whether it
    decided a cell."""
    csp = sweep.csp
    searched = list(csp.components(csp.take_touched()))
    progress = False
    for component in searched:
        sweep.searches += 1
        for cell, mine in sweep.search(component, csp.graph).items():
            progress |= sweep.prove(cell, mine=mine, stage=Stage.COMPLETE)
    log.debug("search: %d component(s) searched, news: %s", len(searched), progress)
    return progress


def _count_total(sweep: Sweeper) -> bool:
    """``total``'s step, with the mine total: the cells safe, or mined, in every placement of
    the remaining mines (:func:`~.total.decided_by_total`); whether it decided a cell."""
    if sweep.mines is None:  # pragma: no cover - never climbed without the total
        return False
    if CellState.UNKNOWN not in sweep.knowledge.state:
        return False
    try:
        facts = decided_by_total(sweep.position(), sweep.mines)
    except CountTooLargeError as error:  # too wide to count: the total decides nothing
        log.warning("total: not counted, %s", error)
        return False
    progress = False
    for cell, mine in facts:
        progress |= sweep.prove(cell, mine=mine, stage=Stage.TOTAL)
    log.debug("total: the mine total decided %d cell(s)", len(facts))
    return progress


RUNGS: tuple[Rung, ...] = (
    Rung(Technique.COUNT, plain.count, _count, _explore),
    Rung(Technique.SUBSET, plain.subset, _subset, _derive_subsets),
    Rung(Technique.AC3, plain.ac3, _ac3, _propagate),
    Rung(Technique.COMPLETE, plain.complete, _complete, _search_components),
    Rung(Technique.TOTAL, plain.total, _total, _count_total),
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


# -- the sweep's question ---------------------------------------------------------------------


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
