"""The probability package's exceptions: a position file that cannot be read, a search past its
budget."""

from __future__ import annotations

from ..errors import MineshaftedError

__all__ = ["OutOfBudget", "PositionFormatError"]


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


class OutOfBudget(MineshaftedError):
    """An exact search stopped at its budget: more belief states than allowed, or past its
    time limit.

    ``states`` is how many belief states it had remembered, ``seconds`` how long it had
    run, and ``limit`` names the budget it reached (``"states"`` or ``"time"``).
    """

    def __init__(self, message: str, *, states: int, seconds: float, limit: str) -> None:
        self.states = states
        self.seconds = seconds
        self.limit = limit
        super().__init__(message)
