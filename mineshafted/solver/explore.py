"""The explore loop: move onto proven-safe cells and let each clue's count decide what it can.

Glossary
--------
hidden
    An explored clue's neighbours that are still unknown.
unplaced
    An explored clue's mines not yet proven: its clue less the proven mines around it.
ripe
    A clue whose count alone decides its hidden neighbours: no mine left to place (all safe),
    or as many unplaced mines as hidden cells (all mines).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import NoReturn

from ..board import MINE, Cell
from ..errors import ContradictionError
from .knowledge import CellState, Knowledge
from .variables import Fact

__all__ = ["Explorer"]


class Explorer:
    """The counting layer over a :class:`~.knowledge.Knowledge`: explore, count, settle.

    Each explored clue keeps count of its hidden neighbours and its unplaced mines. A cell
    decided anywhere updates the counts of the clues beside it; a clue that turns ripe decides
    its hidden neighbours. Everything else is inferred in :mod:`mineshafted.solver.csp` and
    :mod:`mineshafted.solver.search`, which learn each new fact through :meth:`take_facts`.

    >>> from mineshafted import BoardManager
    >>> bm = BoardManager([[1, 1], [1, -1]])
    >>> knowledge = Knowledge(2, 2)
    >>> explorer = Explorer(knowledge)
    >>> knowledge.prove_safe(0)
    True
    >>> explorer.explore(bm.move, bm.get_adjacent)  # clue 1 at cell 0: one mine among 1, 2, 3
    [0]
    >>> explorer.constraint(0)
    ([1, 2, 3], 1)
    >>> knowledge.prove_safe(1), knowledge.prove_safe(2)
    (True, True)
    >>> explorer.explore(bm.move, bm.get_adjacent)  # clue 1 at cell 1: cell 3 is its only mine
    []
    >>> explorer.take_facts()
    [(1, False), (2, False), (3, True)]
    >>> knowledge.partial_grid(), knowledge.explored
    ([[1, 1], [1, -1]], 3)

    Notes
    -----
    Counting a decided cell costs ``O(clues around it)``; recording a clue ``O(its ring)``.
    """

    __slots__ = ("_around", "_facts", "_hidden", "_queue", "_uncounted", "_unplaced", "knowledge")

    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge
        cells = len(knowledge.state)
        self._queue: deque[Cell] = deque()
        """Proven-safe cells waiting to be explored."""
        self._around: list[list[Cell] | None] = [None] * cells
        """cell -> the explored clues beside it, while it is unknown"""
        self._hidden = [0] * cells
        self._unplaced = [0] * cells
        self._uncounted: deque[Cell] = deque()
        """Decided cells whose clues' counts have yet to be updated."""
        self._facts: list[Fact] = []
        """Newly decided cells that an explored clue sees, for :meth:`take_facts`."""

    def explore(
        self, move: Callable[[Cell], int], adjacent: Callable[[Cell], Iterable[Cell]]
    ) -> list[Cell]:
        """Explore every proven-safe cell and settle every ripe clue, until neither is left.

        ``move`` and ``adjacent`` are a board manager's. The cells proven in the knowledge
        since the last call are taken first; then one loop, highest priority first:

        1. a newly decided cell updates the counts of the clues beside it (hidden cells,
           unplaced mines) and is a fact for the CSP; a clue that turns ripe is queued, once;
        2. a ripe clue decides its unknown neighbours (safe ones join the safe queue);
        3. a safe cell is explored and its clue recorded: a clue that decides its unknown
           neighbours on its own (a 0, say) is ripe on sight; any other is registered
           beside them.

        Returns the clues explored here that their count alone could not settle and that
        still have unknown neighbours: the CSP's new variables.

        Raises
        ------
        ContradictionError
            A clue cannot hold given the facts around it.
        """
        knowledge = self.knowledge
        queue, uncounted, facts = self._queue, self._uncounted, self._facts
        state, values, rings, around = (
            knowledge.state,
            knowledge.values,
            knowledge.rings,
            self._around,
        )
        hidden, unplaced = self._hidden, self._unplaced
        unknown, safe, explored, mined = (
            CellState.UNKNOWN,
            CellState.SAFE,
            CellState.EXPLORED,
            CellState.MINE,
        )
        for cell in knowledge.take_journal():
            if state[cell] is safe:
                queue.append(cell)
            if around[cell] is not None:
                uncounted.append(cell)
        # Cells to decide all one way: a clue's unknown neighbours when it is ripe on sight.
        orders: list[tuple[Iterable[Cell], bool]] = []
        # Registered clues that became ripe.
        ripe: list[Cell] = []
        fresh: list[Cell] = []
        while True:
            if uncounted:
                # A decided cell: update the counts of the clues beside it.
                n = uncounted.popleft()
                beside = around[n]
                if beside is None:
                    continue
                around[n] = None
                if state[n] is mined:
                    facts.append((n, True))
                    for clue_cell in beside:
                        left = hidden[clue_cell] - 1
                        hidden[clue_cell] = left
                        need = unplaced[clue_cell] - 1
                        unplaced[clue_cell] = need
                        if need <= 0:
                            if need < 0:
                                self._refuse(clue_cell, need, left)
                            if left:
                                ripe.append(clue_cell)
                else:
                    facts.append((n, False))
                    for clue_cell in beside:
                        left = hidden[clue_cell] - 1
                        hidden[clue_cell] = left
                        need = unplaced[clue_cell]
                        if need >= left and need:
                            if need > left:
                                self._refuse(clue_cell, need, left)
                            ripe.append(clue_cell)
                continue
            if orders or ripe:
                # Decide the unknown neighbours of a ripe clue.
                if orders:
                    cells, mine = orders.pop()
                else:
                    cell = ripe.pop()
                    left, need = hidden[cell], unplaced[cell]
                    if not left or (need and need != left):
                        continue
                    cells, mine = rings[cell], need > 0
                if mine:
                    for n in cells:
                        if state[n] is unknown:
                            state[n] = mined
                            values[n] = MINE
                            if around[n] is not None:
                                uncounted.append(n)
                else:
                    for n in cells:
                        if state[n] is unknown:
                            state[n] = safe
                            queue.append(n)
                            if around[n] is not None:
                                uncounted.append(n)
                continue
            if not queue:
                break
            # Explore a safe cell and record its clue.
            cell = queue.popleft()
            clue = move(cell)
            state[cell] = explored
            values[cell] = clue
            rings[cell] = ring = tuple(adjacent(cell))
            # An explicit loop: on Python 3.11 a comprehension here costs a function call.
            cells = []
            need = clue
            for n in ring:
                seen = state[n]
                if seen is unknown:
                    cells.append(n)
                elif seen is mined:
                    need -= 1
            left = len(cells)
            if need == 0 or need == left:
                orders.append((cells, need > 0))
                continue
            if not 0 < need < left:
                self._refuse(cell, need, left)
            for n in cells:
                beside = around[n]
                if beside is None:
                    around[n] = [cell]
                else:
                    beside.append(cell)
            hidden[cell] = left
            unplaced[cell] = need
            fresh.append(cell)
        return [cell for cell in fresh if hidden[cell]]

    def take_facts(self) -> list[Fact]:
        """Hand over and forget the cells decided since the last call that a clue sees.

        Only such a cell can be in a CSP variable's scope (a scope is a clue's unknown
        neighbours), so these are all the facts the CSP needs, in the order decided.
        """
        facts, self._facts = self._facts, []
        return facts

    def constraint(self, cell: Cell) -> tuple[list[Cell], int]:
        """The explored ``cell``'s unknown neighbours, and how many of its mines are unplaced."""
        return self.knowledge.unknown_neighbours(cell), self._unplaced[cell]

    def clues_beside(self, cell: Cell) -> list[Cell]:
        """The explored clues waiting on the unknown ``cell`` (none once it is decided)."""
        return list(self._around[cell] or ())

    def frontier(self) -> list[Cell]:
        """Unknown cells beside an explored clue, ascending."""
        unknown, around = CellState.UNKNOWN, self._around
        return [c for c, s in enumerate(self.knowledge.state) if s is unknown and around[c]]

    def _refuse(self, cell: Cell, unplaced: int, hidden: int) -> NoReturn:
        """Raise for a clue whose count no placement can meet."""
        raise ContradictionError(
            f"clue {self.knowledge.values[cell]} at cell {cell} cannot hold: {unplaced} mine(s) "
            f"left to place among {hidden} unknown neighbour(s)",
            cells=[cell],
        )
