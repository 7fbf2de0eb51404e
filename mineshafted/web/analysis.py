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
    ``best`` guessing policy of classic play chooses (:class:`~mineshafted.probability.Best`)
    on a position of up to :data:`LOOKAHEAD_CELLS` unknown cells, the safest cell (the
    first of the least likely to hold a mine) on a larger one; none when every unknown cell
    is a mine.
open cells
    Unknown cells that no clue sees (the solver's *unconstrained* cells): all alike, so
    they share one count, and a nearly empty board of a million cells is counted as fast
    as its clues.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..board import Cell, PartialGrid
from ..probability import Odds, odds_json, view_odds
from .survey import policy_choice, stall_of

__all__ = [
    "LOOKAHEAD_CELLS",
    "Analysis",
    "analyze",
    "best_move",
]

LOOKAHEAD_CELLS: Final = 40_000
"""The most unknown cells on which the ``best`` policy's look-ahead chooses the best move (a
live game's largest board); above, the best move is the safest cell."""


@dataclass(frozen=True)
class Analysis:
    """What ``POST /api/analyze`` answers about a position."""

    grid: PartialGrid
    result: Odds
    best: Cell | None
    """The best move, or ``None`` when no unknown cell is worth revealing."""
    chosen_by: str | None = None
    """How the best move was chosen: ``"safe"``, ``"policy"`` or ``"safest"``."""

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
        answer["best_by"] = self.chosen_by
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
    unknown = len(result.mined)
    best = best_move(grid, mines, result) if unknown <= LOOKAHEAD_CELLS else _safest(result)
    if best is None:
        chosen = None
    elif result.mined[best] == 0:
        chosen = "safe"
    else:
        chosen = "policy" if unknown <= LOOKAHEAD_CELLS else "safest"
    return Analysis(grid, result, best, chosen)


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
    position, stall, marked = stall_of(grid, mines, result)
    return policy_choice(position, stall, marked)


def _safest(result: Odds) -> Cell | None:
    """The first of the unknown cells least likely to hold a mine; ``None`` if every one is
    a mine."""
    if not result.mined or min(result.mined.values()) == result.placements:
        return None
    least = min(result.mined.values())
    return min(cell for cell, count in result.mined.items() if count == least)
