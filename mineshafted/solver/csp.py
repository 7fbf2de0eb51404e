"""The clue-domain CSP: one variable per open clue, arcs between them, AC-3.

The CSP is incremental: :meth:`ClueCSP.add` touches only the variables and arcs around one
clue, facts learnt from outside (:meth:`ClueCSP.learn`) touch only the variables whose
scopes hold those cells, and :meth:`ClueCSP.propagate` runs AC-3 from the arcs they put on the
queue.
See :mod:`mineshafted.solver.variables` for the glossary (variable, arrangement, domain, fact).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NoReturn

import networkx as nx

from .. import core
from ..board import Cell
from ..errors import ContradictionError
from .arcs import Arc, ArcGraph
from .variables import Arrangement, ClueVariable, Fact, compress

__all__ = ["ClueCSP"]


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
    Arc revision projects both domains onto the shared cells (a table lookup per arrangement),
    so revising ``(x, y)`` costs ``O(|D(x)| + |D(y)|)``; domains hold at most ``C(8, 4) = 70``
    arrangements. Each domain only shrinks, so AC-3 re-queues each arc a bounded number of times.

    The queue holds variables rather than arcs (the variable-oriented form of AC-3): a variable
    whose domain shrank stands for every arc pointing into it, and a new variable also for
    every arc leaving it. Retiring a variable takes it off the queue, so no stale arc is ever
    popped, and a variable waits there once however many of its arcs are due.
    """

    def __init__(self) -> None:
        self.graph = ArcGraph()
        """Nodes are variable cells; each edge's data is the :class:`~.arcs.Arc` they share."""
        self.variables: dict[Cell, ClueVariable] = {}
        self.touched: set[Cell] = set()
        """Variables created or narrowed since :meth:`take_touched` last emptied this set."""
        self._holders: dict[Cell, list[tuple[ClueVariable, Arrangement]]] = {}
        """unknown cell -> each variable whose scope holds it, with the cell's bit there"""
        self._drawn: dict[Cell, bool] = {}
        """Facts AC-3 has drawn and not yet reported."""
        self._learnt: list[Fact] = []
        """Facts learnt from outside the CSP, not yet applied to the variables whose scopes
        hold them."""
        self._fresh: dict[Cell, None] = {}
        """The AC-3 queue, part 1: new variables, each standing for the arcs out of it (to
        revise it against each neighbour). A dict as an ordered set: first in, first out."""
        self._changed: dict[Cell, None] = {}
        """The AC-3 queue, part 2: variables that are new or whose domain shrank, each
        standing for the arcs into it (to revise each neighbour against it)."""
        self._adj = self.graph.arcs

    # -- building -------------------------------------------------------------------------

    def add(self, cell: Cell, scope: Iterable[Cell], mines: int) -> None:
        """Add the clue at ``cell``: ``mines`` mines among the unknown cells ``scope``.

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
        holders, graph = self._holders, self.graph
        self.variables[cell] = var
        graph.add_variable(cell)
        arcs_here = self._adj[cell]
        for i, shared in enumerate(var.scope):
            bit = 1 << i
            others = holders.get(shared)
            if others is None:
                holders[shared] = [(var, bit)]
                continue
            for other_var, other_bit in others:
                other = other_var.cell
                arc = arcs_here.get(other)
                if arc is None:
                    graph.join(cell, other, Arc(cell, bit, other, other_bit, {shared}))
                else:
                    arc.shared.add(shared)
                    masks = arc.masks
                    masks[cell] |= bit
                    masks[other] |= other_bit
            others.append((var, bit))
        self._fresh[cell] = self._changed[cell] = None
        self.touched.add(cell)
        if mines == 0 or mines == len(var.scope):
            self._draw(var)

    def learn(self, facts: Iterable[Fact]) -> None:
        """Queue cells decided outside the CSP (by the knowledge's counting, say).

        Facts are applied at the start of :meth:`propagate` (or by :meth:`apply_facts`), not
        here: a run of exploring often decides several cells of one clue, or all of them,
        and each variable is then narrowed once, or simply retired. Cells no variable
        holds are ignored.
        """
        self._learnt.extend(facts)

    def apply_facts(self) -> None:
        """Restrict every variable to the arrangements that agree with the queued facts.

        Each variable is filtered once for all its newly decided cells. A variable with no
        unknown cell left is retired; one that was narrowed draws its facts and puts
        the arcs into it back on the queue.

        Raises
        ------
        ContradictionError
            AC-3 had drawn the opposite of a learnt fact, or no arrangement of some clue agrees
            with the facts.
        """
        learnt, self._learnt = self._learnt, []
        hit, shared_by = self._fix(learnt)
        narrowed = self._restrict(hit)
        self._unlink(shared_by)
        for var in narrowed:
            self._narrowed(var)

    def _fix(
        self, learnt: list[Fact]
    ) -> tuple[dict[Cell, ClueVariable], list[tuple[Cell, list[tuple[ClueVariable, int]]]]]:
        """Mark each learnt cell decided in the variables that hold it (its bit in their
        :attr:`~.variables.ClueVariable.fixed`); return those variables, and each cell that
        more than one of them holds (with its holders), whose arcs lose it.

        Raises
        ------
        ContradictionError
            AC-3 had drawn the opposite of a learnt fact.
        """
        holders_of, drawn = self._holders, self._drawn
        hit: dict[Cell, ClueVariable] = {}
        shared_by: list[tuple[Cell, list[tuple[ClueVariable, int]]]] = []
        for cell, mine in learnt:
            holders = holders_of.pop(cell, None)
            if holders is None:
                continue
            if drawn.pop(cell, mine) != mine:
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
                var.unknown -= 1
        return hit, shared_by

    def _restrict(self, hit: dict[Cell, ClueVariable]) -> list[ClueVariable]:
        """Filter each variable of ``hit`` once by its fixed bits; retire one with no unknown
        cell left; return those whose domain shrank.

        Raises
        ------
        ContradictionError
            No arrangement of some clue agrees with the facts.
        """
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
            if var.unknown == 0:
                self._retire(var)  # and its arcs with it
            elif len(kept) != len(var.domain):
                var.domain = kept
                narrowed.append(var)
        return narrowed

    def _unlink(self, shared_by: list[tuple[Cell, list[tuple[ClueVariable, int]]]]) -> None:
        """Arcs between live variables lose the decided cells; an arc with none left goes."""
        adj = self._adj
        for cell, holders in shared_by:
            for i, (var_a, _) in enumerate(holders):
                a = var_a.cell
                arcs_a = adj.get(a)
                if arcs_a is None:
                    continue
                for var_b, _ in holders[i + 1 :]:
                    b = var_b.cell
                    arc = arcs_a.get(b)
                    if arc is not None:
                        shared = arc.shared
                        shared.discard(cell)
                        if not shared:
                            self.graph.part(a, b)

    # -- propagation ----------------------------------------------------------------------

    def propagate(self, *, until_facts: bool = False) -> list[Fact]:
        """Run AC-3 and return the cells it decided, in the order decided.

        Queued facts are applied first (:meth:`apply_facts`). By default AC-3 runs to a fixed
        point, applying the facts it draws as it goes. With ``until_facts`` it stops at the
        first facts it draws and returns them unapplied, with the rest of the queue kept for the
        next call: the caller (the sweep) records them, explores what they open, and sends
        them back through :meth:`learn` with everything that follows from them by counting,
        which costs far less than AC-3 would to find the same cells.

        Raises
        ------
        ContradictionError
            Some domain became empty: the clues contradict each other.

        Notes
        -----
        Under the compiled core each step of the queue (the arcs of one variable revised)
        runs in the ``revise`` kernel of :mod:`mineshafted.core`, which revises the same arcs
        in the same order and calls :meth:`_narrowed` where the loop below does: the same
        domains, facts and order of facts. The loop below is its specification.
        """
        facts: list[Fact] = []
        drawn, fresh, changed = self._drawn, self._fresh, self._changed
        variables, adj, revise = self.variables, self._adj, self._revise
        kernels, narrowed = core.kernels, self._narrowed
        self.apply_facts()
        while True:
            if drawn:
                found = list(drawn.items())
                drawn.clear()
                if until_facts:
                    return found
                facts += found
                self._learnt += found
                self.apply_facts()
            elif fresh:
                cell = next(iter(fresh))
                del fresh[cell]
                if kernels is not None and kernels.revise(
                    cell, True, variables, adj[cell], narrowed
                ):
                    continue  # the compiled form of the step below (mineshafted.core)
                x = variables[cell]
                shrank = False
                for other, arc in adj[cell].items():
                    shrank |= revise(x, variables[other], arc)
                if shrank:
                    self._narrowed(x)
            elif changed:
                cell = next(iter(changed))
                del changed[cell]
                if kernels is not None and kernels.revise(
                    cell, False, variables, adj[cell], narrowed
                ):
                    continue  # the compiled form of the step below (mineshafted.core)
                y = variables[cell]
                for other, arc in adj[cell].items():
                    x = variables[other]
                    if revise(x, y, arc):
                        self._narrowed(x)
            else:
                return facts

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

    def _revise(self, x: ClueVariable, y: ClueVariable, arc: Arc) -> bool:
        """Drop the arrangements of ``x`` that no arrangement of ``y`` allows; report a change."""
        masks = arc.masks
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
        """``var``'s domain shrank: check it, draw its facts, re-queue the arcs into it."""
        if not var.domain:
            self._empty(var)
        self.touched.add(var.cell)
        self._draw(var)
        self._changed[var.cell] = None

    def _draw(self, var: ClueVariable) -> None:
        """Queue every unknown scope cell that is mined, or free, in all of ``var``'s domain."""
        mask, mines = var.decided()
        if not mask:
            return
        holders_of, drawn = self._holders, self._drawn
        for i, cell in enumerate(var.scope):
            if mask >> i & 1 and cell in holders_of:
                mine = bool(mines >> i & 1)
                if drawn.setdefault(cell, mine) != mine:
                    raise ContradictionError(
                        f"cell {cell} is proven both safe and a mine", cells=[var.cell]
                    )

    def _empty(self, var: ClueVariable) -> NoReturn:
        """Raise for a variable left with no arrangement."""
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
