"""What a player knows: explored clues, proven mines, safe cells waiting to be explored."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from enum import Enum

from ..board import MINE, Cell
from ..errors import ContradictionError

__all__ = ["CellState", "Decision", "Knowledge"]

Decision = tuple[Cell, bool]
"""A proven fact about one cell: ``(cell, is_mine)``."""


class CellState(Enum):
    """What the player knows about one cell."""

    UNKNOWN = "unknown"
    """Nothing proven yet."""
    SAFE = "safe"
    """Proven safe, not yet explored."""
    EXPLORED = "explored"
    """Explored: its clue is known."""
    MINE = "mine"
    """Proven to hold a mine."""


class Knowledge:
    """The facts a player has gathered about a ``rows`` x ``cols`` board.

    Only facts live here, with the one inference that is pure bookkeeping: each explored clue
    keeps count of its *hidden* (unknown) neighbours and its *unplaced* mines. When a clue's
    count alone decides its hidden neighbours (no mine left to place, or as many mines as
    hidden cells) the clue is *ripe*. Everything else is inferred in :mod:`mineshafted.solver.csp`
    and :mod:`mineshafted.solver.search`, which learn each new fact through :meth:`take_news`.

    >>> from mineshafted import BoardManager
    >>> bm = BoardManager([[1, 1], [1, -1]])
    >>> k = Knowledge(2, 2)
    >>> k.prove_safe(0)
    True
    >>> k.explore(bm.move, bm.get_adjacent)  # clue 1 at cell 0: one mine among 1, 2, 3
    [0]
    >>> k.open_neighbours(0)
    ([1, 2, 3], 1)
    >>> k.prove_safe(1), k.prove_safe(2)
    (True, True)
    >>> k.explore(bm.move, bm.get_adjacent)  # clue 1 at cell 1: cell 3 is its only mine
    []
    >>> k.take_news()
    [(1, False), (2, False), (3, True)]
    >>> k.partial_grid(), k.explored
    ([[1, 1], [1, -1]], 3)

    Notes
    -----
    Proving a cell costs ``O(clues around it)``; recording a clue ``O(its neighbours)``.
    """

    __slots__ = (
        "_around",
        "_hidden",
        "_news",
        "_safe_queue",
        "_uncounted",
        "_unplaced",
        "cols",
        "neighbours",
        "rows",
        "state",
        "values",
    )

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        cells = rows * cols
        self.state: list[CellState] = [CellState.UNKNOWN] * cells
        self.values: list[int | None] = [None] * cells
        """The board as known, row-major: clues, ``MINE`` for proven mines, else ``None``."""
        self.neighbours: dict[Cell, tuple[Cell, ...]] = {}
        self._safe_queue: deque[Cell] = deque()
        self._around: list[list[Cell] | None] = [None] * cells
        """cell -> the explored clues beside it, while it is unknown"""
        self._hidden = [0] * cells
        self._unplaced = [0] * cells
        self._uncounted: deque[Cell] = deque()
        """Decided cells whose clues' counts :meth:`explore` has yet to update."""
        self._news: list[Decision] = []
        """Newly decided cells that an explored clue sees, for :meth:`take_news`."""

    def prove_safe(self, cell: Cell) -> bool:
        """Record that ``cell`` is safe and queue it for exploring; ``True`` if that is news.

        The clues beside it update their counts at the next :meth:`explore`.

        Raises
        ------
        ContradictionError
            ``cell`` was already proven to be a mine.
        """
        state = self.state[cell]
        if state is CellState.UNKNOWN:
            self.state[cell] = CellState.SAFE
            self._safe_queue.append(cell)
            self._count_later(cell)
            return True
        if state is CellState.MINE:
            raise ContradictionError(f"cell {cell} was proven both a mine and safe", cells=[cell])
        return False

    def prove_mine(self, cell: Cell) -> bool:
        """Record that ``cell`` holds a mine; ``True`` if that is news.

        The clues beside it update their counts at the next :meth:`explore`.

        Raises
        ------
        ContradictionError
            ``cell`` was already proven safe (or explored).
        """
        state = self.state[cell]
        if state is CellState.UNKNOWN:
            self.state[cell] = CellState.MINE
            self.values[cell] = MINE
            self._count_later(cell)
            return True
        if state is not CellState.MINE:
            raise ContradictionError(f"cell {cell} was proven both safe and a mine", cells=[cell])
        return False

    def explore(
        self, move: Callable[[Cell], int], adjacent: Callable[[Cell], Iterable[Cell]]
    ) -> list[Cell]:
        """Explore every proven-safe cell and settle every ripe clue, until neither is left.

        ``move`` and ``adjacent`` are a board manager's. One loop, highest priority first:

        1. a newly decided cell updates the counts of the clues beside it (hidden cells,
           unplaced mines) and is news; a clue that turns ripe is queued, once;
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
        queue, uncounted, news = self._safe_queue, self._uncounted, self._news
        state, values, rings, around = self.state, self.values, self.neighbours, self._around
        hidden, unplaced = self._hidden, self._unplaced
        unknown, safe, explored, mined = (
            CellState.UNKNOWN,
            CellState.SAFE,
            CellState.EXPLORED,
            CellState.MINE,
        )
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
                    news.append((n, True))
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
                    news.append((n, False))
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

    @property
    def explored(self) -> int:
        """How many cells have been explored."""
        return len(self.neighbours)

    def take_news(self) -> list[Decision]:
        """Hand over and forget the cells decided since the last call that a clue sees.

        Only such a cell can be in a CSP variable's scope (a scope is a clue's unknown
        neighbours), so these are all the facts the CSP needs, in the order decided.
        """
        news, self._news = self._news, []
        return news

    def open_neighbours(self, cell: Cell) -> tuple[list[Cell], int]:
        """The explored ``cell``'s unknown neighbours, and how many of its mines are unplaced."""
        state, unknown, cells = self.state, CellState.UNKNOWN, []
        for n in self.neighbours[cell]:
            if state[n] is unknown:
                cells.append(n)
        return cells, self._unplaced[cell]

    def undetermined(self) -> list[Cell]:
        """Cells neither explored, nor proven mines, nor proven safe, ascending."""
        unknown, state = CellState.UNKNOWN, self.state
        if unknown not in state:  # the usual end of a sweep: a scan in C
            return []
        return [c for c, s in enumerate(state) if s is unknown]

    def frontier(self) -> list[Cell]:
        """Undetermined cells beside an explored clue, ascending."""
        unknown, around = CellState.UNKNOWN, self._around
        return [c for c, s in enumerate(self.state) if s is unknown and around[c]]

    def partial_grid(self) -> list[list[int | None]]:
        """The board as known: clues, ``-1`` for proven mines, ``None`` for the rest."""
        values, cols = self.values, self.cols
        return [values[r * cols : (r + 1) * cols] for r in range(self.rows)]

    def _count_later(self, cell: Cell) -> None:
        """Have the next :meth:`explore` update the counts of the clues beside ``cell``."""
        if self._around[cell] is not None:
            self._uncounted.append(cell)

    def _refuse(self, cell: Cell, unplaced: int, hidden: int) -> None:
        """Raise for a clue whose count no placement can meet."""
        raise ContradictionError(
            f"clue {self.values[cell]} at cell {cell} cannot hold: {unplaced} mine(s) "
            f"left to place among {hidden} unknown neighbour(s)",
            cells=[cell],
        )
