"""Scoring: a policy's exact chance of winning a board, its play followed over every placement.

Glossary
--------
fixed ties
    The policy's source of chance made deterministic (:class:`FixedTies`): a shuffle sorts,
    a choice takes the least. A policy that breaks ties at random then plays one way only,
    so its wins can be counted exactly.
decision
    A stall the policy is asked about: its belief state, the board as the player sees it.
    The sweep reveals every cell safe in all the state's placements before it stalls, as the
    search's free reveals do, so each decision is one belief state, asked once.
"""

from __future__ import annotations

import math
import random
from collections.abc import MutableSequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...board import MINE, Cell, Geometry, PartialGrid
from ...errors import InvalidBoardError
from ...game import FirstMove
from ..odds import odds
from .placements import MINE_BYTE, Placements
from .search import Budget, Search
from .states import Subset

if TYPE_CHECKING:
    from ..policy import Policy

__all__ = ["FixedTies", "PolicyPlay", "Score"]


class FixedTies(random.Random):
    """A policy's source of chance that never chooses at random: a shuffle sorts the cells, a
    choice takes the least one, so ties go to the lowest cell.

    Examples
    --------
    >>> ties = FixedTies()
    >>> cells = [7, 2, 5]
    >>> ties.shuffle(cells)
    >>> cells, ties.choice([9, 4, 6])
    ([2, 5, 7], 4)
    """

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Sort ``x`` in place."""
        x[:] = sorted(x)

    def choice(self, seq: Any) -> Any:
        """The least of ``seq``."""
        return min(seq)


@dataclass(frozen=True)
class Score:
    """How often a policy wins, counted over every placement."""

    wins: int
    placements: int
    decisions: int
    """How many stalls the policy was asked about (over every question asked so far)."""

    @property
    def chance(self) -> Fraction:
        """The exact chance the policy wins."""
        return Fraction(self.wins, self.placements)


class PolicyPlay(Search):
    """A policy's play on a fresh board, followed over every placement at once.

    The search of :class:`~.search.Search`, where a stall's move is the policy's (asked with
    :class:`FixedTies`) instead of the best one; no symmetry is used, since a policy need
    not play mirrored boards alike.

    Examples
    --------
    >>> from mineshafted.probability import Safest
    >>> play = PolicyPlay(Safest(), 3, 3, 2)
    >>> play.at(FirstMove.SAFE, 0).chance
    Fraction(23, 28)

    Notes
    -----
    One call of the policy per decision; the states it leads to are split as the search
    splits them. Cost: the policy's, times the number of distinct stalls over every placement.
    """

    def __init__(
        self,
        policy: Policy,
        rows: int,
        cols: int,
        mines: int,
        *,
        limit: int | None = None,
        budget: Budget | None = None,
    ) -> None:
        if rows >= 1 and cols >= 1 and mines >= rows * cols:
            raise InvalidBoardError(f"{mines} mines leave no safe cell on a {rows}x{cols} board")
        super().__init__(
            Placements.board(rows, cols, mines, limit=limit), symmetric=False, budget=budget
        )
        self.policy = policy
        self.geometry = Geometry(rows, cols)
        self.decisions = 0

    def at(self, first: FirstMove, start: Cell) -> Score:
        """The policy's wins with the first reveal at ``start`` under ``first``.

        Raises
        ------
        InvalidBoardError
            The mines do not fit beside the first reveal's promise.
        """
        zone = {FirstMove.NONE: 0, FirstMove.SAFE: 1}.get(first)
        if zone is None:
            zone = 1 + len(self.geometry.neighbours(start))
        room = self.geometry.cells - zone
        if self.table.mines > room:
            raise InvalidBoardError(
                f"{self.table.mines} mines do not fit beside a {first.value} first reveal "
                f"at {start}"
            )
        everything = self.everything
        if first is FirstMove.OPENING:
            wins = self.wins(self.reader.showing(everything, start, 0))
        else:
            wins = self.move_wins(everything, start)
        return Score(wins, math.comb(room, self.table.mines), self.decisions)

    def _expand(
        self, subset: Subset, need: int, among: list[int] | None = None
    ) -> tuple[int, bool, list[int]]:
        """The wins of the policy's move at this stall (exact whatever ``need``)."""
        self.expanded += 1
        self.decisions += 1
        board = self._view(self.reader.view(self.reader.summary(subset)[0]))
        from ..view import position_of

        position = position_of(board)
        chances = odds(position, self.table.mines)
        cell = self.policy.choose(position, chances, board, FixedTies())
        return sum(self.wins(part) for part in self.parts(subset, cell)), True, [cell]

    def _view(self, shown: list[int | None]) -> PartialGrid:
        """The board as the player sees it at a stall: the cells that show the same in every
        placement (a clue, or ``-1`` for a mine), the others unknown."""
        rows, cols = self.geometry.rows, self.geometry.cols
        board: PartialGrid = [[None] * cols for _ in range(rows)]
        for cell, value in enumerate(shown):
            if value is not None:
                board[cell // cols][cell % cols] = MINE if value == MINE_BYTE else value
        return board
