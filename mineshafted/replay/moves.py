"""Moves: a sweep's moves on a board (a graded submission's, say) as a replay page.

The moves are replayed as a game under the Mine Shafted rules, each cell the first time it
was moved onto, the game ending at a mine; a :class:`~.script.Judgement` says how the judge
saw the end, in place of the game's status (a board returned wrong is never *won*), and what
came after the last move shown (moves onto cells already moved onto).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..board import Board, Cell
from ..game import Game, Rules
from .page import page
from .script import Judgement

__all__ = ["moves_page"]


def moves_page(
    board: Board,
    moves: Sequence[Cell],
    *,
    title: str = "replay",
    judgement: Judgement | None = None,
) -> str:
    """The replay page of ``moves`` on ``board``: one step per cell, the reason of each its
    number (``your move 3``).

    Parameters
    ----------
    moves:
        Each cell in the order it was first moved onto (a mine last, if one was: the moves
        after it are not shown).
    judgement:
        How the judge saw the end (:func:`mineshafted.grading.accounts.replay_words` gives a
        graded board's).

    Raises
    ------
    IllegalMoveError
        A move is not a cell of the board.
    ValueError
        A cell of the judgement is not a cell of the board.

    Examples
    --------
    >>> board = Board.from_grid([[0, 1, -1]])
    >>> document = moves_page(board, [0, 1], judgement=Judgement("wrong board", "(0, 2) is wrong"))
    >>> '"verdict":"wrong board"' in document, '"status":"won"' in document
    (True, True)

    Notes
    -----
    ``O(cells + moves)``.
    """
    game = Game.on(board, rules=Rules.MINE_SHAFTED)
    for number, cell in enumerate(moves, 1):
        if game.over:
            break
        game.reveal(cell, reason=f"your move {number}")
    return page(game.record, title=title, judgement=judgement)
