"""The referee: holds the hidden board, answers each move with one clue, judges the answer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..board import Board, Cell
from .protocol import Oversized, Reply, Unreadable
from .result import Loop
from .wording import returned as returned_unreadable
from .wording import wrong_cell

__all__ = ["LOOP_KEPT", "Referee"]

LOOP_KEPT = 64
"""Moves after the last move onto a new cell kept to find the cycle they repeat; the moves
after them are only checked against that cycle (and counted)."""


class Referee:
    """The hidden board of one game and what has happened on it.

    Only the referee holds the board; a submission learns a cell's clue by moving onto it.

    Parameters
    ----------
    board:
        The board to play.

    Examples
    --------
    >>> referee = Referee(Board.from_grid([[1, -1], [1, 1]]))
    >>> referee.answer(0), referee.answer(4), referee.answer(1), referee.answer(2)
    ((<Reply.CLUE: 'clue'>, 1), (<Reply.BAD: 'bad'>, 'cell index 4 is outside the board: \
valid indices are 0..3'), (<Reply.MINE: 'mine'>, True), (<Reply.OVER: 'over'>, True))
    >>> referee.moves, referee.exploded, referee.unexplored
    (1, 1, 2)
    >>> referee.judge([[1, -1], [1, 0]])
    'cell 3 (row 1, column 1) is 0, not 1'
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.moves = 0
        """Moves onto safe cells before the game was lost."""
        self.exploded: Cell | None = None
        """The mine moved onto, once the game is lost."""
        self._safe = sum(1 for value in board.values if value >= 0)
        self._explored = bytearray(len(board.values))
        self._explored_count = 0
        self.opened: list[Cell] = []
        """Each safe cell in the order it was first moved onto, then the mine, if one was:
        the sweep as a replay shows it (at most one entry per cell)."""
        self._last_new = 0
        """The number of the last move onto a new cell."""
        self._again: list[Cell] = []
        """The first :data:`LOOP_KEPT` moves after it."""
        self._again_cells: set[Cell] = set()
        self._period = 0
        """The length of the cycle the kept moves repeat (0: not found yet, or none)."""
        self._periodic = True

    @property
    def unexplored(self) -> int:
        """Safe cells never moved onto: a sweep that returns the board must leave none.

        Notes
        -----
        O(1): each safe cell is counted once, when it is first moved onto.
        """
        return self._safe - self._explored_count

    def answer(self, index: int) -> tuple[Reply, Any]:
        """The reply to a move onto ``index``; a move onto a mine loses the game.

        An index outside the board is refused (never wrapped round), and changes nothing.
        """
        if self.exploded is not None:
            return Reply.OVER, True
        values = self.board.values
        if not 0 <= index < len(values):
            last = len(values) - 1
            return (
                Reply.BAD,
                f"cell index {index} is outside the board: valid indices are 0..{last}",
            )
        if values[index] < 0:
            self.exploded = index
            self.opened.append(index)
            return Reply.MINE, True
        self.moves += 1
        if not self._explored[index]:
            self._explored[index] = 1
            self._explored_count += 1
            self.opened.append(index)
            self._new_cell()
        else:
            self._went_back(index)
        return Reply.CLUE, values[index]

    @property
    def loop(self) -> Loop | None:
        """The moves after the last move onto a new cell, each onto a cell already moved onto;
        ``None`` when the last move was onto a new cell (or there was none).

        Examples
        --------
        >>> referee = Referee(Board.from_grid([[0, 0, 0]]))
        >>> for cell in [0, 1, 2] + [1, 2] * 50 + [1]:
        ...     _ = referee.answer(cell)
        >>> referee.loop
        Loop(first=4, moves=101, cells=(1, 2), periodic=True, distinct=2)

        Notes
        -----
        O(:data:`LOOP_KEPT`); keeping it costs O(1) a move.
        """
        moves = self.moves - self._last_new
        if not moves:
            return None
        again = self._again
        period = self._period or _period(again)
        periodic = bool(period) and self._periodic
        cells = tuple(again[:period]) if periodic else tuple(again)
        return Loop(self._last_new + 1, moves, cells, periodic, len(self._again_cells))

    def _new_cell(self) -> None:
        """A move onto a new cell: the moves after it start afresh."""
        self._last_new = self.moves
        if self._again:
            self._again.clear()
            self._again_cells.clear()
            self._period, self._periodic = 0, True

    def _went_back(self, index: Cell) -> None:
        """A move onto a cell already moved onto: kept, or checked against the cycle."""
        self._again_cells.add(index)
        again = self._again
        if len(again) < LOOP_KEPT:
            again.append(index)
            if len(again) == LOOP_KEPT:
                self._period = _period(again)
                self._periodic = bool(self._period)
        elif self._periodic:
            position = self.moves - self._last_new - 1
            self._periodic = again[position % self._period] == index

    def unexplored_cells(self) -> list[Cell]:
        """The safe cells never moved onto, in index order.

        Notes
        -----
        O(cells).
        """
        values, explored = self.board.values, self._explored
        return [i for i, v in enumerate(values) if v >= 0 and not explored[i]]

    def judge(self, returned: Any) -> str:
        """Why ``returned`` is not the board; ``""`` when it is.

        Notes
        -----
        O(cells): stops at the first difference.
        """
        if isinstance(returned, Unreadable):
            return returned_unreadable(returned.kind, returned.text)
        if isinstance(returned, Oversized):
            geometry = self.board.geometry
            return f"returned {returned}: more than a {geometry.rows}x{geometry.cols} board takes"
        truth = self.board.to_grid()
        if not isinstance(returned, list) or not all(isinstance(row, list) for row in returned):
            return f"returned {type(returned).__name__}, not a list of rows"
        if len(returned) != len(truth) or any(
            len(got) != len(want) for got, want in zip(returned, truth, strict=False)
        ):
            shape = f"{len(returned)}x{len(returned[0]) if returned else 0}"
            return f"returned a {shape} board for a {len(truth)}x{len(truth[0])} one"
        wrong = self.differences(returned, 1)
        if wrong:
            r, c, got, want = wrong[0]
            return wrong_cell(self.board.geometry.index(r, c), self.board.geometry.cols, got, want)
        return ""

    def differences(self, returned: Any, limit: int) -> list[tuple[int, int, str, int]]:
        """The first ``limit`` cells where ``returned`` differs from the board, row by row:
        ``(row, col, what was returned there (a short repr), what the cell is)``; empty when
        it is not a board of the right shape (:meth:`judge` says why) or is the board.

        Examples
        --------
        >>> Referee(Board.from_grid([[0, 1, -1]])).differences([[0, 2, 1]], 5)
        [(0, 1, '2', 1), (0, 2, '1', -1)]

        Notes
        -----
        O(cells): stops at the ``limit``-th difference.
        """
        found: list[tuple[int, int, str, int]] = []
        for r, c, got, want in self._wrong(returned):
            found.append((r, c, _short(got), want))
            if len(found) >= limit:
                break
        return found

    def wrong_count(self, returned: Any) -> int:
        """How many cells of ``returned`` differ from the board (0 when it is not a board of
        the right shape, or is the board).

        Examples
        --------
        >>> Referee(Board.from_grid([[0, 1, -1]])).wrong_count([[0, 2, 1]])
        2

        Notes
        -----
        O(cells).
        """
        return sum(1 for _ in self._wrong(returned))

    def _wrong(self, returned: Any) -> Iterator[tuple[int, int, Any, int]]:
        """Each cell where ``returned`` differs from the board, row by row (none when it is
        not a board of the right shape)."""
        truth = self.board.to_grid()
        if (
            not isinstance(returned, list)
            or len(returned) != len(truth)
            or not all(
                isinstance(row, list) and len(row) == len(want)
                for row, want in zip(returned, truth, strict=True)
            )
        ):
            return
        for r, (got_row, want_row) in enumerate(zip(returned, truth, strict=True)):
            for c, (got, want) in enumerate(zip(got_row, want_row, strict=True)):
                if got != want or type(got) is not int:
                    yield r, c, got, want


def _period(moves: list[Cell]) -> int:
    """The length of the shortest cycle ``moves`` repeat, gone through at least twice; 0 for none.

    Examples
    --------
    >>> _period([3, 4, 3, 4, 3]), _period([3, 3]), _period([3, 4, 5]), _period([])
    (2, 1, 0, 0)

    Notes
    -----
    O(len(moves)): the prefix function (Knuth, Morris and Pratt) gives the shortest period.
    """
    n = len(moves)
    border = [0] * n
    for i in range(1, n):
        k = border[i - 1]
        while k and moves[i] != moves[k]:
            k = border[k - 1]
        border[i] = k + (moves[i] == moves[k])
    period = n - border[-1] if n else 0
    return period if n and 2 * period <= n else 0


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
