"""BoardManager: the Mine Shafted interface to a hidden board."""

from __future__ import annotations

from ..board import MINE, Board, Cell

__all__ = ["Adjacency", "BoardManager"]


class Adjacency:
    """What every manager with the Mine Shafted interface shares: index checks, neighbours.

    A subclass sets ``_neighbours``, the board's neighbour table (one tuple per cell).
    """

    __slots__ = ()

    _neighbours: tuple[tuple[Cell, ...], ...]

    def get_adjacent(self, index: int) -> list[int]:
        """The up-to-8 cells around ``index``, explored or not, in row-major order.

        Raises
        ------
        IndexError
            ``index`` is outside ``0 .. rows*cols-1``.
        """
        if type(index) is not int or not 0 <= index < len(self._neighbours):
            self._refuse(index)
        return list(self._neighbours[index])

    def _refuse(self, index: object) -> None:
        """Raise for an index that is not a cell of the board."""
        last = len(self._neighbours) - 1
        if type(index) is not int:
            raise TypeError(f"a cell index must be an int in 0..{last}, not {index!r}")
        raise IndexError(f"cell index {index} is outside the board: valid indices are 0..{last}")


class BoardManager(Adjacency):
    """Hide a board and let a player explore it one cell at a time.

    The whole interface is ``size``, ``move`` and ``get_adjacent``, as in the course's starter,
    with two differences a careful player will never notice: indices outside the board are
    refused instead of wrapping around, and the board is validated up front.

    Parameters
    ----------
    board:
        A rectangular 2D list of ints: a clue 0-8, or -1 for a mine.

    Raises
    ------
    InvalidBoardError
        The board is not rectangular, has a value outside -1..8, or a clue that differs from
        its number of adjacent mines. The message names the first bad cell.

    Examples
    --------
    >>> bm = BoardManager([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]])
    >>> bm.size
    (4, 3)
    >>> bm.get_adjacent(3)
    [0, 1, 4, 6, 7]
    >>> bm.move(4)
    2
    >>> bm.move(5)
    Traceback (most recent call last):
    ...
    RuntimeError: cell 5 (row 1, column 2) is a mine: game over
    >>> bm.move(0)
    Traceback (most recent call last):
    ...
    RuntimeError: the game is over: a mine was explored at cell 5
    """

    __slots__ = ("_board", "_exploded", "_neighbours", "_values", "size")

    size: tuple[int, int]

    def __init__(self, board: object) -> None:
        checked = board if isinstance(board, Board) else Board.from_grid(board)
        self._board = checked
        self._values = checked.values
        self._neighbours = checked.geometry.neighbour_table()
        self._exploded: Cell | None = None
        self.size = (checked.geometry.rows, checked.geometry.cols)

    def move(self, index: int) -> int:
        """Explore ``index`` and return its clue.

        Raises
        ------
        IndexError
            ``index`` is outside ``0 .. rows*cols-1``.
        RuntimeError
            ``index`` holds a mine, or a mine was explored earlier: the game is over.
        """
        if self._exploded is not None:
            raise RuntimeError(f"the game is over: a mine was explored at cell {self._exploded}")
        if type(index) is not int or not 0 <= index < len(self._values):
            self._refuse(index)
        value = self._values[index]
        if value == MINE:
            self._exploded = index
            row, col = self._board.geometry.coords(index)
            raise RuntimeError(f"cell {index} (row {row}, column {col}) is a mine: game over")
        return value

    def __repr__(self) -> str:
        rows, cols = self.size
        state = "over" if self._exploded is not None else "in play"
        return f"<BoardManager {rows}x{cols}, game {state}>"
