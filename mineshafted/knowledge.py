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

    Only facts live here; inference lives in :mod:`mineshafted.csp` and
    :mod:`mineshafted.search`. Safe cells are queued for exploration in the order they
    were proven.

    >>> k = Knowledge(2, 2)
    >>> k.prove_safe(0)
    True
    >>> k.next_safe()
    0
    >>> k.record(0, 1, [1, 2, 3])
    >>> k.prove_mine(3)
    True
    >>> k.partial_grid()
    [[1, None], [None, -1]]
    >>> k.undetermined()
    [1, 2]
    """

    __slots__ = ("_safe_queue", "clues", "cols", "neighbours", "rows", "state")

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        self.state: list[CellState] = [CellState.UNKNOWN] * (rows * cols)
        self.clues: dict[Cell, int] = {}
        self.neighbours: dict[Cell, tuple[Cell, ...]] = {}
        self._safe_queue: deque[Cell] = deque()

    def prove_safe(self, cell: Cell) -> bool:
        """Record that ``cell`` is safe; ``True`` if that is news.

        Raises
        ------
        ContradictionError
            ``cell`` was already proven to be a mine.
        """
        state = self.state[cell]
        if state is CellState.UNKNOWN:
            self.state[cell] = CellState.SAFE
            self._safe_queue.append(cell)
            return True
        if state is CellState.MINE:
            raise ContradictionError(f"cell {cell} was proven both a mine and safe", cells=[cell])
        return False

    def prove_mine(self, cell: Cell) -> bool:
        """Record that ``cell`` holds a mine; ``True`` if that is news.

        Raises
        ------
        ContradictionError
            ``cell`` was already proven safe.
        """
        state = self.state[cell]
        if state is CellState.UNKNOWN:
            self.state[cell] = CellState.MINE
            return True
        if state is not CellState.MINE:
            raise ContradictionError(f"cell {cell} was proven both safe and a mine", cells=[cell])
        return False

    def next_safe(self) -> Cell | None:
        """The next proven-safe cell to explore, or ``None`` when there is none."""
        return self._safe_queue.popleft() if self._safe_queue else None

    def record(self, cell: Cell, clue: int, neighbours: Iterable[Cell]) -> None:
        """Record that exploring ``cell`` showed ``clue`` and that these are its neighbours."""
        self.state[cell] = CellState.EXPLORED
        self.clues[cell] = clue
        self.neighbours[cell] = tuple(neighbours)

    def open_neighbours(self, cell: Cell) -> tuple[list[Cell], int]:
        """The explored ``cell``'s unknown neighbours, and how many of its mines are still unplaced.

        Raises
        ------
        ContradictionError
            The clue is smaller than the proven mines around it, or larger than they and the
            unknown neighbours together.
        """
        state = self.state
        unknown = [n for n in self.neighbours[cell] if state[n] is CellState.UNKNOWN]
        placed = sum(1 for n in self.neighbours[cell] if state[n] is CellState.MINE)
        remaining = self.clues[cell] - placed
        if not 0 <= remaining <= len(unknown):
            raise ContradictionError(
                f"clue {self.clues[cell]} at cell {cell} cannot hold with {placed} proven mine(s) "
                f"and {len(unknown)} unknown neighbour(s)",
                cells=[cell],
            )
        return unknown, remaining

    def undetermined(self) -> list[Cell]:
        """Cells neither explored, nor proven mines, nor proven safe, ascending."""
        unknown = CellState.UNKNOWN
        return [c for c, s in enumerate(self.state) if s is unknown]

    def partial_grid(self) -> list[list[int | None]]:
        """The board as known: clues, ``-1`` for proven mines, ``None`` for the rest."""
        values: list[int | None] = [
            MINE if s is CellState.MINE else self.clues.get(c) for c, s in enumerate(self.state)
        ]
        cols = self.cols
        return [values[r * cols : (r + 1) * cols] for r in range(self.rows)]
