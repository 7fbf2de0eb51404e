"""The clue-domain CSP: one variable per open clue, arcs in a networkx graph, AC-3.

Glossary
--------
variable
    An explored clue with undecided neighbours, named by its cell. Its *scope* is the tuple of
    those neighbours (ascending) at the time the clue was seen.
placement
    One value of a variable: a bitmask over its scope, bit ``i`` set when ``scope[i]`` is a mine.
domain
    The placements of a variable still consistent with everything known.
arc
    Two variables whose scopes share an undecided cell: an edge of :attr:`ClueCSP.graph`.

The CSP is incremental: :meth:`ClueCSP.add` touches only the variables and arcs around one
clue, facts learnt from outside (:meth:`ClueCSP.learn`) touch only the variables that watch
those cells, and :meth:`ClueCSP.propagate` runs AC-3 from the arcs they put on the queue.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias

import networkx as nx

from ..board import Cell
from ..errors import ContradictionError
from .knowledge import Decision

__all__ = [
    "ArcGraph",
    "ClueCSP",
    "ClueVariable",
    "Decision",
    "Placement",
    "compress",
    "placements",
]

log = logging.getLogger(__name__)

Placement = int
"""A bitmask over a variable's scope: bit ``i`` set means ``scope[i]`` holds a mine."""

if TYPE_CHECKING:
    _Graph: TypeAlias = nx.Graph[Cell]
else:
    _Graph = nx.Graph

Arcs = dict[Cell, dict[Cell, dict[str, Any]]]
"""networkx's adjacency layout: variable -> neighbour -> edge data."""


class ArcGraph(_Graph):
    """The arc graph: nodes are variable cells, edges join variables that share a cell.

    A networkx graph that supplies its own node and adjacency dicts through networkx's
    documented factory hooks (``node_dict_factory``, ``adjlist_outer_dict_factory``) and
    keeps them as :attr:`nodes_seen` and :attr:`arcs`. AC-3 reads arcs there directly,
    without the read-only views that ``adj`` builds on every lookup, and the CSP grows and
    shrinks the graph with :meth:`add_variable`, :meth:`join`, :meth:`part` and
    :meth:`drop_variable`, which write the same dicts as ``add_node``, ``add_edge``,
    ``remove_edge`` and ``remove_node`` without their generic checks. Every networkx
    reader (``edges``, ``has_edge``, ``node_connected_component``...) sees the same graph.
    Its ``__networkx_cache__`` is ``None``, networkx's documented way to turn off caching
    converted copies of a graph, so no mutation has a cache to clear.

    >>> g = ArcGraph()
    >>> g.add_variable(1); g.add_variable(2); g.add_variable(3)
    >>> g.join(1, 2, {"shared": {7}}); g.join(2, 3, {"shared": {8}})
    >>> sorted(g.edges), sorted(nx.node_connected_component(g, 1))
    ([(1, 2), (2, 3)], [1, 2, 3])
    >>> g.part(1, 2); g.drop_variable(3)
    >>> sorted(g.nodes), list(g.edges)
    ([1, 2], [])
    """

    def __init__(self) -> None:
        self.arcs: Arcs = {}
        self.nodes_seen: dict[Cell, dict[str, Any]] = {}
        super().__init__()
        self.__networkx_cache__ = None  # type: ignore[assignment]  # documented opt-out

    def adjlist_outer_dict_factory(self) -> Arcs:  # type: ignore[override]
        """Hand networkx :attr:`arcs` as the graph's outer adjacency dict."""
        return self.arcs

    def node_dict_factory(self) -> dict[Cell, dict[str, Any]]:  # type: ignore[override]
        """Hand networkx :attr:`nodes_seen` as the graph's node dict."""
        return self.nodes_seen

    def add_variable(self, cell: Cell) -> None:
        """Add the node ``cell`` (not yet in the graph), with no edges."""
        self.nodes_seen[cell] = {}
        self.arcs[cell] = {}

    def join(self, a: Cell, b: Cell, data: dict[str, Any]) -> None:
        """Add the edge ``a``-``b`` (both nodes, not yet joined), holding ``data``."""
        arcs = self.arcs
        arcs[a][b] = arcs[b][a] = data

    def part(self, a: Cell, b: Cell) -> None:
        """Remove the edge ``a``-``b``."""
        arcs = self.arcs
        del arcs[a][b], arcs[b][a]

    def drop_variable(self, cell: Cell) -> None:
        """Remove the node ``cell`` and its edges."""
        arcs = self.arcs
        for other in arcs.pop(cell):
            del arcs[other][cell]
        del self.nodes_seen[cell]


