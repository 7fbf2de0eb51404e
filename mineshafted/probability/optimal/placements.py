"""Placements: every arrangement of the mines that agrees with what is known, as a table.

Glossary
--------
placement
    One arrangement of the mines on the cells in play that agrees with every clue and the
    mine total; all are equally likely.
cells in play
    The cells not revealed at the start: on a fresh board every cell, in a position the
    unknown ones. Revealed cells show the same in every placement and known mines are mines
    in every one, so neither is in the table.
shown
    What a cell shows in a placement: its clue 0-8, or :data:`MINE_BYTE` when it holds a mine.
symmetry
    A reflection or rotation of the board that maps the start (the empty board, or the
    position's clues and known mines) to itself: 8 of a square board, 4 of another
    rectangle, fewer for most positions. Two belief states one maps to the other are won
    equally often.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

from ...board import MINE, Cell, Geometry, PartialGrid
from ...errors import InvalidBoardError
from ...solver import Position
from ...solver.variables import bits
from ..endgame import enumerate_placements

__all__ = [
    "MINE_BYTE",
    "Placements",
    "TooManyPlacements",
    "board_symmetries",
    "check_room",
    "table_mib",
]

MINE_BYTE = 9
"""What a mined cell shows in the table's bytes (a clue is 0-8): a byte holds no
:data:`mineshafted.board.MINE` (-1), the one value of a mine in a grid."""

PLACEMENT_BYTES = 100
"""What one placement costs in memory, table and search together, beside
:data:`CELL_BYTES` a cell in play: its row of the table, the search's int for it, and the
references to them (measured with ``tracemalloc``: 161 bytes a placement of 16 cells, 202
of 25, 259 of 36; see :func:`table_mib`)."""

CELL_BYTES = 5
"""What one cell in play adds to a placement's memory (its byte in the row, in the column,
and its lanes in the search's int)."""


class TooManyPlacements(InvalidBoardError):
    """The start has more placements than a limit allows.

    ``count`` is their number when it is known (a fresh board's), else ``None``; ``limit``
    names the limit: ``"placements"`` (the most placements allowed) or ``"memory"`` (the
    table would not fit in the memory budget).
    """

    def __init__(
        self, message: str, *, count: int | None = None, limit: str = "placements"
    ) -> None:
        self.count = count
        self.limit = limit
        super().__init__(message)


def table_mib(count: int, cells: int) -> float:
    """The memory, in MiB, that a table of ``count`` placements over ``cells`` cells in play
    takes with the search's own forms of it (before any belief state is remembered).

    Examples
    --------
    >>> round(table_mib(53_130, 25), 1)  # 5x5 with 5 mines
    11.4
    """
    return count * (PLACEMENT_BYTES + CELL_BYTES * cells) / 2**20


@dataclass(frozen=True, eq=False)
class Placements:
    """Every placement of a start, and what each cell in play shows in each.

    Examples
    --------
    A 1x3 board with one mine: three placements, and the middle cell shows 1 unless it is
    the mine.

    >>> table = Placements.board(1, 3, 1)
    >>> table.count, table.cells
    (3, (0, 1, 2))
    >>> [list(row) for row in table.shown]
    [[9, 1, 0], [1, 9, 1], [0, 1, 9]]
    >>> table.symmetries
    ((0, 1, 2), (2, 1, 0))
    """

    rows: int
    cols: int
    mines: int
    """The board's mine total."""
    cells: tuple[Cell, ...]
    """The cells in play, ascending: byte ``i`` of a row of :attr:`shown` is ``cells[i]``'s."""
    shown: tuple[bytes, ...]
    """One row a placement: ``shown[j][i]`` is what ``cells[i]`` shows in placement ``j`` (a
    clue, or :data:`MINE_BYTE`)."""
    symmetries: tuple[tuple[int, ...], ...]
    """One map a symmetry of the start, the identity first: ``g`` maps the cell in play ``i``
    to the cell in play ``g[i]``."""

    @property
    def count(self) -> int:
        """How many placements there are."""
        return len(self.shown)

    @classmethod
    def board(
        cls,
        rows: int,
        cols: int,
        mines: int,
        *,
        limit: int | None = None,
        memory: float | None = None,
    ) -> Placements:
        """Every placement of ``mines`` mines on a fresh ``rows`` x ``cols`` board.

        Raises
        ------
        InvalidBoardError
            No cells, or ``mines`` outside ``0..rows*cols``.
        TooManyPlacements
            More than ``limit`` placements, or a table past ``memory`` MiB
            (:func:`table_mib`).

        Notes
        -----
        ``C(rows*cols, mines)`` placements; each row is the sum of its mines' neighbourhoods,
        a byte a cell, with the mines written over: O(mines) big-int additions a placement.
        """
        if rows < 1 or cols < 1:
            raise InvalidBoardError(f"a board needs at least 1 row and 1 column, not {rows}x{cols}")
        cells = rows * cols
        if not 0 <= mines <= cells:
            raise InvalidBoardError(f"{mines} mines do not fit on a {rows}x{cols} board")
        count = math.comb(cells, mines)
        check_room(count, cells, limit, memory, f"C({cells}, {mines}) = {count:,} placements")
        around = Geometry(rows, cols).neighbour_table()
        near = [sum(1 << 8 * n for n in around[cell]) for cell in range(cells)]
        mask = [0xFF << 8 * cell for cell in range(cells)]
        nine = [MINE_BYTE << 8 * cell for cell in range(cells)]
        shown = tuple(
            _row(near, mask, nine, chosen, 0, cells) for chosen in combinations(range(cells), mines)
        )
        empty: PartialGrid = [[None] * cols for _ in range(rows)]
        everything = tuple(range(cells))
        return cls(rows, cols, mines, everything, shown, _symmetries(empty, everything))

    @classmethod
    def position(
        cls,
        position: Position,
        board: PartialGrid,
        mines: int,
        *,
        limit: int | None = None,
        memory: float | None = None,
    ) -> Placements:
        """Every placement of a position: its unknown cells are the cells in play.

        Parameters
        ----------
        position:
            The position's constraints by component (:func:`~mineshafted.solver.Position`).
        board:
            The board as known: clues, ``-1`` for known mines, ``None`` unknown.
        mines:
            The board's mine total.

        Raises
        ------
        TooManyPlacements
            More than ``limit`` placements (the enumeration stops there), or a table past
            ``memory`` MiB.

        Examples
        --------
        ``1 ? ?`` with one mine: it lies on the middle cell or the last.

        >>> table = Placements.position(Position([[1, None, None]], [[((1,), 1)]], [2], 0),
        ...                             [[1, None, None]], 1)
        >>> table.cells, [list(row) for row in table.shown]
        ((1, 2), [[9, 1]])

        Notes
        -----
        Each component's placements by backtracking over its cells, then every combination
        of them and of the cells no clue sees that makes the total; stops past ``limit``.
        """
        rows, cols = len(board), len(board[0])
        cells = tuple(position.unknown)  # the masks' bits, ascending
        index = {cell: i for i, cell in enumerate(cells)}
        known = sum(1 for row in board for value in row if value == MINE)
        masks = enumerate_placements(
            position.components, position.unconstrained, mines - known, limit
        )
        if masks is None:
            raise TooManyPlacements(f"the position has more than {limit:,} placements")
        check_room(len(masks), len(cells), None, memory, f"{len(masks):,} placements")
        around = Geometry(rows, cols).neighbour_table()
        flat = [value for row in board for value in row]
        near = [sum(1 << 8 * index[n] for n in around[cell] if n in index) for cell in cells]
        base = sum(
            sum(1 for n in around[cell] if flat[n] == MINE) << 8 * i for i, cell in enumerate(cells)
        )
        mask = [0xFF << 8 * i for i in range(len(cells))]
        nine = [MINE_BYTE << 8 * i for i in range(len(cells))]
        shown = tuple(
            _row(near, mask, nine, bits(placement), base, len(cells)) for placement in masks
        )
        return cls(rows, cols, mines, cells, shown, _symmetries(board, cells))


