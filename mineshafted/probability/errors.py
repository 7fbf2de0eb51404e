"""The probability package's exceptions: a position no placement fits, a bad position file."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from ..board import Cell
from ..errors import MineshaftedError

__all__ = ["NoPlacementError", "PositionFormatError", "Why"]


class Why(Enum):
    """Why no placement of the remaining mines fits a position."""

    CLUES = "clues"
    """The clues contradict each other, whatever the mine total."""
    TOO_FEW = "too-few"
    """Fewer mines remain than the clues need."""
    TOO_MANY = "too-many"
    """More mines remain than fit in the unknown cells the clues allow."""
    GAP = "gap"
    """The mines left lie between the fewest and the most the clues allow, yet no split of
    them between the components fits (a component takes 1 or 3 mines, say, never 2)."""


class NoPlacementError(MineshaftedError, ValueError):
    """No placement of the remaining mines agrees with every clue and the mine total.

    Attributes
    ----------
    why:
        Which way the position fails.
    cells:
        The unknown cells involved (a contradictory component's cells), when known.
    row, col:
        The clue at fault, when one clue alone shows the contradiction.
    """

    def __init__(
        self,
        message: str,
        *,
        why: Why,
        cells: Sequence[Cell] = (),
        row: int | None = None,
        col: int | None = None,
    ) -> None:
        self.why = why
        self.cells = tuple(cells)
        self.row = row
        self.col = col
        where = f"row {row}, column {col}: " if row is not None and col is not None else ""
        super().__init__(f"{where}{message}")


class PositionFormatError(MineshaftedError, ValueError):
    """A position file cannot be read: the message names the file, the field and the cell.

    ``field`` is the JSON field at fault (``"board"`` or ``"mines"``) when there is one;
    ``row`` and ``col`` the cell of the board, when one is at fault; ``source`` the file.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        row: int | None = None,
        col: int | None = None,
        source: str | None = None,
    ) -> None:
        self.field = field
        self.row = row
        self.col = col
        self.source = source
        parts = [source] if source else []
        if field:
            parts.append(f"field {field!r}")
        if row is not None and col is not None:
            parts.append(f"row {row}, column {col}")
        where = ", ".join(parts)
        super().__init__(f"{where}: {message}" if where else message)
