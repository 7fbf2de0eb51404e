"""Component search: the joint placements of a connected group of clue variables.

Arc consistency alone stalls on positions that logic can still solve. The search here is what
makes the sweep complete: it enumerates consistent joint placements of one connected component
of the arc graph, and :func:`backbone` keeps the cells that take the same value in all of them.

Two interchangeable engines share one signature, ``(component, graph) -> {cell: is_mine}``:

- :class:`BacktrackingSearch` (the default): forward checking over the CSP's own domains,
  smallest domain first, one targeted search per unknown cell.
- :class:`ConstraintSearch`: an independent model of the same component in python-constraint
  (one 0/1 variable per cell, an ``ExactSumConstraint`` per clue), asked the same questions:
  one placement, then one search per unknown cell with that cell flipped.

(A little over 450 lines, kept whole: the two engines answer one question with shared
helpers, and split apart each would import the other's.)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Protocol

from ..board import Cell
from ..errors import ContradictionError
from .arcs import ArcGraph
from .position import Constraint
from .variables import Arrangement, ClueVariable, compress
from .weights import weigh

__all__ = [
    "STEPS",
    "BacktrackingSearch",
    "ComponentSearch",
    "ConstraintSearch",
    "backbone",
    "component_placements",
    "constraints",
    "counted_backbone",
]

log = logging.getLogger(__name__)

ComponentPlacement = dict[Cell, Arrangement]
"""A placement of a component: variable cell -> its arrangement."""

STEPS = 20_000
"""How many placements :func:`backbone`'s searches may try before it counts instead."""


class ComponentSearch(Protocol):
    """An engine that decides what a component's clues imply together."""

    def __call__(self, component: Sequence[ClueVariable], graph: ArcGraph) -> dict[Cell, bool]:
        """Return every unknown cell of ``component`` that has one value in all placements.

        Raises ``ContradictionError`` when the component has no placement at all.
        """
        ...


class BacktrackingSearch:
    """The default engine: :func:`backbone` over :func:`component_placements`."""

    def __call__(self, component: Sequence[ClueVariable], graph: ArcGraph) -> dict[Cell, bool]:
        return backbone(component, graph)


class ConstraintSearch:
    """The python-constraint engine: the default's questions, asked of an independent model.

    Each cell is a python-constraint variable over ``{0, 1}``, each clue variable an
    ``ExactSumConstraint`` over its whole scope, and every cell its domain decides is pinned
    to that value, so a component whose decided cells already clash has no placement. Like
    :func:`backbone`, it finds one placement, then for each unknown cell not yet seen both
    ways one placement with that cell flipped (``getSolution``: the first found). Nothing here
    shares this package's search or arcs, which makes it a cross-check and an alternative
    backend of the same cost class.

    Notes
    -----
    At most ``1 + cells`` searches, each stopping at its first placement. python-constraint2
    2.9 raises ``ValueError`` from ``ExactSumConstraint`` on some inputs with no placement (a
    domain emptied by pinning); that is taken as "no placement".
    """

    def __call__(self, component: Sequence[ClueVariable], graph: ArcGraph) -> dict[Cell, bool]:
        values: dict[Cell, set[int]] = {}
        unknown: set[Cell] = set()
        for var in component:
            decided, mines = var.decided()
            for i, cell in enumerate(var.scope):
                allowed = values.setdefault(cell, {0, 1})
                if decided >> i & 1:
                    allowed &= {mines >> i & 1}
                else:
                    unknown.add(cell)
        possible = all(values.values()) and all(var.domain for var in component)
        first = _first_placement(component, values) if possible else None
        if first is None:
            raise _no_placement(component)

        def flipped(cell: Cell, mine: bool) -> dict[Cell, bool] | None:
            other = _first_placement(component, {**values, cell: {int(mine)}})
            return None if other is None else {c: other[c] == 1 for c in unknown}

        return _unflipped(component, {c: first[c] == 1 for c in unknown}, flipped)


