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
    What a cell shows in a placement: its clue 0-8, or :data:`MINE` when it holds a mine.
symmetry
    A reflection or rotation of the board that maps the start (the empty board, or the
    position's clues and known mines) to itself: 8 of a square board, 4 of another
    rectangle, fewer for most positions. Two knowledge states one maps to the other are won
    equally often.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import chain, combinations

import numpy as np
import numpy.typing as npt

from ...board import MINE as KNOWN_MINE
from ...board import Cell, Geometry, PartialGrid
from ...errors import InvalidBoardError
from ...solver import Position
from ..endgame import component_placements

__all__ = ["MINE", "Placements", "TooManyPlacements", "board_symmetries"]

MINE = 9
"""What a mined cell shows in the table (a clue is 0-8)."""


class TooManyPlacements(InvalidBoardError):
    """The start has more placements than the limit allows.

    ``count`` is their number when it is known (a fresh board's), else ``None``.
    """

    def __init__(self, message: str, *, count: int | None = None) -> None:
        self.count = count
        super().__init__(message)


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
    >>> table.shown.tolist()
    [[9, 1, 0], [1, 9, 1], [0, 1, 9]]
    >>> table.symmetries.tolist()
    [[0, 1, 2], [2, 1, 0]]
    """

    rows: int
    cols: int
    mines: int
    """The board's mine total."""
    cells: tuple[Cell, ...]
    """The cells in play, ascending: row ``i`` of :attr:`shown` is ``cells[i]``."""
    shown: npt.NDArray[np.uint8]
    """``shown[i, j]``: what ``cells[i]`` shows in placement ``j`` (a clue, or :data:`MINE`)."""
    symmetries: npt.NDArray[np.intp]
    """One row per symmetry of the start, the identity first: row ``g`` maps the cell in play
    ``i`` to the cell in play ``g[i]``."""

    @property
    def count(self) -> int:
        """How many placements there are."""
        return int(self.shown.shape[1])

    @classmethod
    def board(cls, rows: int, cols: int, mines: int, *, limit: int | None = None) -> Placements:
        """Every placement of ``mines`` mines on a fresh ``rows`` x ``cols`` board.

        Raises
        ------
        InvalidBoardError
            No cells, or ``mines`` outside ``0..rows*cols``.
        TooManyPlacements
            More than ``limit`` placements.

        Notes
        -----
        ``C(rows*cols, mines)`` placements, each a row of the mine matrix; the clues are one
        matrix product with the board's neighbour matrix.
        """
        if rows < 1 or cols < 1:
            raise InvalidBoardError(f"a board needs at least 1 row and 1 column, not {rows}x{cols}")
        cells = rows * cols
        if not 0 <= mines <= cells:
            raise InvalidBoardError(f"{mines} mines do not fit on a {rows}x{cols} board")
        count = math.comb(cells, mines)
        if limit is not None and count > limit:
            raise TooManyPlacements(
                f"C({cells}, {mines}) = {count:,} placements, more than {limit:,}", count=count
            )
        chosen = np.fromiter(
            chain.from_iterable(combinations(range(cells), mines)),
            dtype=np.intp,
            count=count * mines,
        ).reshape(count, mines)
        mined = np.zeros((count, cells), dtype=bool)
        mined[np.arange(count)[:, None], chosen] = True
        everything = tuple(range(cells))
        near = np.zeros(cells, dtype=np.uint8)
        shown = _shown(Geometry(rows, cols), everything, mined, near)
        empty: PartialGrid = [[None] * cols for _ in range(rows)]
        return cls(rows, cols, mines, everything, shown, _symmetries(empty, everything))

    @classmethod
    def position(
        cls, position: Position, board: PartialGrid, mines: int, *, limit: int | None = None
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
            More than ``limit`` placements (the enumeration stops there).

        Examples
        --------
        ``1 ? ?`` with one mine: it lies on the middle cell or the last.

        >>> table = Placements.position(Position([[1, None, None]], [[((1,), 1)]], [2], 0),
        ...                             [[1, None, None]], 1)
        >>> table.cells, table.shown.tolist()
        ((1, 2), [[9], [1]])

        Notes
        -----
        Each component's placements by backtracking over its cells, then every combination
        of them and of the cells no clue sees that makes the total; stops past ``limit``.
        """
        rows, cols = len(board), len(board[0])
        cells = tuple(position.unknown)
        index = {cell: i for i, cell in enumerate(cells)}
        known = sum(1 for row in board for value in row if value == KNOWN_MINE)
        masks = _placements(position, index, mines - known, limit)
        if masks is None:
            raise TooManyPlacements(f"the position has more than {limit:,} placements")
        width = (len(cells) + 7) // 8
        packed = np.frombuffer(
            b"".join(mask.to_bytes(width, "little") for mask in masks), dtype=np.uint8
        ).reshape(len(masks), width)
        mined = np.unpackbits(packed, axis=1, count=len(cells), bitorder="little").astype(bool)
        geometry = Geometry(rows, cols)
        around = geometry.neighbour_table()
        near = np.array(
            [sum(1 for n in around[c] if board[n // cols][n % cols] == KNOWN_MINE) for c in cells],
            dtype=np.uint8,
        )
        shown = _shown(geometry, cells, mined, near)
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


def _symmetries(board: PartialGrid, cells: tuple[Cell, ...]) -> npt.NDArray[np.intp]:
    """The symmetries of the board that map ``board`` (what is known) to itself, as maps of
    the cells in play."""
    rows, cols = len(board), len(board[0])
    flat = [value for row in board for value in row]
    index = {cell: i for i, cell in enumerate(cells)}
    kept = [
        [index[image[cell]] for cell in cells]
        for image in board_symmetries(rows, cols)
        if all(flat[image[cell]] == flat[cell] for cell in range(rows * cols))
    ]
    return np.array(kept, dtype=np.intp).reshape(len(kept), len(cells))


def _shown(
    geometry: Geometry,
    cells: tuple[Cell, ...],
    mined: npt.NDArray[np.bool_],
    near: npt.NDArray[np.uint8],
) -> npt.NDArray[np.uint8]:
    """The table: what each cell in play shows in each placement (``mined`` one row a
    placement), with ``near`` known mines around each."""
    index = {cell: i for i, cell in enumerate(cells)}
    around = geometry.neighbour_table()
    adjacent = np.zeros((len(cells), len(cells)), dtype=np.float32)
    for i, cell in enumerate(cells):
        for n in around[cell]:
            if n in index:
                adjacent[i, index[n]] = 1
    clues = (mined.astype(np.float32) @ adjacent).astype(np.uint8) + near
    clues[mined] = MINE
    return np.ascontiguousarray(clues.T)


def _placements(
    position: Position, index: dict[Cell, int], mines_left: int, limit: int | None
) -> list[int] | None:
    """Every placement of ``mines_left`` mines as a mask over ``index``; ``None`` past
    ``limit``."""
    cap = None if limit is None else limit * 20
    by_component: list[dict[int, list[int]]] = []
    for component in position.components:
        found: dict[int, list[int]] = {}
        for size, (mask, count) in enumerate(component_placements(component, index)):
            found.setdefault(count, []).append(mask)
            if cap is not None and size >= cap:
                return None
        by_component.append(found)
    free = [1 << index[cell] for cell in position.unconstrained]
    partial: list[tuple[int, int]] = [(0, 0)]
    for found in by_component:
        partial = [
            (mask | extra, used + count)
            for mask, used in partial
            for count, masks in found.items()
            if used + count <= mines_left
            for extra in masks
        ]
        if cap is not None and len(partial) > cap:
            return None
    result: list[int] = []
    for mask, used in partial:
        rest = mines_left - used
        if not 0 <= rest <= len(free):
            continue
        for chosen in combinations(free, rest):
            result.append(mask | sum(chosen))
            if limit is not None and len(result) > limit:
                return None
    return result
