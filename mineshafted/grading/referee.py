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
            return Reply.MINE, True
        self.moves += 1
        if not self._explored[index]:
            self._explored[index] = 1
            self._explored_count += 1
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
        for r, (got_row, want_row) in enumerate(zip(returned, truth, strict=True)):
            for c, (got, want) in enumerate(zip(got_row, want_row, strict=True)):
                if got != want or type(got) is not int:
                    return f"({r}, {c}) is {_short(got)}, not {want}"
        return ""


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
