"""The package's exceptions: one base class, one subclass per way things go wrong."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

__all__ = [
    "ContradictionError",
    "GameOverError",
    "IllegalMoveError",
    "InputError",
    "InvalidBoardError",
    "ManagerError",
    "MineshaftedError",
    "NeedsGuess",
    "NoPlacementError",
    "PuzzleFormatError",
    "RecordFormatError",
    "StartError",
    "TargetError",
    "Why",
]


class MineshaftedError(Exception):
    """Base class of every error this package raises on purpose."""


class InvalidBoardError(MineshaftedError, ValueError):
    """A board is not a well-formed Minesweeper board.

    ``row`` and ``col`` name the first offending cell when there is one.
    """

    def __init__(self, message: str, *, row: int | None = None, col: int | None = None) -> None:
        self.row = row
        self.col = col
        where = f"row {row}, column {col}: " if row is not None and col is not None else ""
        super().__init__(f"{where}{message}")


class PuzzleFormatError(MineshaftedError, ValueError):
    """A puzzle file cannot be read; the message names the file and the place in it."""


class InputError(MineshaftedError, ValueError):
    """An input cannot be read as text: missing, a directory, a FIFO or device (not a regular
    file), too large, or not UTF-8.

    ``source`` names the input (a path, or ``<stdin>``); ``reason`` says what is wrong with it
    in one line; ``limit`` is the byte cap when the input was refused for exceeding it.
    """

    def __init__(self, message: str, *, source: str, limit: int | None = None) -> None:
        self.source = source
        self.reason = message
        self.limit = limit
        super().__init__(f"{source}: {message}")


class TargetError(MineshaftedError, ValueError):
    """A file cannot be written where it was asked for: the path names a device, a FIFO, a
    folder or a symbolic link, an existing file not to be replaced, an input, or a place the
    writing failed (a full disk).

    ``path`` is the path as it was given; ``reason`` says why in one line (``exists (use
    --force to replace it)``, ``not a regular file (a FIFO)``).
    """

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


class StartError(MineshaftedError, ValueError):
    """A sweep's start cell is not a cell of the board.

    ``start`` is the value given; ``rows`` and ``cols`` the board's size.
    """

    def __init__(self, start: object, *, rows: int, cols: int) -> None:
        self.start = start
        self.rows = rows
        self.cols = cols
        super().__init__(
            f"start {start!r} is not a cell of the {rows}x{cols} board "
            f"(a row-major index 0..{rows * cols - 1})"
        )


class ManagerError(MineshaftedError):
    """A board manager broke the Mine Shafted interface: what it said cannot be true.

    ``cell`` is the cell the manager was asked about, when there is one; ``value`` what it
    answered (a size, a neighbour list, a clue).
    """

    def __init__(self, message: str, *, cell: int | None = None, value: object = None) -> None:
        self.cell = cell
        self.value = value
        super().__init__(f"the board manager is at fault: {message}")


class ContradictionError(MineshaftedError):
    """The clues seen so far admit no placement of mines at all.

    A true board never causes this: it means the manager's clues contradict each other.
    ``cells`` lists the clue cells involved, when known.
    """

    def __init__(self, message: str, *, cells: Sequence[int] = ()) -> None:
        self.cells = tuple(cells)
        super().__init__(message)


class NeedsGuess(MineshaftedError):
    """No unexplored cell is provably safe, and the solver does not guess.

    Attributes
    ----------
    board:
        The partial board: clues of explored cells, ``-1`` for proven mines, ``None`` for
        cells that are still undetermined.
    undetermined:
        Row-major indices of the undetermined cells, ascending.
    frontier:
        The undetermined cells beside an explored clue: where a guess would be made.
    moves:
        How many cells were explored before the solver stalled.
    """

    def __init__(
        self,
        board: list[list[int | None]],
        undetermined: Sequence[int],
        frontier: Sequence[int],
        moves: int,
    ) -> None:
        self.board = board
        self.undetermined = list(undetermined)
        self.frontier = list(frontier)
        self.moves = moves
        super().__init__(
            f"no cell is provably safe: {len(self.undetermined)} undetermined cell(s), "
            f"{len(self.frontier)} beside a clue, after {moves} move(s)"
        )


class GameOverError(MineshaftedError):
    """An action on a game that has already ended.

    ``cell`` is the cell acted on; ``status`` is how the game ended (``"won"`` or ``"lost"``).
    """

    def __init__(self, message: str, *, cell: object, status: str) -> None:
        self.cell = cell
        self.status = status
        super().__init__(message)


class IllegalMoveError(MineshaftedError, ValueError):
    """An action the rules of play refuse: a cell off the board, a flag on a revealed cell,
    a reveal of a flagged cell, a first move whose opening leaves no room for the mines.

    ``cell`` is the cell (or the value given as one) the action named.
    """

    def __init__(self, message: str, *, cell: object) -> None:
        self.cell = cell
        super().__init__(message)


class RecordFormatError(MineshaftedError, ValueError):
    """A game record cannot be read, or its events do not replay.

    ``line`` is the 1-based line of the record (line 1 is the header), ``field`` the field at
    fault when there is one, ``source`` the file's name when known.
    """

    def __init__(
        self,
        message: str,
        *,
        line: int,
        field: str | None = None,
        source: str | None = None,
    ) -> None:
        self.line = line
        self.field = field
        self.source = source
        where = f"{source}: " if source else ""
        what = f", field {field!r}" if field else ""
        super().__init__(f"{where}line {line}{what}: {message}")


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
        cells: Sequence[int] = (),
        row: int | None = None,
        col: int | None = None,
    ) -> None:
        self.why = why
        self.cells = tuple(cells)
        self.row = row
        self.col = col
        where = f"row {row}, column {col}: " if row is not None and col is not None else ""
        super().__init__(f"{where}{message}")