def constraints(component: Sequence[ClueVariable]) -> list[tuple[tuple[Cell, ...], int]]:
    """Each variable of ``component`` with a cell left unknown, as its
    :meth:`~.variables.ClueVariable.constraint` ``(unknown cells, mines among them)``."""
    result = []
    for var in component:
        cells, mines = var.constraint()
        if cells:
            result.append((cells, mines))
    return result


def component_placements(
    component: Sequence[ClueVariable],
    graph: ArcGraph,
    *,
    require: Mapping[Cell, bool] | None = None,
) -> Iterator[ComponentPlacement]:
    """Yield every consistent joint placement of ``component``'s variables.

    Parameters
    ----------
    component:
        Variables linked through ``graph``; arcs leaving the component are ignored.
    graph:
        The arc graph (:attr:`ClueCSP.graph`): edge data hold each endpoint's shared-cell mask.
    require:
        Cells whose value is imposed: ``{cell: is_mine}``.

    Yields
    ------
    dict
        Variable cell -> arrangement, one consistent choice for every variable.

    Examples
    --------
    >>> from mineshafted.solver import ClueCSP
    >>> csp = ClueCSP()
    >>> csp.add(0, (10, 11), 1); csp.add(1, (11, 12), 1)
    >>> [sorted(s.items()) for s in component_placements(list(csp.variables.values()), csp.graph)]
    [[(0, 1), (1, 2)], [(0, 2), (1, 1)]]

    Notes
    -----
    Depth-first search with forward checking: assigning a variable filters the domains of its
    unassigned neighbours by their shared cells, and the next variable is the one with the
    smallest remaining domain. Iterative, so component size is not bounded by the recursion
    limit. Worst case exponential (consistency is NP-complete); on real frontiers it is fast.
    """
    yield from _search(component, _links(component, graph), require, _Budget(None))


def backbone(
    component: Sequence[ClueVariable], graph: ArcGraph, *, steps: int | None = STEPS
) -> dict[Cell, bool]:
    """Every unknown cell of ``component`` that is a mine in all placements, or in none.

    Parameters
    ----------
    component, graph:
        As for :func:`component_placements`.
    steps:
        How many placements the searches may try in all; past that the answer is counted
        instead (:func:`counted_backbone`: the same cells, found another way). ``None``: no
        limit.

    Raises
    ------
    ContradictionError
        The component has no placement.

    Notes
    -----
    Find one placement; then, for each unknown cell not yet seen both ways, search for a
    placement with that cell flipped. A failed search proves the cell; a found one may flip
    many cells at once. At most ``1 + cells`` searches, each stopping at its first placement.
    Each search is exponential in the worst case, and on the tangled frontiers of a dense
    board a failed one can try millions of placements; the budget hands such a component
    to counting, whose cost grows with the frontier's width instead.
    """
    budget = _Budget(steps)
    try:
        return _searched_backbone(component, graph, budget)
    except _OutOfSteps:
        log.debug("component of %d clue(s): over %s steps, counting", len(component), steps)
        return counted_backbone(component)


def counted_backbone(component: Sequence[ClueVariable]) -> dict[Cell, bool]:
    """:func:`backbone` by counting: the cells mined in all of the component's placements, or
    in none (:func:`~mineshafted.solver.weigh` over its clues).

    Raises
    ------
    ContradictionError
        The component has no placement.

    Examples
    --------
    >>> from mineshafted.solver import ClueCSP
    >>> csp = ClueCSP()
    >>> csp.add(0, (10, 11), 1); csp.add(1, (10, 11, 12), 2)
    >>> counted_backbone(list(csp.variables.values()))
    {12: True}

    Notes
    -----
    Each variable counts as its whole clue over its scope, and each scope cell its domain
    decides as a one-cell clue; arc consistency only drops arrangements that no placement
    uses, so these clues have exactly the component's placements.
    """
    clues: list[Constraint] = []
    unknown: set[Cell] = set()
    for var in component:
        if not var.domain:
            raise _no_placement(component)
        clues.append((var.scope, var.domain[0].bit_count()))
        decided, mines = var.decided()
        for i, cell in enumerate(var.scope):
            if decided >> i & 1:
                clues.append(((cell,), mines >> i & 1))
            else:
                unknown.add(cell)
    count = weigh(clues)
    total = sum(count.placements)
    if total == 0:
        raise _no_placement(component)
    proven: dict[Cell, bool] = {}
    for group, mined in zip(count.classes, count.mined, strict=True):
        hits = sum(mined)
        if hits in (0, total):
            proven.update((cell, hits == total) for cell in group if cell in unknown)
    log.debug("component of %d clue(s): %d cell(s) proven", len(component), len(proven))
    return proven


