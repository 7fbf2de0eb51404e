"""What a player knows: explored clues, proven mines, proven-safe cells, and nothing inferred.

Glossary
--------
explored
    A cell the player has moved onto: its clue is known, and so are its neighbours (its *ring*).
proven
    A cell decided without exploring it: a proven mine, or a proven-safe cell waiting to be
    explored.
unknown
    Neither explored nor proven.
"""

from __future__ import annotations

from enum import Enum

from ..board import MINE, Cell
from ..errors import ContradictionError

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

    A fact store: each cell's state, the clues and rings of explored cells, and a journal of
    the cells proven since the explore loop (:class:`~.explore.Explorer`) last read it. The
    explore loop writes states and clues here directly; everything else proves cells through
    :meth:`prove_safe` and :meth:`prove_mine`.

    Examples
    --------
    >>> k = Knowledge(2, 2)
    >>> k.prove_safe(0), k.prove_mine(3), k.prove_mine(3)
    (True, True, False)
    >>> k.take_journal(), k.undetermined()
    ([0, 3], [1, 2])
    >>> k.partial_grid()
    [[None, None], [None, -1]]

    Notes
    -----
    Proving a cell is ``O(1)``.
    """

    __slots__ = ("_journal", "cols", "rings", "rows", "state", "values")

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        cells = rows * cols
        self.state: list[CellState] = [CellState.UNKNOWN] * cells
        self.values: list[int | None] = [None] * cells
        """The board as known, row-major: clues, ``MINE`` for proven mines, else ``None``."""
        self.rings: dict[Cell, tuple[Cell, ...]] = {}
        """Each explored cell's neighbours, as its manager gave them."""
        self._journal: list[Cell] = []
        """Cells proven through :meth:`prove_safe` or :meth:`prove_mine`, not yet taken."""

    def prove_safe(self, cell: Cell) -> bool:
        """Record that ``cell`` is safe (to be explored); ``True`` if that is news.

        Raises
        ------
        ContradictionError
            ``cell`` was already proven to be a mine.
        """
        state = self.state[cell]
        if state is CellState.UNKNOWN:
            self.state[cell] = CellState.SAFE
            self._journal.append(cell)
            return True
        if state is CellState.MINE:
            raise ContradictionError(f"cell {cell} was proven both a mine and safe", cells=[cell])
        return False

    def prove_mine(self, cell: Cell) -> bool:
        """Record that ``cell`` holds a mine; ``True`` if that is news.

        Raises
        ------
        ContradictionError
            ``cell`` was already proven safe (or explored).
        """
        state = self.state[cell]
        if state is CellState.UNKNOWN:
            self.state[cell] = CellState.MINE
            self.values[cell] = MINE
            self._journal.append(cell)
            return True
        if state is not CellState.MINE:
            raise ContradictionError(f"cell {cell} was proven both safe and a mine", cells=[cell])
        return False

    def take_journal(self) -> list[Cell]:
        """Hand over and forget the cells proven since the last call, in the order proven."""
        journal, self._journal = self._journal, []
        return journal

    @property
    def explored(self) -> int:
        """How many cells have been explored."""
        return len(self.rings)

    def mines_found(self) -> int:
        """How many cells are proven mines."""
        return self.state.count(CellState.MINE)

    def unknown_neighbours(self, cell: Cell) -> list[Cell]:
        """The explored ``cell``'s neighbours that are still unknown."""
        state, unknown, cells = self.state, CellState.UNKNOWN, []
        for n in self.rings[cell]:
            if state[n] is unknown:
                cells.append(n)
        return cells

    def undetermined(self) -> list[Cell]:
        """Cells neither explored, nor proven mines, nor proven safe, ascending."""
        unknown, state = CellState.UNKNOWN, self.state
        if unknown not in state:  # the usual end of a sweep: a scan in C
            return []
        return [c for c, s in enumerate(state) if s is unknown]

    def partial_grid(self) -> list[list[int | None]]:
        """The board as known: clues, ``-1`` for proven mines, ``None`` for the rest."""
        values, cols = self.values, self.cols
        return [values[r * cols : (r + 1) * cols] for r in range(self.rows)]
