"""Optimum: the exact chance that best possible play wins a board or a position.

Glossary
--------
first-click rule
    What the rules promise of the first reveal (:class:`~mineshafted.game.FirstMove`):
    ``none`` nothing (every placement of the board counts, a mine under the first reveal
    loses: the Code Golf challenge's rules), ``safe`` the first reveal is never a mine (the
    placements without a mine there count), ``opening`` it and its neighbours are never mines.
optimum
    Best play's wins over the placements the rule allows, with the best first reveal (or the
    one given), as an exact fraction.

Notes
-----
One search serves the three rules. The state after a first reveal at ``s`` that shows ``v``
is the same under each rule: the placements with no mine on ``s`` and ``v`` mines around
it. So ``none`` and ``safe`` win the same placements, out of ``C(cells, mines)`` and
``C(cells - 1, mines)`` (the same first reveals are best), and ``opening`` wins those of the
state where ``s`` shows 0, out of the placements that keep ``s`` and its neighbours clear.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

from ...board import Cell, Geometry, PartialGrid
from ...errors import InvalidBoardError
from ...game import FirstMove
from .placements import Placements, check_room
from .search import Budget, Search

__all__ = ["MAX_PLACEMENTS", "OptimalPlay", "Optimum", "board_optimum", "position_optimum"]

MAX_PLACEMENTS = 200_000
"""The most placements a board or position may have by default: the table and the search's
matrices grow with them (and the search much faster)."""


@dataclass(frozen=True)
class Optimum:
    """How often best play wins, and where it starts.

    Examples
    --------
    >>> best = board_optimum(4, 4, 4, first=FirstMove.NONE)
    >>> best.wins, best.placements, best.chance, best.moves
    (961, 1820, Fraction(961, 1820), (1, 2, 4, 7, 8, 11, 13, 14))
    """

    wins: int
    """How many of the placements best play wins."""
    placements: int
    """How many placements the rule allows: all are equally likely."""
    moves: tuple[Cell, ...]
    """The best first reveals (or, from a position, the best next moves), ascending; the
    first reveal given, when one was; empty when nothing is left to reveal."""
    states: int
    """How many belief states the search remembered (over every question it was asked)."""
    expanded: int
    """How many of them it expanded (tried the moves of)."""
    seconds: float
    """How long the search ran, over every question it was asked."""

    @property
    def chance(self) -> Fraction:
        """The exact chance that best play wins: :attr:`wins` over :attr:`placements`."""
        return Fraction(self.wins, self.placements) if self.placements else Fraction(0)


class OptimalPlay:
    """Best play on a fresh board, asked under any first-click rule and start, one search
    shared by every question.

    Examples
    --------
    A 3x3 board with 2 mines: an edge's middle is the best first reveal under each rule, and
    an opening there always wins (one in the centre would need the whole board clear).

    >>> play = OptimalPlay(3, 3, 2)
    >>> [(first.value, play.best(first).chance, play.best(first).moves) for first in FirstMove]
    [('safe', Fraction(6, 7), (1, 3, 5, 7)), ('opening', Fraction(1, 1), (1, 3, 5, 7)), \
('none', Fraction(2, 3), (1, 3, 5, 7))]
    >>> play.at(FirstMove.NONE, 4).wins, play.at(FirstMove.SAFE, 4).chance
    (17, Fraction(17, 28))
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        mines: int,
        *,
        budget: Budget | None = None,
        limit: int | None = MAX_PLACEMENTS,
    ) -> None:
        """Make the board's placements (refusing more than ``limit``) and a search on them.

        Raises
        ------
        InvalidBoardError
            No cells, or ``mines`` not in ``0..rows*cols - 1`` (at least one cell is safe).
        TooManyPlacements
            More than ``limit`` placements.
        """
        if rows >= 1 and cols >= 1 and mines >= rows * cols:
            raise InvalidBoardError(
                f"{mines} mines leave no safe cell on a {rows}x{cols} board: at most "
                f"{rows * cols - 1}"
            )
        self.geometry = Geometry(rows, cols)
        self.mines = mines
        memory = None if budget is None else budget.memory
        table = Placements.board(rows, cols, mines, limit=limit, memory=memory)
        self.search = Search(table, budget=budget)
        self._root: tuple[int, list[int]] | None = None
        self._opening: dict[Cell, int] = {}

    def best(self, first: FirstMove) -> Optimum:
        """Best play under ``first`` with the best first reveal.

        Raises
        ------
        InvalidBoardError
            The mines do not fit beside the first reveal's promise anywhere.
        OutOfBudget
            The search reached its budget.
        """
        if first is FirstMove.OPENING:
            chances: dict[Cell, Fraction] = {}
            for cell in self._classes():
                if self._fits(first, cell):
                    chances[cell] = Fraction(self._opening_wins(cell), self._allowed(first, cell))
            if not chances:
                raise InvalidBoardError(self._no_room(first))
            top = max(chances.values())
            starts = [c for c, chance in chances.items() if chance == top]
            moves = sorted({image[c] for c in starts for image in self._symmetries()})
            cell = moves[0]
            return self._optimum(self._opening_wins(cell), self._allowed(first, cell), moves)
        if not self._fits(first, 0):
            raise InvalidBoardError(self._no_room(first))
        if self._root is None:
            self._root = self.search.best_moves(self.search.everything)
        wins, moves = self._root
        return self._optimum(wins, self._allowed(first, moves[0] if moves else 0), moves)

    def at(self, first: FirstMove, start: Cell) -> Optimum:
        """Best play under ``first`` with the first reveal at ``start``.

        Raises
        ------
        InvalidBoardError
            ``start`` is off the board, or the mines do not fit beside its promise.
        OutOfBudget
            The search reached its budget.
        """
        if not 0 <= start < self.geometry.cells:
            raise InvalidBoardError(
                f"the first reveal {start} is off the {self.geometry.rows}x{self.geometry.cols} "
                "board"
            )
        if not self._fits(first, start):
            raise InvalidBoardError(self._no_room(first, start))
        if first is FirstMove.OPENING:
            wins = self._opening_wins(start)
        else:
            wins = self.search.move_wins(self.search.everything, start)
        return self._optimum(wins, self._allowed(first, start), [start])

    def _optimum(self, wins: int, placements: int, moves: list[Cell]) -> Optimum:
        search = self.search
        seconds = time.perf_counter() - search.began
        return Optimum(wins, placements, tuple(moves), search.states, search.expanded, seconds)

    def _opening_wins(self, start: Cell) -> int:
        """Best play's wins over the placements where ``start`` shows 0."""
        image = self._class_of(start)
        if image not in self._opening:
            search = self.search
            clear = search.reader.showing(search.everything, image, 0)
            self._opening[image] = search.wins(clear) if clear else 0
        return self._opening[image]

    def _symmetries(self) -> tuple[tuple[int, ...], ...]:
        return self.search.table.symmetries

    def _class_of(self, cell: Cell) -> Cell:
        """The first cell the board's symmetries map ``cell`` to."""
        return min(image[cell] for image in self._symmetries())

    def _classes(self) -> list[Cell]:
        """One cell of each set the board's symmetries map onto each other."""
        return sorted({self._class_of(cell) for cell in range(self.geometry.cells)})

    def _zone(self, first: FirstMove, start: Cell) -> int:
        """How many cells ``first`` keeps clear around ``start``."""
        if first is FirstMove.SAFE:
            return 1
        if first is FirstMove.OPENING:
            return 1 + len(self.geometry.neighbours(start))
        return 0

    def _fits(self, first: FirstMove, start: Cell) -> bool:
        return self.mines <= self.geometry.cells - self._zone(first, start)

    def _allowed(self, first: FirstMove, start: Cell) -> int:
        """How many placements ``first`` allows with the first reveal at ``start``."""
        return math.comb(self.geometry.cells - self._zone(first, start), self.mines)

    def _no_room(self, first: FirstMove, start: Cell | None = None) -> str:
        rows, cols = self.geometry.rows, self.geometry.cols
        where = "" if start is None else f" at row {start // cols}, column {start % cols}"
        article = "an" if first is FirstMove.OPENING else "a"
        return (
            f"{self.mines} mines do not fit on a {rows}x{cols} board with {article} "
            f"{first.value} first reveal{where}"
        )


