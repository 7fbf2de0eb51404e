"""The hidden truth: a board's geometry, its mines and clues, validation and rendering.

Glossary
--------
cell
    A row-major index ``row * cols + col`` into a board of ``rows`` x ``cols`` cells.
clue
    The number (0-8) of mines among a safe cell's up-to-8 neighbours.
grid
    A board as a 2D list of ints: a clue, or ``MINE`` (-1) for a mine.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Final

from .errors import InvalidBoardError

__all__ = [
    "MAX_CELLS",
    "MINE",
    "Board",
    "Cell",
    "Geometry",
    "Grid",
    "PartialGrid",
    "render",
]

Cell = int
"""A row-major cell index."""

Grid = list[list[int]]
"""A board as rows of ints: a clue 0-8, or ``MINE``."""

PartialGrid = list[list[int | None]]
"""A grid as far as it is known: a clue 0-8, ``MINE`` for a known mine, ``None`` unknown."""

MAX_CELLS: Final = 1_000_000
"""The largest board any input may hold: puzzle files, positions, texts pasted in the page."""

MINE: Final = -1
"""The value of a mined cell in a grid."""

_GLYPHS: Final = {MINE: "*", 0: ".", None: "?"}


@dataclass(frozen=True, slots=True)
class Geometry:
    """The shape of a board: how cells are numbered and who neighbours whom.

    Examples
    --------
    >>> g = Geometry(4, 3)
    >>> g.neighbours(3)
    [0, 1, 4, 6, 7]
    >>> g.coords(7), g.index(2, 1)
    ((2, 1), 7)
    """

    rows: int
    cols: int

    @property
    def cells(self) -> int:
        """Number of cells, ``rows * cols``."""
        return self.rows * self.cols

    def index(self, row: int, col: int) -> Cell:
        """Row-major index of ``(row, col)``."""
        return row * self.cols + col

    def coords(self, cell: Cell) -> tuple[int, int]:
        """``(row, col)`` of a row-major index."""
        return divmod(cell, self.cols)

    def contains(self, row: int, col: int) -> bool:
        """Whether ``(row, col)`` lies on the board."""
        return 0 <= row < self.rows and 0 <= col < self.cols

    def neighbour_table(self) -> tuple[tuple[Cell, ...], ...]:
        """Every cell's neighbours, computed once per geometry and shared."""
        return _neighbour_table(self.rows, self.cols)

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The up-to-8 cells around ``cell``, in row-major order."""
        cols = self.cols
        row, col = divmod(cell, cols)
        c0, c1 = max(col - 1, 0), min(col + 2, cols)
        return [
            r * cols + c
            for r in range(max(row - 1, 0), min(row + 2, self.rows))
            for c in range(c0, c1)
            if r != row or c != col
        ]


@dataclass(frozen=True)
class Board:
    """A complete, consistent Minesweeper board: the answer a solver must find.

    Build one from a grid (validated) or from mine positions (clues computed).

    Examples
    --------
    >>> b = Board.from_grid([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]])
    >>> b.geometry, b.mine_total, sorted(b.mines)
    (Geometry(rows=4, cols=3), 2, [5, 8])
    >>> Board.from_mines(4, 3, [5, 8]) == b
    True
    """

    geometry: Geometry
    values: tuple[int, ...]

    @classmethod
    def from_grid(cls, grid: object) -> Board:
        """Validate ``grid`` and wrap it.

        Raises
        ------
        InvalidBoardError
            Not a non-empty rectangular list of lists of ints in -1..8, or a clue that differs
            from its number of adjacent mines. The message names the first bad cell.
        """
        rows = _check_shape(grid)
        geometry = Geometry(len(rows), len(rows[0]))
        values = tuple(v for row in rows for v in row)
        board = cls(geometry, values)
        for cell, (found, expected) in enumerate(zip(values, board._true_values(), strict=True)):
            if found != expected:
                row, col = geometry.coords(cell)
                raise InvalidBoardError(
                    f"clue {found} but {expected} adjacent mine(s)", row=row, col=col
                )
        return board

    @classmethod
    def from_mines(cls, rows: int, cols: int, mines: Iterable[Cell]) -> Board:
        """The board with mines at ``mines`` and every other cell its clue."""
        if rows < 1 or cols < 1:
            raise InvalidBoardError(f"a board needs at least 1 row and 1 column, not {rows}x{cols}")
        geometry = Geometry(rows, cols)
        mined = [False] * geometry.cells
        for cell in mines:
            if not 0 <= cell < geometry.cells:
                raise InvalidBoardError(f"mine index {cell} is outside 0..{geometry.cells - 1}")
            mined[cell] = True
        return cls(geometry, tuple(_clues(geometry, mined)))

    @classmethod
    def from_text(cls, text: str) -> Board:
        """A board drawn with ``*`` for mines and any other non-space character for safe cells.

        Blank lines and spaces are ignored; the test-suite shorthand.

        Examples
        --------
        >>> Board.from_text('''
        ...     . . *
        ...     . . .
        ... ''').to_grid()
        [[0, 1, -1], [0, 1, 1]]
        """
        lines = [line.split() for line in text.strip().splitlines() if line.strip()]
        if not lines or any(len(line) != len(lines[0]) for line in lines):
            raise InvalidBoardError("a drawn board must be a non-empty rectangle")
        cols = len(lines[0])
        mines = [
            r * cols + c for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "*"
        ]
        return cls.from_mines(len(lines), cols, mines)

    @cached_property
    def mines(self) -> frozenset[Cell]:
        """The mined cells."""
        return frozenset(c for c, v in enumerate(self.values) if v == MINE)

    @property
    def mine_total(self) -> int:
        """How many mines the board holds: its mine total."""
        return len(self.mines)

    # The name before issue 38, still read by callers outside this module: kept as an alias.
    mine_count = mine_total

    @property
    def safe_count(self) -> int:
        """How many cells are safe."""
        return self.geometry.cells - self.mine_total

    def to_grid(self) -> Grid:
        """The board as a fresh 2D list."""
        cols = self.geometry.cols
        return [list(self.values[r * cols : (r + 1) * cols]) for r in range(self.geometry.rows)]

    def render(self) -> str:
        """The board as text, one row a line (see :func:`render`)."""
        return render(self.to_grid())

    def _true_values(self) -> Iterator[int]:
        return _clues(self.geometry, [v == MINE for v in self.values])


def render(grid: Sequence[Sequence[int | None]]) -> str:
    """Draw a (possibly partial) grid: digits for clues, ``.`` for 0, ``*`` mine, ``?`` unknown.

    Examples
    --------
    >>> print(render([[0, 1, None], [1, -1, 2]]))
    . 1 ?
    1 * 2
    """
    return "\n".join(" ".join(_GLYPHS.get(v, str(v)) for v in row) for row in grid)


@lru_cache(maxsize=16)
def _neighbour_table(rows: int, cols: int) -> tuple[tuple[Cell, ...], ...]:
    """The neighbour lists of a ``rows`` x ``cols`` board."""
    geometry = Geometry(rows, cols)
    return tuple(tuple(geometry.neighbours(cell)) for cell in range(geometry.cells))


def _clues(geometry: Geometry, mined: Sequence[bool]) -> Iterator[int]:
    """Each cell's value given which cells are mined."""
    table = geometry.neighbour_table()
    for cell, is_mine in enumerate(mined):
        yield MINE if is_mine else sum(map(mined.__getitem__, table[cell]))


def _check_shape(grid: object) -> list[list[int]]:
    """Check that ``grid`` is a non-empty rectangle of ints in -1..8 and return it typed."""
    if not isinstance(grid, list) or not grid:
        raise InvalidBoardError("a board must be a non-empty list of rows")
    width = None
    for r, row in enumerate(grid):
        if not isinstance(row, list):
            raise InvalidBoardError(f"row {r} is {type(row).__name__}, not a list")
        if not row:
            raise InvalidBoardError(f"row {r} is empty")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise InvalidBoardError(f"row {r} has {len(row)} cells but row 0 has {width}")
        for c, value in enumerate(row):
            if type(value) is not int:
                raise InvalidBoardError(f"{value!r} is not an integer", row=r, col=c)
            if not MINE <= value <= 8:
                raise InvalidBoardError(f"{value} is not a clue 0-8 or a mine -1", row=r, col=c)
    return grid