def _searched_backbone(
    component: Sequence[ClueVariable], graph: ArcGraph, budget: _Budget
) -> dict[Cell, bool]:
    """:func:`backbone` by searching, within ``budget``."""
    links = _links(component, graph)
    unknown = [_unknown(var) for var in component]
    first = next(_search(component, links, None, budget), None)
    if first is None:
        raise _no_placement(component)

    def flipped(cell: Cell, mine: bool) -> dict[Cell, bool] | None:
        other = next(_search(component, links, {cell: mine}, budget), None)
        return None if other is None else _cell_values(component, unknown, other)

    return _unflipped(component, _cell_values(component, unknown, first), flipped)


def _unflipped(
    component: Sequence[ClueVariable],
    first: dict[Cell, bool],
    flipped: Callable[[Cell, bool], dict[Cell, bool] | None],
) -> dict[Cell, bool]:
    """The cells of ``first`` (one placement's unknown cells) that no placement flips: for each
    cell not yet seen both ways, ``flipped(cell, other value)`` gives a placement's values on
    the same cells, or ``None`` when there is none (the cell is proven)."""
    seen_both: set[Cell] = set()
    for cell in sorted(first):
        if cell in seen_both:
            continue
        other = flipped(cell, not first[cell])
        if other is not None:
            seen_both.update(c for c, m in other.items() if m != first[c])
    proven = {c: m for c, m in first.items() if c not in seen_both}
    log.debug("component of %d clue(s): %d cell(s) proven", len(component), len(proven))
    return proven


def _no_placement(component: Sequence[ClueVariable]) -> ContradictionError:
    """The error for a component whose clues admit no placement, naming its clues."""
    return ContradictionError(
        "these clues admit no placement of mines", cells=[v.cell for v in component]
    )


class _OutOfSteps(Exception):
    """A search tried more placements than its budget allows."""


class _Budget:
    """Placements a search may still try (``None``: without limit)."""

    __slots__ = ("left",)

    def __init__(self, steps: int | None) -> None:
        self.left = steps

    def spend(self) -> None:
        """Take one step; raise :class:`_OutOfSteps` past the budget."""
        if self.left is not None:
            self.left -= 1
            if self.left < 0:
                raise _OutOfSteps


Links = list[list[tuple[int, tuple[int, ...], tuple[int, ...]]]]
"""Per variable position: (neighbour position, own projection table, neighbour's table)."""


def _first_placement(
    component: Sequence[ClueVariable], values: Mapping[Cell, set[int]]
) -> dict[Cell, int] | None:
    """python-constraint's first placement of ``component`` (its "solution") with each cell over
    ``values``.

    ``None`` when there is none, including when python-constraint2 raises ``ValueError`` for
    a contradictory input instead of finding nothing.
    """
    from constraint import ExactSumConstraint, Problem  # type: ignore[import-untyped]

    problem = Problem()
    for cell, allowed in values.items():
        problem.addVariable(cell, sorted(allowed))
    for var in component:
        problem.addConstraint(ExactSumConstraint(var.domain[0].bit_count()), list(var.scope))
    try:
        placement: dict[Cell, int] | None = problem.getSolution()
    except ValueError:
        return None
    return placement


