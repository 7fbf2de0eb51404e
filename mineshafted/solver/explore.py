"""The explore loop: move onto proven-safe cells and let each clue's count decide what it can.

Glossary
--------
unplaced
    An explored clue's mines not yet proven: its clue less the proven mines around it.
ripe
    A clue whose count alone decides its unknown neighbours: no mine left to place (all safe),
    or as many unplaced mines as unknown neighbours (all mines).
ring
    The neighbours of an explored cell, as the manager's ``get_adjacent`` listed them.

What the manager says is checked where it is cheap, once, when it is read: each clue is an
int (``0 <= clue <=`` the ring's length, on the rarer paths where that matters), and each ring
sums to exactly what the cell's true neighbours sum to under the manager's ``size``, with at
most 9 items read from it. That catches rings shifted by one, wrapped round the edges, missing
or adding a cell, and rings from a swapped size; a ring whose members are wrong but sum to the
right total is not caught (see :meth:`Explorer.explore`).
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Callable, Iterable, MutableSequence
from functools import lru_cache
from itertools import islice
from operator import index
from typing import NoReturn

from .. import core
from ..board import MINE, Cell, Geometry
from ..errors import ContradictionError, ManagerError
from .knowledge import CellState, Knowledge
from .variables import Fact

__all__ = ["Explorer"]


class Explorer:
    """The counting layer over a :class:`~.knowledge.Knowledge`: explore, count, decide.

    Each explored clue keeps count of its unknown neighbours and its unplaced mines. A cell
    decided anywhere updates the counts of the clues beside it; a clue that turns ripe decides
    its unknown neighbours. Everything else is inferred in :mod:`mineshafted.solver.csp` and
    :mod:`mineshafted.solver.search`, which learn each new fact through :meth:`take_facts`.
    This is the fast form of the ``count`` rung (:func:`mineshafted.solver.plain.count` is
    its plain statement).

    Examples
    --------
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

    __slots__ = (
        "_around",
        "_facts",
        "_queue",
        "_sums",
        "_uncounted",
        "_unknown",
        "_unplaced",
        "knowledge",
    )

    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge
        cells = len(knowledge.state)
        self._sums = _ring_sums(knowledge.rows, knowledge.cols)
        """cell -> the sum of its true neighbours, what a ring read for it must sum to."""
        self._queue: deque[Cell] = deque()
        """Proven-safe cells waiting to be explored."""
        self._around: list[list[Cell] | None] = [None] * cells
        """cell -> the explored clues beside it, while it is unknown"""
        self._unknown = [0] * cells
        """clue cell -> how many of its neighbours are unknown"""
        self._unplaced = [0] * cells
        """clue cell -> how many of its mines are not yet proven"""
        self._uncounted: deque[Cell] = deque()
        """Decided cells whose clues' counts have yet to be updated."""
        self._facts: list[Fact] = []
        """Newly decided cells that an explored clue sees, for :meth:`take_facts`."""

    def explore(  # noqa: C901 - dense on purpose: see Notes
        self, move: Callable[[Cell], int], adjacent: Callable[[Cell], Iterable[Cell]]
    ) -> list[Cell]:
        """Explore every proven-safe cell and decide every ripe clue, until neither is left.

        ``move`` and ``adjacent`` are a board manager's. The cells proven in the knowledge
        since the last call are taken first; then one loop, highest priority first:

        1. a newly decided cell updates the counts of the clues beside it (unknown cells,
           unplaced mines) and is a fact for the CSP; a clue that turns ripe is queued, once;
        2. a ripe clue decides its unknown neighbours (safe ones join the safe queue);
        3. a safe cell is explored and its clue recorded: a clue that decides its unknown
           neighbours on its own (a 0, say) is ripe on sight; any other is registered
           beside them.

        Returns the clues explored here that their count alone could not decide and that
        still have unknown neighbours: the CSP's new variables.

        Raises
        ------
        ContradictionError
            A clue cannot hold given the facts around it.
        ManagerError
            The manager's clue is not a whole number from 0 to the cell's neighbour count, or
            its ring is not the cell's neighbours: more than 8 items, a member not a cell
            index or off the board, or a sum other than the true ring's (a ring shifted by
            one, wrapped round an edge, missing or adding a cell, or from a swapped size).
            A ring whose wrong members sum to the true total is not caught.

        Notes
        -----
        The checks cost one ``sum`` of the ring and three comparisons per explored cell.

        One loop, dense on purpose (ruff's complexity 33, above the package's 15): it runs
        once per decided and per explored cell, and splitting it into methods called per
        cell (tried: counting, deciding and exploring a cell each a method) made the expert
        sweep 16 % slower and the 60x60 sweep 36 % (``scripts/bench_sweep.py --against``).
        :func:`mineshafted.solver.plain.count` states this rung plainly and
        :func:`mineshafted.solver.plain.sweep` the loop around it.
        """
        kernels = core.kernels
        if kernels is not None:  # the compiled form of this loop (mineshafted.core)
            return kernels.explore(self, move, adjacent, _STATES)
        knowledge = self.knowledge
        queue, uncounted, facts = self._queue, self._uncounted, self._facts
        state, values, rings, around = (
            knowledge.state,
            knowledge.values,
            knowledge.rings,
            self._around,
        )
        unknowns, unplaced = self._unknown, self._unplaced
        sums = self._sums
        unknown, safe, explored, mined = (
            CellState.UNKNOWN,
            CellState.SAFE,
            CellState.EXPLORED,
            CellState.MINE,
        )
        self._take_journal()
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
                        left = unknowns[clue_cell] - 1
                        unknowns[clue_cell] = left
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
                        left = unknowns[clue_cell] - 1
                        unknowns[clue_cell] = left
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
                    left, need = unknowns[cell], unplaced[cell]
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
            # Explore a safe cell and record its clue and its ring, both checked where cheap.
            cell = queue.popleft()
            clue = move(cell)
            if type(clue) is not int:
                clue = self._clue(cell, clue)
            ring = adjacent(cell)
            ring = tuple(ring) if type(ring) is list else self._read(cell, ring)
            if sum(ring) != sums[cell]:
                self._fault(cell, ring)
            state[cell] = explored
            values[cell] = clue
            rings[cell] = ring
            # An explicit loop: on Python 3.11 a comprehension here costs a function call.
            cells = []
            need = clue
            try:
                for n in ring:
                    seen = state[n]
                    if seen is unknown:
                        cells.append(n)
                    elif seen is mined:
                        need -= 1
            except (IndexError, TypeError):  # a ring member off the board, or not an int
                self._fault(cell, ring)
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
            unknowns[cell] = left
            unplaced[cell] = need
            fresh.append(cell)
        return [cell for cell in fresh if unknowns[cell]]

    def _take_journal(self) -> None:
        """Queue the cells proven in the knowledge since the last explore: safe ones to be
        explored, and all to be counted by the clues beside them."""
        state, around, safe = self.knowledge.state, self._around, CellState.SAFE
        for cell in self.knowledge.take_journal():
            if state[cell] is safe:
                self._queue.append(cell)
            if around[cell] is not None:
                self._uncounted.append(cell)

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
        kernels = core.kernels
        if kernels is not None:  # the compiled form of this loop (mineshafted.core)
            found = kernels.cells(self.knowledge.state, unknown, around)
            if found is not None:
                return found
        return [c for c, s in enumerate(self.knowledge.state) if s is unknown and around[c]]

    def _refuse(self, cell: Cell, unplaced: int, unknown: int) -> NoReturn:
        """Raise for a clue whose count no placement can meet.

        Raises
        ------
        ManagerError
            The clue is negative or larger than the cell's number of neighbours: no board has
            it.
        ContradictionError
            Otherwise: the clues seen so far contradict each other.
        """
        clue, ring = self.knowledge.values[cell], self.knowledge.rings[cell]
        if clue is not None and not 0 <= clue <= len(ring):
            raise ManagerError(
                f"clue {clue} at cell {cell}, which has {len(ring)} neighbour(s)",
                cell=cell,
                value=clue,
            )
        raise ContradictionError(
            f"clue {self.knowledge.values[cell]} at cell {cell} cannot hold: {unplaced} mine(s) "
            f"left to place among {unknown} unknown neighbour(s)",
            cells=[cell],
        )

    def _clue(self, cell: Cell, clue: object) -> int:
        """``clue``, not an ``int``, as one (an integer of another type, numpy's say, converts).

        Raises
        ------
        ManagerError
            ``move`` answered something that is not a whole number (a float, a bool, None).
        """
        try:
            value = index(clue)  # type: ignore[arg-type]
        except TypeError:
            value = None
        if value is None or isinstance(clue, bool):
            raise ManagerError(
                f"move({cell}) answered {clue!r}, not a clue (a whole number 0-8)",
                cell=cell,
                value=clue,
            )
        return value

    def _read(self, cell: Cell, items: Iterable[Cell]) -> tuple[Cell, ...]:
        """A ring given as any iterable: at most 9 items are read, so an endless one stops.

        Raises
        ------
        ManagerError
            The iterable holds more than 8 items, or cannot be iterated.
        """
        try:
            ring = tuple(islice(items, 9))
        except TypeError:
            raise ManagerError(
                f"get_adjacent({cell}) answered {items!r}, not a list of cells",
                cell=cell,
                value=items,
            ) from None
        if len(ring) > 8:
            raise ManagerError(
                f"get_adjacent({cell}) lists more than 8 cells", cell=cell, value=ring
            )
        return ring

    def _fault(self, cell: Cell, ring: tuple[Cell, ...]) -> NoReturn:
        """Raise :class:`ManagerError` naming how ``ring`` differs from ``cell``'s neighbours."""
        knowledge = self.knowledge
        rows, cols = knowledge.rows, knowledge.cols
        true = Geometry(rows, cols).neighbours(cell)
        where = f"get_adjacent({cell}) on the {rows}x{cols} board the manager's size gives"
        odd = [n for n in ring if type(n) is not int]
        if odd:
            why = f"lists {odd[0]!r}, not a cell index"
        elif any(not 0 <= n < rows * cols for n in ring):
            why = f"lists {next(n for n in ring if not 0 <= n < rows * cols)} off the board"
        elif cell in ring:
            why = "lists the cell itself"
        elif len(set(ring)) != len(ring):
            why = "lists a cell twice"
        else:
            stray = sorted(set(ring) - set(true))
            missing = sorted(set(true) - set(ring))
            parts = [f"lists {stray} (not neighbours)"] if stray else []
            parts += [f"misses {missing}"] if missing else []
            why = " and ".join(parts)  # never empty: the sums differ, so the sets do
        raise ManagerError(f"{where} {why}", cell=cell, value=ring)


