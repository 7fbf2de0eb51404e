"""The probability package's exceptions: a position file that cannot be read."""

from __future__ import annotations

from ..errors import MineshaftedError

__all__ = ["PositionFormatError"]


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