def _links(component: Sequence[ClueVariable], graph: ArcGraph) -> Links:
    """The arcs inside ``component``, as positions and projection tables for the search."""
    index = {var.cell: k for k, var in enumerate(component)}
    links: Links = []
    for var in component:
        mine = []
        for other, arc in graph.arcs[var.cell].items():
            j = index.get(other)
            if j is not None:
                masks = arc.masks
                own_table = compress(masks[var.cell], len(var.scope))
                their_table = compress(masks[other], len(component[j].scope))
                mine.append((j, own_table, their_table))
        links.append(mine)
    return links


def _search(
    component: Sequence[ClueVariable],
    links: Links,
    require: Mapping[Cell, bool] | None,
    budget: _Budget,
) -> Iterator[ComponentPlacement]:
    """The placements of ``component`` with ``require`` imposed, over prepared ``links``."""
    domains = [_restricted(var, require) for var in component]
    if all(domains):
        yield from _depth_first(component, domains, links, budget)


def _unknown(var: ClueVariable) -> list[tuple[int, Cell]]:
    """``(position, cell)`` of each scope cell on which ``var``'s arrangements disagree."""
    decided, _ = var.decided()
    return [(i, cell) for i, cell in enumerate(var.scope) if not decided >> i & 1]


def _restricted(var: ClueVariable, require: Mapping[Cell, bool] | None) -> list[Arrangement]:
    """``var``'s domain, less the arrangements that contradict ``require``."""
    domain = var.domain
    if require:
        for cell, mine in require.items():
            if cell in var.scope:
                domain = var.agreeing(domain, cell, mine)
    return domain


def _cell_values(
    component: Sequence[ClueVariable],
    unknown: Sequence[list[tuple[int, Cell]]],
    placement: ComponentPlacement,
) -> dict[Cell, bool]:
    """The unknown cells of ``component`` and their values in ``placement``."""
    values: dict[Cell, bool] = {}
    for var, positions in zip(component, unknown, strict=True):
        arrangement = placement[var.cell]
        for i, cell in positions:
            values[cell] = bool(arrangement >> i & 1)
    return values


class _Frame:
    """One level of the depth-first search: a variable and the arrangements left to try."""

    __slots__ = ("candidates", "position", "undo", "var")

    def __init__(self, var: int, candidates: list[Arrangement]) -> None:
        self.var = var
        self.candidates = candidates
        self.position = 0
        self.undo: list[tuple[int, list[Arrangement]]] | None = None
        """The domains the current candidate narrowed, to restore before the next one."""


def _depth_first(
    component: Sequence[ClueVariable],
    domains: list[list[Arrangement]],
    neighbours: Links,
    budget: _Budget,
) -> Iterator[ComponentPlacement]:
    """The search loop of :func:`component_placements`, over positions ``0..len(component)-1``."""
    n = len(component)
    current = list(domains)
    chosen: list[Arrangement] = [0] * n
    unassigned = set(range(n))
    first = _smallest(unassigned, current)
    stack = [_Frame(first, current[first])]
    while stack:
        frame = stack[-1]
        k = frame.var
        if frame.undo is not None:
            for j, previous in frame.undo:
                current[j] = previous
            unassigned.add(k)
            frame.undo = None
        if frame.position == len(frame.candidates):
            stack.pop()
            continue
        arrangement = frame.candidates[frame.position]
        frame.position += 1
        budget.spend()
        unassigned.discard(k)
        chosen[k] = arrangement
        frame.undo = narrowed = []
        dead = False
        for j, mine_table, their_table in neighbours[k]:
            if j in unassigned:
                key = mine_table[arrangement]
                before = current[j]
                after = [p for p in before if their_table[p] == key]
                if len(after) != len(before):
                    narrowed.append((j, before))
                    current[j] = after
                    if not after:
                        dead = True
                        break
        if dead:
            continue
        if not unassigned:
            yield {component[i].cell: chosen[i] for i in range(n)}
            continue
        nxt = _smallest(unassigned, current)
        stack.append(_Frame(nxt, current[nxt]))


def _smallest(unassigned: set[int], current: list[list[Arrangement]]) -> int:
    """The unassigned variable with the fewest candidate arrangements."""
    return min(unassigned, key=lambda j: len(current[j]))
