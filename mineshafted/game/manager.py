"""Managers: the Mine Shafted interface (``size``, ``move``, ``get_adjacent``), written once.

The interface hides a board and answers a player one cell at a time. It is served over two
hidden sides, which differ only in what a move does to them:

- :class:`BoardManager` hides a bare board: a move reads the cell's value and a mine ends the
  game (the course's manager);
- :class:`GameManager` hides a :class:`~mineshafted.game.engine.Game`: a move reveals the cell
  by the game's rules (expanding zeros, recording the event) and the rules say whether a mine
  ends it. It reads the game through :class:`ManagedGame`, the part of a game's public face
  it needs, so this module imports nothing of the engine's (the engine makes managers).

Both share :class:`ManagerBase`'s ``move``, index checks, neighbours and messages.

Glossary
--------
hit
    The mine whose move ended the game; every later move raises ``RuntimeError`` naming it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn, Protocol

from ..board import MINE, Board, Cell, Geometry
from .rules import AfterMine, GameStatus, Rules

__all__ = ["BoardManager", "GameManager", "ManagedGame", "ManagerBase"]


class Revealed(Protocol):
    """What a reveal tells its manager: each cell shown and its value, the revealed one first
    (:class:`~mineshafted.game.Reveal` is one)."""

    @property
    def revealed(self) -> tuple[tuple[Cell, int], ...]: ...


class ManagedGame(Protocol):
    """A game as :class:`GameManager` reads it (:class:`~mineshafted.game.engine.Game` is one):
    its shape and rules, what the player sees, how it stands, and a reveal."""

    @property
    def geometry(self) -> Geometry: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def shown_values(self) -> Sequence[int | None]: ...

    @property
    def status(self) -> GameStatus: ...

    @property
    def over(self) -> bool: ...

    @property
    def mines_hit(self) -> tuple[Cell, ...]: ...

    def reveal(self, cell: Cell) -> Revealed: ...


class ManagerBase:
    """The Mine Shafted interface over a hidden side: index checks, ``move``, neighbours.

    A subclass sets ``_values`` (what each cell gives a move: its clue or ``MINE``, ``None``
    while a move still has to reveal it), says how a hidden cell is revealed
    (:meth:`_reveal`), which mine ended the game (``_hit``) and whether a mine ends it
    (``_ends``).

    Parameters
    ----------
    geometry : Geometry
        The hidden board's shape.
    values : sequence of int or None
        Kept up to date by the hidden side; read on every move.
    ends : bool
        Whether a mine ends the game (the message says so).

    Notes
    -----
    ``move`` costs ``O(1)`` plus the reveal, ``get_adjacent`` ``O(8)``.
    """

    __slots__ = ("_ends", "_geometry", "_neighbours", "_values", "size")

    size: tuple[int, int]
    """``(rows, cols)``."""
    _hit: Cell | None

    def __init__(
        self, geometry: Geometry, values: Sequence[int | None], *, ends: bool = True
    ) -> None:
        self._geometry = geometry
        self._neighbours = geometry.neighbour_table()
        self._values = values
        self._ends = ends
        self.size = (geometry.rows, geometry.cols)

    def move(self, index: int) -> int:
        """Reveal ``index`` and return its clue.

        Raises
        ------
        IndexError
            ``index`` is outside ``0 .. rows*cols-1`` (``TypeError`` for a non-int).
        RuntimeError
            ``index`` holds a mine, or a mine ended the game earlier.
        """
        hit = self._hit
        if hit is not None:
            raise RuntimeError(f"the game is over: a mine was hit at cell {hit}")
        if type(index) is not int or not 0 <= index < len(self._neighbours):
            self._refuse(index)
        value = self._values[index]
        if value is None:
            value = self._reveal(index)
        if value == MINE:
            self._explode(index)
        return value

    def get_adjacent(self, index: int) -> list[int]:
        """The up-to-8 cells around ``index``, explored or not, in row-major order.

        Raises
        ------
        IndexError
            ``index`` is outside ``0 .. rows*cols-1`` (``TypeError`` for a non-int).
        """
        if type(index) is not int or not 0 <= index < len(self._neighbours):
            self._refuse(index)
        return list(self._neighbours[index])

    def _reveal(self, index: Cell) -> int:
        """Reveal the hidden cell ``index`` and return its value (``MINE`` for a mine)."""
        raise NotImplementedError(f"{type(self).__name__} has no hidden cells to reveal")

    def _explode(self, index: Cell) -> NoReturn:
        """Raise for a move onto the mine at ``index``."""
        row, col = self._geometry.coords(index)
        end = ": game over" if self._ends else ""
        raise RuntimeError(f"cell {index} (row {row}, column {col}) is a mine{end}")

    def _refuse(self, index: object) -> NoReturn:
        """Raise for an index that is not a cell of the board."""
        last = len(self._neighbours) - 1
        if type(index) is not int:
            raise TypeError(f"a cell index must be an int in 0..{last}, not {index!r}")
        raise IndexError(f"cell index {index} is outside the board: valid indices are 0..{last}")


class BoardManager(ManagerBase):
    """Hide a board and let a player reveal it one cell at a time.

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
    RuntimeError: the game is over: a mine was hit at cell 5
    """

    __slots__ = ("_hit",)

    def __init__(self, board: object) -> None:
        checked = board if isinstance(board, Board) else Board.from_grid(board)
        super().__init__(checked.geometry, checked.values)
        self._hit = None

    def _explode(self, index: Cell) -> NoReturn:
        """End the game on the mine at ``index``, then raise."""
        self._hit = index
        super()._explode(index)

    def __repr__(self) -> str:
        rows, cols = self.size
        state = "over" if self._hit is not None else "in play"
        return f"<BoardManager {rows}x{cols}, game {state}>"


class GameManager(ManagerBase):
    """A :class:`~mineshafted.game.engine.Game` behind the Mine Shafted interface.

    ``move`` reveals by the game's rules (with expansion, the cells around a 0 are revealed
    too) and returns the clue; a cell already revealed just returns its clue. A mine raises
    ``RuntimeError``, as the course's manager does; under :attr:`AfterMine.CONTINUE` play may
    go on afterwards. Indices off the board raise ``IndexError`` (``TypeError`` for a
    non-int), exactly as :class:`BoardManager` does. The manager reads the game only through
    its public face (:attr:`~mineshafted.game.engine.Game.shown_values`, ``reveal``,
    ``status``, ``mines_hit``), so moves made on the game directly are seen too.

    Examples
    --------
    >>> from mineshafted.game import Game, Rules
    >>> board = Board.from_grid([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]])
    >>> bm = Game.on(board, rules=Rules.MINE_SHAFTED).manager()
    >>> bm.size, bm.move(4), bm.get_adjacent(3)
    ((4, 3), 2, [0, 1, 4, 6, 7])
    >>> bm.move(5)
    Traceback (most recent call last):
    ...
    RuntimeError: cell 5 (row 1, column 2) is a mine: game over
    """

    __slots__ = ("_game",)

    def __init__(self, game: ManagedGame) -> None:
        super().__init__(
            game.geometry, game.shown_values, ends=game.rules.after_mine is AfterMine.END
        )
        self._game = game

    @property
    def _hit(self) -> Cell | None:  # type: ignore[override]  # kept by the game
        """The mine that ended the game, when a mine ends it; ``None`` while play goes on."""
        game = self._game
        if self._ends and game.status is GameStatus.LOST:  # lost under these rules: a mine hit
            return game.mines_hit[0]
        return None

    def _reveal(self, index: Cell) -> int:
        """Reveal ``index`` by the game's rules; a game over refuses."""
        game = self._game
        if game.over:
            raise RuntimeError(f"the game is over: it was {game.status}")
        return game.reveal(index).revealed[0][1]

    def __repr__(self) -> str:
        return f"<GameManager of {self._game!r}>"
