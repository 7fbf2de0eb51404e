"""The referee: holds the hidden board, answers each move with one clue, judges the answer."""

from __future__ import annotations

from typing import Any

from ..board import Board, Cell
from .protocol import Oversized, Reply, Unreadable

__all__ = ["Referee"]


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
    '(1, 1) is 0, not 1'
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
        return Reply.CLUE, values[index]

    def judge(self, returned: Any) -> str:
        """Why ``returned`` is not the board; ``""`` when it is.

        Notes
        -----
        O(cells): stops at the first difference.
        """
        if isinstance(returned, Unreadable):
            return f"returned a {returned.kind} that is not JSON: {returned.text}"
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
            return f"({r}, {c}) is {got}, not {want}"
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
        truth = self.board.to_grid()
        if (
            not isinstance(returned, list)
            or len(returned) != len(truth)
            or not all(
                isinstance(row, list) and len(row) == len(want)
                for row, want in zip(returned, truth, strict=True)
            )
        ):
            return []
        found: list[tuple[int, int, str, int]] = []
        for r, (got_row, want_row) in enumerate(zip(returned, truth, strict=True)):
            for c, (got, want) in enumerate(zip(got_row, want_row, strict=True)):
                if got != want or type(got) is not int:
                    found.append((r, c, _short(got), want))
                    if len(found) >= limit:
                        return found
        return found


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