_STATES = (CellState.UNKNOWN, CellState.SAFE, CellState.EXPLORED, CellState.MINE)
"""The cell states, in the order the compiled explore loop takes them."""

_COMPACT = 250_000
"""Boards with more cells keep their ring sums in an ``array`` (a list costs ~36 bytes a cell)."""


@lru_cache(maxsize=4)
def _ring_sums(rows: int, cols: int) -> MutableSequence[int]:
    """cell -> the sum of its neighbours' indices on a ``rows`` x ``cols`` board.

    An inner cell's eight neighbours sum to eight times its index; the border is filled in
    from the true neighbours. Cached per size: a generator or a grader sweeps one size often.
    A list (indexing it returns a stored int instead of making one), except on boards over
    :data:`_COMPACT` cells, where an ``array`` keeps it to 8 bytes a cell.

    Examples
    --------
    >>> list(_ring_sums(2, 3))
    [8, 14, 10, 5, 11, 7]

    Notes
    -----
    ``O(rows * cols)`` in C for the inner cells, ``O(rows + cols)`` in Python for the border.
    """
    cells = rows * cols
    inner = range(0, 8 * cells, 8)
    sums: MutableSequence[int] = array("q", inner) if cells > _COMPACT else list(inner)
    geometry = Geometry(rows, cols)
    border = {*range(cols), *range(cells - cols, cells), *range(0, cells, cols)}
    border.update(range(cols - 1, cells, cols))
    for cell in border:
        sums[cell] = sum(geometry.neighbours(cell))
    return sums
