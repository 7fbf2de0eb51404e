"""Analysis: a position's exact odds, its decided cells and the best move, as the API answers.

Glossary
--------
position
    A player's grid (clues 0-8, ``-1`` a known mine, ``None`` unknown) and the mine total:
    what ``mineshafted probabilities`` reads.
decided
    An unknown cell with a mine in no placement (safe) or in every one (a mine), the mine
    total included.
best move
    A safe cell when there is one (the first in row-major order); otherwise the cell the
    ``best`` guessing policy of classic play chooses (:class:`~mineshafted.probability.Best`);
    none when every unknown cell is a mine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..board import MINE, Cell, PartialGrid
from ..probability import Best, Odds, odds, odds_json, position_of, view_odds

__all__ = ["Analysis", "analyze", "best_move"]

POLICY_SEED = 0
"""The seed of the policy's tie-breaking: the same position always gets the same best move."""


@dataclass(frozen=True)
class Analysis:
    """What ``POST /api/analyze`` answers about a position."""

    grid: PartialGrid
    result: Odds
    best: Cell | None
    """The best move, or ``None`` when no unknown cell is worth revealing."""

    def to_json(self) -> dict[str, object]:
        """The answer: ``probabilities`` (as ``mineshafted probabilities --json`` prints
        them), ``mines_left``, ``placements``, ``safe`` and ``mines`` (decided cells as
        ``[row, column]``), ``best`` (``[row, column]`` or ``None``) and its
        ``best_probability``.

        Examples
        --------
        >>> analyze([[1, None], [None, None]], 1).to_json()["best"]
        [0, 1]
        """
        cols = len(self.grid[0])
        answer = odds_json(self.grid, self.result)
        answer["safe"] = [[c // cols, c % cols] for c in self.result.safe]
        answer["mines"] = [[c // cols, c % cols] for c in self.result.mines]
        best = self.best
        answer["best"] = None if best is None else [best // cols, best % cols]
        answer["best_probability"] = (
            None if best is None else self.result.mined[best] / self.result.placements
        )
        return answer


def analyze(grid: PartialGrid, mines: int) -> Analysis:
    """The exact odds of a position, its decided cells and its best move.

    Parameters
    ----------
    grid:
        Rows of clues 0-8, ``-1`` (a known mine) and ``None`` (unknown), checked.
    mines:
        The board's mine total.

    Raises
    ------
    InvalidBoardError
        The grid is malformed.
    NoPlacementError
        No placement fits the clues and the total.

    Examples
    --------
    >>> result = analyze([[0, 1, None], [0, 1, None]], 1)
    >>> result.result.fractions(), result.best
    ({2: Fraction(1, 2), 5: Fraction(1, 2)}, 2)

    Notes
    -----
    The count of :func:`~mineshafted.probability.view_odds`, plus the policy's choice at a
    stall (a count per candidate and clue it may show: see
    :class:`~mineshafted.probability.Best`).
    """
    result = view_odds(grid, mines)
    return Analysis(grid, result, best_move(grid, mines, result))


def best_move(grid: PartialGrid, mines: int, result: Odds) -> Cell | None:
    """A safe cell if there is one; else the ``best`` policy's guess; ``None`` if no unknown
    cell is left but mines.

    The policy is asked as classic play asks it, at a stall: the cells the total decides as
    mines are marked as known mines first (their odds do not change).

    Examples
    --------
    >>> grid = [[1, None, None]]
    >>> best_move(grid, 1, view_odds(grid, 1))
    2
    >>> best_move([[1, None]], 1, view_odds([[1, None]], 1)) is None
    True
    """
    if result.safe:
        return result.safe[0]
    total = result.placements
    if all(count == total for count in result.mined.values()):
        return None
    marked = [list(row) for row in grid]
    cols = len(grid[0])
    for cell in result.mines:
        marked[cell // cols][cell % cols] = MINE
    position = position_of(marked)
    stall = odds(position, mines) if result.mines else result
    return Best().choose(position, stall, marked, random.Random(POLICY_SEED))