def board_optimum(
    rows: int,
    cols: int,
    mines: int,
    *,
    first: FirstMove = FirstMove.SAFE,
    start: Cell | None = None,
    budget: Budget | None = None,
    limit: int | None = MAX_PLACEMENTS,
) -> Optimum:
    """Best play on a fresh ``rows`` x ``cols`` board with ``mines`` mines.

    Parameters
    ----------
    first:
        The first-click rule.
    start:
        The first reveal; ``None``: the best one is found.
    budget:
        Belief states and seconds the search may use.
    limit:
        The most placements the board may have.

    Raises
    ------
    InvalidBoardError
        The board or the start is not possible under the rule.
    TooManyPlacements
        More than ``limit`` placements.
    OutOfBudget
        The search reached its budget.

    Examples
    --------
    >>> board_optimum(4, 4, 4, first=FirstMove.SAFE).chance
    Fraction(961, 1365)
    >>> board_optimum(4, 4, 4, first=FirstMove.NONE, start=0).wins
    949
    """
    play = OptimalPlay(rows, cols, mines, budget=budget, limit=limit)
    return play.best(first) if start is None else play.at(first, start)


def position_optimum(
    board: PartialGrid,
    mines: int,
    *,
    budget: Budget | None = None,
    limit: int | None = MAX_PLACEMENTS,
) -> Optimum:
    """Best play from a player's view: the wins of best play and its best next moves.

    Parameters
    ----------
    board:
        Rows of an int 0-8 (a revealed clue), ``-1`` (a known mine) or ``None`` (unknown).
    mines:
        The board's mine total, known mines included.

    Raises
    ------
    InvalidBoardError
        The board is malformed.
    NoPlacementError
        No placement agrees with the clues and the total.
    TooManyPlacements
        More than ``limit`` placements.
    OutOfBudget
        The search reached its budget.

    Examples
    --------
    The Code Golf challenge's second example: best play wins 285 of 360, first at (0, 2).

    >>> view = [[None] * 5, [None, 1, None, None, None], [None, 3, None, None, None],
    ...         [None] * 5]
    >>> best = position_optimum(view, 5)
    >>> best.wins, best.placements, best.moves
    (285, 360, (2,))
    """
    from ..view import position_of, view_odds

    count = view_odds(board, mines).placements
    position = position_of(board)
    memory = None if budget is None else budget.memory
    check_room(
        count, len(position.unknown), limit, memory, f"the position has {count:,} placements"
    )
    table = Placements.position(position, board, mines)
    search = Search(table, budget=budget)
    wins, moves = search.best_moves(search.everything)
    cells = tuple(table.cells[i] for i in moves)
    seconds = time.perf_counter() - search.began
    return Optimum(wins, table.count, cells, search.states, search.expanded, seconds)
