"""What a player knows: explored clues, proven mines, safe cells waiting to be explored."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from enum import Enum

from .board import MINE, Cell
from .errors import ContradictionError

__all__ = ["CellState", "Knowledge"]


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
    hidden cells) the clue is *ripe*. Everything else is inferred in :mod:`mineshafted.csp`
    and :mod:`mineshafted.search`.

    >>> k = Knowledge(2, 2)
    >>> k.prove_safe(0)
    True
    >>> k.next_safe()
    0
    >>> k.record(0, 1, [1, 2, 3])
    3
    >>> k.prove_safe(1), k.prove_safe(2)
    (True, True)
    >>> k.next_ripe()
    0
    >>> k.open_neighbours(0)
    ([3], 1)
    >>> k.prove_mine(3)
    True
    >>> k.partial_grid()
    [[1, None], [None, -1]]

    Notes
    -----
    Proving a cell costs ``O(clues around it)``; recording a clue ``O(its neighbours)``.
    """

    __slots__ = (
        "_around",
        "_hidden",
        "_listener",
        "_ripe",
        "_safe_queue",
        "_unplaced",
        "cols",
        "neighbours",
        "rows",
        "state",
        "values",
    )

    def __init__(
        self, rows: int, cols: int, *, listener: Callable[[Cell, bool], object] | None = None
    ) -> None:
        self.rows = rows
        self.cols = cols
        cells = rows * cols
        self.state: list[CellState] = [CellState.UNKNOWN] * cells
        self.values: list[int | None] = [None] * cells
        """The board as known, row-major: clues, ``MINE`` for proven mines, else ``None``."""
        self.neighbours: dict[Cell, tuple[Cell, ...]] = {}
        self._safe_queue: deque[Cell] = deque()
        self._ripe: list[Cell] = []
        self._around: list[list[Cell] | None] = [None] * cells
        """cell -> the explored clues beside it, while it is unknown"""
        self._hidden = [0] * cells
        self._unplaced = [0] * cells
        self._listener = listener
        """Told ``(cell, is_mine)`` of each newly decided cell that an explored clue sees."""

    def prove_safe(self, cell: Cell) -> bool:
        """Record that ``cell`` is safe; ``True`` if that is news.

        Raises
        ------
        ContradictionError
            ``cell`` was already proven to be a mine, or a clue beside it now cannot hold.
        """
        state = self.state[cell]
        if state is CellState.UNKNOWN:
            self._decide_all((cell,), mine=False)
            return True
        if state is CellState.MINE:
            raise ContradictionError(f"cell {cell} was proven both a mine and safe", cells=[cell])
        return False

    def prove_mine(self, cell: Cell) -> bool:
        """Record that ``cell`` holds a mine; ``True`` if that is news.

        Raises
        ------
        ContradictionError
            ``cell`` was already proven safe, or a clue beside it now cannot hold.
        """
        state = self.state[cell]
        if state is CellState.UNKNOWN:
            self._decide_all((cell,), mine=True)
            return True
        if state is not CellState.MINE:
            raise ContradictionError(f"cell {cell} was proven both safe and a mine", cells=[cell])
        return False

    def next_safe(self) -> Cell | None:
        """The next proven-safe cell to explore, or ``None`` when there is none."""
        return self._safe_queue.popleft() if self._safe_queue else None

    def next_ripe(self) -> Cell | None:
        """A clue whose count alone decides its hidden neighbours, or ``None``."""
        return self._ripe.pop() if self._ripe else None

    def record(self, cell: Cell, clue: int, neighbours: Iterable[Cell]) -> int:
        """Record that exploring ``cell`` showed ``clue`` and that these are its neighbours.

        A clue that decides its unknown neighbours on its own (a 0, say) decides them at
        once; any other clue is registered beside them. Returns how many neighbours are still
        unknown.

        Raises
        ------
        ContradictionError
            The clue cannot hold given the mines already proven around it.
        """
        state, unknown, mine = self.state, CellState.UNKNOWN, CellState.MINE
        state[cell] = CellState.EXPLORED
        self.values[cell] = clue
        self.neighbours[cell] = ring = tuple(neighbours)
        hidden_cells = [n for n in ring if state[n] is unknown]
        hidden = len(hidden_cells)
        unplaced = clue - [state[n] for n in ring].count(mine)
        if not 0 <= unplaced <= hidden:
            self._refuse(cell, unplaced, hidden)
        if unplaced == 0 or unplaced == hidden:
            self._decide_all(hidden_cells, mine=unplaced > 0)
            return 0
        around = self._around
        for n in hidden_cells:
            beside = around[n]
            if beside is None:
                around[n] = [cell]
            else:
                beside.append(cell)
        self._hidden[cell] = hidden
        self._unplaced[cell] = unplaced
        return hidden

    def settle(self, cell: Cell) -> None:
        """Decide the unknown neighbours of a ripe clue.

        A clue that is no longer ripe (its neighbours were decided meanwhile) is left alone.
        """
        if not self._hidden[cell]:
            return
        unplaced = self._unplaced[cell]
        if unplaced == 0 or unplaced == self._hidden[cell]:
            self._decide_all(self.neighbours[cell], mine=unplaced > 0)

    def hidden(self, cell: Cell) -> int:
        """How many neighbours of the explored ``cell`` are unknown."""
        return self._hidden[cell]

    def open_neighbours(self, cell: Cell) -> tuple[list[Cell], int]:
        """The explored ``cell``'s unknown neighbours, and how many of its mines are unplaced."""
        state, unknown = self.state, CellState.UNKNOWN
        return [n for n in self.neighbours[cell] if state[n] is unknown], self._unplaced[cell]

    def undetermined(self) -> list[Cell]:
        """Cells neither explored, nor proven mines, nor proven safe, ascending."""
        unknown = CellState.UNKNOWN
        return [c for c, s in enumerate(self.state) if s is unknown]

    def frontier(self) -> list[Cell]:
        """Undetermined cells beside an explored clue, ascending."""
        unknown, around = CellState.UNKNOWN, self._around
        return [c for c, s in enumerate(self.state) if s is unknown and around[c]]

    def partial_grid(self) -> list[list[int | None]]:
        """The board as known: clues, ``-1`` for proven mines, ``None`` for the rest."""
        values, cols = self.values, self.cols
        return [values[r * cols : (r + 1) * cols] for r in range(self.rows)]

    def _decide_all(self, cells: Iterable[Cell], *, mine: bool) -> None:
        """Decide every unknown cell of ``cells`` the same way (safe ones are queued)."""
        state, unknown, decided = self.state, CellState.UNKNOWN, self._decided
        if mine:
            values = self.values
            for n in cells:
                if state[n] is unknown:
                    state[n] = CellState.MINE
                    values[n] = MINE
                    decided(n, mine=True)
        else:
            safe, queue = CellState.SAFE, self._safe_queue
            for n in cells:
                if state[n] is unknown:
                    state[n] = safe
                    queue.append(n)
                    decided(n, mine=False)

    def _decided(self, cell: Cell, *, mine: bool) -> None:
        """Update the counts of the clues beside a newly decided ``cell``; tell the listener.

        A clue is queued as ripe once, when it becomes ripe: after a safe neighbour, when as
        many mines are left as hidden cells; after a mined one, when no mine is left.

        Only a cell that some explored clue sees can be in a CSP variable's scope (a scope is
        a clue's unknown neighbours), so only such a cell is announced.
        """
        beside = self._around[cell]
        if beside is None:
            return
        self._around[cell] = None
        hidden, unplaced, ripe = self._hidden, self._unplaced, self._ripe
        for clue_cell in beside:
            left = hidden[clue_cell] - 1
            hidden[clue_cell] = left
            if mine:
                need = unplaced[clue_cell] - 1
                unplaced[clue_cell] = need
                if need < 0:
                    self._refuse(clue_cell, need, left)
                if need == 0 and left:
                    ripe.append(clue_cell)
            else:
                need = unplaced[clue_cell]
                if need > left:
                    self._refuse(clue_cell, need, left)
                if need == left and need:
                    ripe.append(clue_cell)
        if self._listener is not None:
            self._listener(cell, mine)

    def _refuse(self, cell: Cell, unplaced: int, hidden: int) -> None:
        """Raise for a clue whose count no placement can meet."""
        raise ContradictionError(
            f"clue {self.values[cell]} at cell {cell} cannot hold: {unplaced} mine(s) "
            f"left to place among {hidden} unknown neighbour(s)",
            cells=[cell],
        )