class ClueVariable:
    """One explored clue as a CSP variable.

    >>> v = ClueVariable(4, (2, 5, 8), 2)
    >>> [v.mines(p) for p in v.domain]
    [[2, 5], [2, 8], [5, 8]]
    """

    __slots__ = ("cell", "domain", "fixed", "fixed_mines", "open", "scope")

    def __init__(self, cell: Cell, scope: Iterable[Cell], mines: int) -> None:
        self.cell = cell
        self.scope = tuple(sorted(scope))
        self.domain: list[Placement] = list(placements(len(self.scope), mines))
        self.open = len(self.scope)
        """How many scope cells the CSP has not yet decided."""
        self.fixed = 0
        """Scope bits decided but not yet applied to the domain."""
        self.fixed_mines = 0
        """Which of the :attr:`fixed` bits are mines."""

    def mines(self, placement: Placement) -> list[Cell]:
        """The scope cells that ``placement`` mines."""
        return [c for i, c in enumerate(self.scope) if placement >> i & 1]

    def bit(self, cell: Cell) -> int:
        """The bit of ``cell`` in this variable's placements."""
        return 1 << self.scope.index(cell)

    def agreeing(self, domain: list[Placement], cell: Cell, mine: bool) -> list[Placement]:
        """The placements of ``domain`` that give ``cell`` (a scope cell) the value ``mine``."""
        bit = self.bit(cell)
        want = bit if mine else 0
        return [p for p in domain if p & bit == want]

    def settled(self) -> tuple[Placement, Placement]:
        """``(mask, mines)``: the scope bits that agree across the domain, and their values."""
        may, must = 0, (1 << len(self.scope)) - 1
        for p in self.domain:
            may |= p
            must &= p
        return ~(may ^ must) & ((1 << len(self.scope)) - 1), must

    def __repr__(self) -> str:
        return f"ClueVariable(cell={self.cell}, scope={self.scope}, |domain|={len(self.domain)})"


