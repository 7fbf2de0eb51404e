"""The odds of a position: each unknown cell's exact chance of a mine, under the mine total.

Glossary
--------
mines left
    The mine total less the proven mines: what the unknown cells hold between them.
placement
    A choice of which unknown cells hold the mines left that agrees with every clue. Every
    placement is taken as equally likely (the mines were drawn uniformly).
certain
    A cell with a mine in every placement, or in none: a deduction the mine total allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..board import Cell
from ..solver import Position, Tally, tally

__all__ = ["Odds", "odds"]


@dataclass(frozen=True)
class Odds(Tally):
    """Every unknown cell's chance of a mine, kept exact as counts of placements.

    ``mined[cell] / placements`` is the cell's probability; :meth:`probability` gives it as a
    :class:`~fractions.Fraction`, :meth:`floats` as floats.
    """

    def probability(self, cell: Cell) -> Fraction:
        """The exact probability that ``cell`` holds a mine.

        Raises
        ------
        KeyError
            ``cell`` is not an unknown cell of the position.
        """
        return Fraction(self.mined[cell], self.placements)

    def fractions(self) -> dict[Cell, Fraction]:
        """Every unknown cell's exact probability of a mine, by ascending cell."""
        return {cell: self.probability(cell) for cell in sorted(self.mined)}

    def floats(self) -> dict[Cell, float]:
        """Every unknown cell's probability of a mine as a float, by ascending cell.

        Notes
        -----
        Cells whose counts are one object (the cells of a class, the cells no clue sees)
        share one division: on a large open board the counts have hundreds of thousands of
        digits, and a million divisions of them took over a minute. The counts are looked up
        by identity, since hashing such an integer reads all of its digits.
        """
        total = self.placements
        shares: dict[int, float] = {}
        found: dict[Cell, float] = {}
        for cell in sorted(self.mined):
            count = self.mined[cell]
            share = shares.get(id(count))  # the counts live as long as self: ids are theirs
            if share is None:
                share = shares[id(count)] = count / total
            found[cell] = share
        return found

    def safest(self) -> list[Cell]:
        """The unknown cells least likely to hold a mine, ascending (empty if none is unknown)."""
        if not self.mined:
            return []
        least = min(self.mined.values())
        return [cell for cell in sorted(self.mined) if self.mined[cell] == least]

    @property
    def safe(self) -> list[Cell]:
        """The unknown cells with a mine in no placement, ascending."""
        return [cell for cell in sorted(self.mined) if self.mined[cell] == 0]

    @property
    def mines(self) -> list[Cell]:
        """The unknown cells with a mine in every placement, ascending."""
        total = self.placements
        return [cell for cell in sorted(self.mined) if self.mined[cell] == total]


def odds(position: Position, mines: int) -> Odds:
    """The exact probability of a mine on each unknown cell of a stalled position.

    Counted over all placements of the mines left (``mines`` less the proven ones) on the
    unknown cells that agree with every clue, each placement equally likely; cells that no
    clue sees included.

    Parameters
    ----------
    position:
        A stall, from :meth:`mineshafted.solver.Sweep.position` (or built from a player's
        view by :func:`mineshafted.probability.view_odds`).
    mines:
        The board's mine total.

    Returns
    -------
    Odds
        Counts of placements, exact; probabilities as fractions or floats.

    Raises
    ------
    NoPlacementError
        The clues contradict each other, or the mines left are too few or too many for them.

    Examples
    --------
    A 1x4 board ``0 1 * ?`` with one mine: the sweep stalls with cell 3 unknown, seen by no
    clue; with two mines it must be the second.

    >>> from mineshafted import BoardManager, Sweep
    >>> sweep = Sweep(BoardManager([[0, 1, -1, 1]]))
    >>> sweep.run().undetermined
    [3]
    >>> odds(sweep.position(), 1).fractions()
    {3: Fraction(0, 1)}
    >>> odds(sweep.position(), 2).mines
    [3]

    Notes
    -----
    The count is :func:`mineshafted.solver.tally`'s (components counted by number of mines,
    cells in classes, combined by convolution with ``C(unconstrained cells, mines left
    over)``); this adds only the division.
    """
    counted = tally(position, mines)
    return Odds(counted.mines_left, counted.placements, counted.mined)