def board_symmetries(rows: int, cols: int) -> list[list[Cell]]:
    """The reflections and rotations of a ``rows`` x ``cols`` board as cell maps, the identity
    first: 8 of a square board, 4 of another rectangle (fewer distinct ones on a line).

    Examples
    --------
    >>> len(board_symmetries(3, 3)), len(board_symmetries(2, 3))
    (8, 4)
    >>> board_symmetries(1, 2)[1]
    [1, 0]
    """
    last_row, last_col = rows - 1, cols - 1

    def image(r: int, c: int, which: int) -> tuple[int, int]:
        """Where symmetry ``which`` takes ``(r, c)``: 0-3 mirror the rows and columns, 4-7
        (a square board's) transpose first."""
        if which >= 4:
            r, c = c, r
        if which & 1:
            r = last_row - r
        if which & 2:
            c = last_col - c
        return r, c

    found: list[list[Cell]] = []
    for which in range(8 if rows == cols else 4):
        cell_map = [image(*divmod(cell, cols), which) for cell in range(rows * cols)]
        as_cells = [r * cols + c for r, c in cell_map]
        if as_cells not in found:
            found.append(as_cells)
    return found


def check_room(count: int, cells: int, limit: int | None, memory: float | None, what: str) -> None:
    """Refuse ``count`` placements (``what`` says how many in words) past ``limit``, or their
    table over ``cells`` cells in play past ``memory`` MiB.

    Raises
    ------
    TooManyPlacements
        One or the other; its ``limit`` says which (``"placements"`` or ``"memory"``).
    """
    if limit is not None and count > limit:
        raise TooManyPlacements(f"{what}, more than {limit:,}", count=count)
    if memory is not None and table_mib(count, cells) > memory:
        raise TooManyPlacements(
            f"{what} would take about {_mib(table_mib(count, cells))} MiB, more than "
            f"{memory:,g} MiB",
            count=count,
            limit="memory",
        )


def _mib(size: float) -> str:
    """A size in MiB for a message: whole MiB, or tenths below 10."""
    return f"{size:,.0f}" if size >= 10 else f"{size:.1f}"


def _row(  # six positional arguments on purpose: called once a placement, the table's hot path
    near: list[int],
    mask: list[int],
    nine: list[int],
    mined: tuple[int, ...] | list[int],
    base: int,
    cells: int,
) -> bytes:
    """One placement's row: the clue of each cell in play (a byte each: ``base`` plus the
    neighbourhoods ``near`` of the ``mined`` cells), :data:`MINE_BYTE` written over the mines."""
    clues = base + sum(map(near.__getitem__, mined))
    covered = sum(map(mask.__getitem__, mined))
    return ((clues & ~covered) | sum(map(nine.__getitem__, mined))).to_bytes(cells, "little")


def _symmetries(board: PartialGrid, cells: tuple[Cell, ...]) -> tuple[tuple[int, ...], ...]:
    """The symmetries of the board that map ``board`` (what is known) to itself, as maps of
    the cells in play."""
    flat = [value for row in board for value in row]
    rows, cols = len(board), len(board[0])
    index = {cell: i for i, cell in enumerate(cells)}
    return tuple(
        tuple(index[image[cell]] for cell in cells)
        for image in board_symmetries(rows, cols)
        if all(flat[image[cell]] == flat[cell] for cell in range(rows * cols))
    )