class ClueCSP:
    """Clue variables, the arc graph between them, and AC-3 over it.

    Examples
    --------
    The assignment's 4x3 board after exploring from index 0: four clues border the unexplored
    cells 2, 5, 8 and 11.

    >>> csp = ClueCSP()
    >>> for cell, scope, mines in [(1, (2, 5), 1), (4, (2, 5, 8), 2),
    ...                            (7, (5, 8, 11), 2), (10, (8, 11), 1)]:
    ...     csp.add(cell, scope, mines)
    >>> sorted(csp.graph.edges)
    [(1, 4), (1, 7), (4, 7), (4, 10), (7, 10)]
    >>> sorted(csp.propagate())
    [(2, False), (5, True), (8, True), (11, False)]

    Notes
    -----
    Arc revision projects both domains onto the shared cells (a table lookup per placement),
    so revising ``(x, y)`` costs ``O(|D(x)| + |D(y)|)``; domains hold at most ``C(8, 4) = 70``
    placements. Each domain only shrinks, so AC-3 re-queues each arc a bounded number of times.

    The queue holds variables rather than arcs (the variable-oriented form of AC-3): a variable
    whose domain shrank stands for every arc pointing into it, and a new variable also for
    every arc leaving it. Retiring a variable takes it off the queue, so no stale arc is ever
    popped, and a variable waits there once however many of its arcs are due.
    """

    def __init__(self) -> None:
        self.graph = ArcGraph()
        """Nodes are variable cells. An edge's data holds ``"shared"``, the undecided cells the
        two scopes share, and ``"masks"``, each endpoint's bitmask of the cells they shared
        when linked (a cell decided since stays in the masks: both domains agree on it)."""
        self.variables: dict[Cell, ClueVariable] = {}
        self.touched: set[Cell] = set()
        """Variables created or narrowed since :meth:`take_touched` last emptied this set."""
        self._watchers: dict[Cell, list[tuple[ClueVariable, Placement]]] = {}
        """undecided cell -> each variable whose scope holds it, with the cell's bit there"""
        self._pending: dict[Cell, bool] = {}
        """Cells the CSP has concluded and not yet reported."""
        self._fixes: list[Decision] = []
        """Cells decided outside the CSP, not yet applied to the variables that watch them."""
        self._fresh: dict[Cell, None] = {}
        """The AC-3 queue, part 1: new variables, each standing for the arcs out of it (to
        revise it against each neighbour). A dict as an ordered set: first in, first out."""
        self._changed: dict[Cell, None] = {}
        """The AC-3 queue, part 2: variables that are new or whose domain shrank, each
        standing for the arcs into it (to revise each neighbour against it)."""
        self._adj = self.graph.arcs

    # -- building -------------------------------------------------------------------------

    def add(self, cell: Cell, scope: Iterable[Cell], mines: int) -> None:
        """Add the clue at ``cell``: ``mines`` mines among the undecided cells ``scope``.

        Raises
        ------
        ValueError
            ``cell`` already is a variable, or ``mines`` does not fit in ``scope``.
        """
        if cell in self.variables:
            raise ValueError(f"cell {cell} is already a variable")
        var = ClueVariable(cell, scope, mines)
        if not 0 <= mines <= len(var.scope):
            raise ValueError(f"{mines} mine(s) cannot fit among {len(var.scope)} cell(s)")
        watchers, graph = self._watchers, self.graph
        self.variables[cell] = var
        graph.add_variable(cell)
        arcs_here = self._adj[cell]
        for i, shared in enumerate(var.scope):
            bit = 1 << i
            others = watchers.get(shared)
            if others is None:
                watchers[shared] = [(var, bit)]
                continue
            for other_var, other_bit in others:
                other = other_var.cell
                data = arcs_here.get(other)
                if data is None:
                    masks = {cell: bit, other: other_bit}
                    graph.join(cell, other, {"shared": {shared}, "masks": masks})
                else:
                    data["shared"].add(shared)
                    masks = data["masks"]
                    masks[cell] |= bit
                    masks[other] |= other_bit
            others.append((var, bit))
        self._fresh[cell] = self._changed[cell] = None
        self.touched.add(cell)
        if mines == 0 or mines == len(var.scope):
            self._conclude(var)

    def learn(self, facts: Iterable[Decision]) -> None:
        """Queue cells decided outside the CSP (by the knowledge's counting, say).

        Facts are applied at the start of :meth:`propagate` (or by :meth:`apply_fixes`), not
        here: a run of exploring often decides several cells of one clue, or all of them,
        and each variable is then narrowed once, or simply retired. Cells no variable
        watches are ignored.
        """
        self._fixes.extend(facts)

    def fix(self, cell: Cell, mine: bool) -> None:
        """Queue one fact: ``cell`` is a mine, or safe. See :meth:`learn`."""
        self._fixes.append((cell, mine))

    def apply_fixes(self) -> None:
        """Restrict every variable to the placements that agree with the queued facts.

        Each variable is filtered once for all its newly decided cells. A variable with no
        undecided cell left is retired; one that was narrowed draws its conclusions and puts
        the arcs into it back on the queue.

        Raises
        ------
        ContradictionError
            The CSP had concluded the opposite of a fact, or no placement of some clue agrees
            with the facts.
        """
        fixes, self._fixes = self._fixes, []
        watchers, adj, pending = self._watchers, self._adj, self._pending
        hit: dict[Cell, ClueVariable] = {}
        shared_by: list[tuple[Cell, list[tuple[ClueVariable, int]]]] = []
        for cell, mine in fixes:
            holders = watchers.pop(cell, None)
            if holders is None:
                continue
            if pending.pop(cell, mine) != mine:
                raise ContradictionError(
                    f"cell {cell} was proven both safe and a mine", cells=[cell]
                )
            if len(holders) > 1:
                shared_by.append((cell, holders))
            for var, bit in holders:
                hit[var.cell] = var
                var.fixed |= bit
                if mine:
                    var.fixed_mines |= bit
                var.open -= 1
        narrowed = []
        for var in hit.values():
            mask, want = var.fixed, var.fixed_mines
            var.fixed = var.fixed_mines = 0
            kept = []  # explicit loops in the hot paths: cheaper than comprehensions on 3.11
            for p in var.domain:
                if p & mask == want:
                    kept.append(p)
            if not kept:
                self._empty(var)
            if var.open == 0:
                self._retire(var)  # and its arcs with it
            elif len(kept) != len(var.domain):
                var.domain = kept
                narrowed.append(var)
        # Arcs between live variables lose the decided cells; an arc with none left goes.
        for cell, holders in shared_by:
            for i, (var_a, _) in enumerate(holders):
                a = var_a.cell
                arcs_a = adj.get(a)
                if arcs_a is None:
                    continue
                for var_b, _ in holders[i + 1 :]:
                    b = var_b.cell
                    data = arcs_a.get(b)
                    if data is not None:
                        shared = data["shared"]
                        shared.discard(cell)
                        if not shared:
                            self.graph.part(a, b)
        for var in narrowed:
            self._narrowed(var)

    # -- propagation ----------------------------------------------------------------------

    def propagate(self, *, until_news: bool = False) -> list[Decision]:
        """Run AC-3 and return the cells it decided, in the order decided.

        Queued facts are applied first (:meth:`apply_fixes`). By default AC-3 runs to a fixed
        point, applying its own conclusions as it goes. With ``until_news`` it stops at its
        first conclusions and returns them unapplied, with the rest of the queue kept for the
        next call: the caller (the sweep) records them, explores what they open, and sends
        them back through :meth:`learn` with everything that follows from them by counting,
        which costs far less than AC-3 would to find the same cells.

        Raises
        ------
        ContradictionError
            Some domain became empty: the clues contradict each other.
        """
        decided: list[Decision] = []
        pending, fresh, changed = self._pending, self._fresh, self._changed
        variables, adj, revise = self.variables, self._adj, self._revise
        self.apply_fixes()
        while True:
            if pending:
                found = list(pending.items())
                pending.clear()
                if until_news:
                    return found
                decided += found
                self._fixes += found
                self.apply_fixes()
            elif fresh:
                cell = next(iter(fresh))
                del fresh[cell]
                x = variables[cell]
                shrank = False
                for other, data in adj[cell].items():
                    shrank |= revise(x, variables[other], data)
                if shrank:
                    self._narrowed(x)
            elif changed:
                cell = next(iter(changed))
                del changed[cell]
                y = variables[cell]
                for other, data in adj[cell].items():
                    x = variables[other]
                    if revise(x, y, data):
                        self._narrowed(x)
            else:
                return decided

    def take_touched(self) -> set[Cell]:
        """Hand over and forget the set of variables touched since the last call."""
        touched, self.touched = self.touched, set()
        return touched

    def components(self, seeds: Iterable[Cell]) -> Iterator[list[ClueVariable]]:
        """Yield the connected components of the arc graph that contain a live seed variable.

        Components of one variable are skipped: AC-3 has already drawn all it implies.
        """
        seen: set[Cell] = set()
        for seed in seeds:
            if seed in seen or seed not in self.variables:
                continue
            nodes = nx.node_connected_component(self.graph, seed)
            seen |= nodes
            if len(nodes) > 1:
                yield [self.variables[n] for n in sorted(nodes)]

    # -- internals ------------------------------------------------------------------------

    def _revise(self, x: ClueVariable, y: ClueVariable, data: dict[str, Any]) -> bool:
        """Drop the placements of ``x`` that no placement of ``y`` agrees with; report a change."""
        masks = data["masks"]
        project_y = compress(masks[y.cell], len(y.scope))
        support = set()
        for p in y.domain:
            support.add(project_y[p])
        project_x = compress(masks[x.cell], len(x.scope))
        kept = []
        for p in x.domain:
            if project_x[p] in support:
                kept.append(p)
        if len(kept) == len(x.domain):
            return False
        x.domain = kept
        return True

    def _narrowed(self, var: ClueVariable) -> None:
        """``var``'s domain shrank: check it, draw conclusions, re-queue the arcs into it."""
        if not var.domain:
            self._empty(var)
        self.touched.add(var.cell)
        self._conclude(var)
        self._changed[var.cell] = None

    def _conclude(self, var: ClueVariable) -> None:
        """Queue every undecided scope cell that is mined, or free, in all of ``var``'s domain."""
        mask, mines = var.settled()
        if not mask:
            return
        watchers, pending = self._watchers, self._pending
        for i, cell in enumerate(var.scope):
            if mask >> i & 1 and cell in watchers:
                mine = bool(mines >> i & 1)
                if pending.setdefault(cell, mine) != mine:
                    raise ContradictionError(
                        f"cell {cell} is proven both safe and a mine", cells=[var.cell]
                    )

    def _empty(self, var: ClueVariable) -> NoReturn:
        """Raise for a variable left with no placement."""
        raise ContradictionError(
            f"the clue at cell {var.cell} has no placement consistent with its neighbours",
            cells=[var.cell],
        )

    def _retire(self, var: ClueVariable) -> None:
        """Forget a variable whose every scope cell is decided."""
        cell = var.cell
        del self.variables[cell]
        self.graph.drop_variable(cell)
        self.touched.discard(cell)
        self._fresh.pop(cell, None)
        self._changed.pop(cell, None)


@cache
def placements(n: int, mines: int) -> tuple[Placement, ...]:
    """Every ``n``-bit placement with exactly ``mines`` bits set, ascending.

    >>> placements(3, 2)
    (3, 5, 6)
    """
    return tuple(sorted(sum(1 << i for i in chosen) for chosen in combinations(range(n), mines)))


@cache
def compress(mask: int, width: int) -> tuple[int, ...]:
    """Table of the bits of every ``width``-bit value at ``mask``'s positions, packed low.

    Two variables' projections onto their shared cells are comparable because both scopes
    are sorted, so the shared cells keep their relative order in each.

    >>> compress(0b101, 3)
    (0, 1, 0, 1, 2, 3, 2, 3)
    """
    positions = [i for i in range(width) if mask >> i & 1]
    return tuple(
        sum(1 << k for k, i in enumerate(positions) if value >> i & 1)
        for value in range(1 << width)
    )
