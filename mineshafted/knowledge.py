"""What a player knows: explored clues, proven mines, safe cells waiting to be explored."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
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
        "_ripe",
        "_safe_queue",
        "_unplaced",
        "clues",
        "cols",
        "neighbours",
        "rows",
        "state",
    )

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        cells = rows * cols
        self.state: list[CellState] = [CellState.UNKNOWN] * cells
        self.clues: dict[Cell, int] = {}
        self.neighbours: dict[Cell, tuple[Cell, ...]] = {}
        self._safe_queue: deque[Cell] = deque()
        self._ripe: list[Cell] = []
        self._around: dict[Cell, list[Cell]] = {}
        """cell -> the explored clues beside it"""
        self._hidden = [0] * cells
        self._unplaced = [0] * cells

    def prove_safe(self, cell: Cell) -> bool:
        """Record that ``cell`` is safe; ``True`` if that is news.

        Raises
        ------
        ContradictionError
            ``cell`` was already proven to be a mine, or a clue beside it now cannot hold.
        """
        state = self.state[cell]
        if state is CellState.UNKNOWN:
            self.state[cell] = CellState.SAFE
            self._safe_queue.append(cell)
            self._count(cell, mine=False)
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
            self.state[cell] = CellState.MINE
            self._count(cell, mine=True)
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

    def record(self, cell: Cell, clue: int, neighbours: Iterable[Cell]) -> None:
        """Record that exploring ``cell`` showed ``clue`` and that these are its neighbours.

        Raises
        ------
        ContradictionError
            The clue cannot hold given the mines already proven around it.
        """
        self.state[cell] = CellState.EXPLORED
        self.clues[cell] = clue
        around = tuple(neighbours)
        self.neighbours[cell] = around
        state, unknown, mine = self.state, CellState.UNKNOWN, CellState.MINE
        hidden = placed = 0
        for n in around:
            s = state[n]
            if s is unknown:
                hidden += 1
                beside = self._around.get(n)
                if beside is None:
                    self._around[n] = [cell]
                else:
                    beside.append(cell)
            elif s is mine:
                placed += 1
        self._hidden[cell] = hidden
        self._unplaced[cell] = clue - placed
        self._check(cell)

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
        return [c for c, s in enumerate(self.state) if s is unknown and c in around]

    def partial_grid(self) -> list[list[int | None]]:
        """The board as known: clues, ``-1`` for proven mines, ``None`` for the rest."""
        values: list[int | None] = [
            MINE if s is CellState.MINE else self.clues.get(c) for c, s in enumerate(self.state)
        ]
        cols = self.cols
        return [values[r * cols : (r + 1) * cols] for r in range(self.rows)]

    def _count(self, cell: Cell, *, mine: bool) -> None:
        """Update the counts of the clues beside a newly decided ``cell``."""
        beside = self._around.get(cell)
        if beside is None:
            return
        hidden, unplaced = self._hidden, self._unplaced
        for clue_cell in beside:
            hidden[clue_cell] -= 1
            if mine:
                unplaced[clue_cell] -= 1
            self._check(clue_cell)

    def _check(self, cell: Cell) -> None:
        """Queue ``cell`` if ripe; refuse a count that no placement can meet."""
        hidden, unplaced = self._hidden[cell], self._unplaced[cell]
        if not 0 <= unplaced <= hidden:
            raise ContradictionError(
                f"clue {self.clues[cell]} at cell {cell} cannot hold: {unplaced} mine(s) left "
                f"to place among {hidden} unknown neighbour(s)",
                cells=[cell],
            )
        if hidden and (unplaced == 0 or unplaced == hidden):
            self._ripe.append(cell)
