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

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from ..board import Cell
from ..solver import Fact, Position
from .count import Count, _convolve, count_component
from .errors import NoPlacementError, Why

__all__ = ["Odds", "combine", "odds"]


@dataclass(frozen=True)
class Odds:
    """Every unknown cell's chance of a mine, kept exact as counts of placements.

    ``mined[cell] / placements`` is the cell's probability; :meth:`probability` gives it as a
    :class:`~fractions.Fraction`, :meth:`floats` as floats.
    """

    mines_left: int
    """The mines the unknown cells hold between them."""
    placements: int
    """How many placements of the mines left agree with every clue (always at least 1)."""
    mined: dict[Cell, int]
    """Unknown cell -> how many of the placements put a mine on it."""

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
        """Every unknown cell's probability of a mine as a float, by ascending cell."""
        total = self.placements
        return {cell: self.mined[cell] / total for cell in sorted(self.mined)}

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

    def certain(self) -> list[Fact]:
        """The cells decided by the count: ``(cell, is_mine)`` for probability 0 or 1."""
        total = self.placements
        return [
            (cell, count == total)
            for cell, count in sorted(self.mined.items())
            if count in (0, total)
        ]


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
    Each component is counted by number of mines (:func:`~.count.count_component`), then
    :func:`combine` multiplies them together and with ``C(unconstrained cells, mines left
    over)``. The cost is that of counting the components, plus ``O(K * L**2)`` to combine
    ``K`` components with polynomials of length ``L``.
    """
    counts = [count_component(component) for component in position.components]
    return combine(counts, position.unconstrained, mines - position.mines_found)


def combine(counts: Sequence[Count], unconstrained: Sequence[Cell], mines_left: int) -> Odds:
    """Put independent components and the unconstrained cells together under the mine total.

    Parameters
    ----------
    counts:
        Each component's placements by number of mines.
    unconstrained:
        The unknown cells no constraint sees: any of them may hold any mine left over.
    mines_left:
        The mines all the unknown cells hold between them.

    Returns
    -------
    Odds

    Raises
    ------
    NoPlacementError
        A component has no placement at all, or no split of ``mines_left`` between the
        components and the unconstrained cells works.

    Examples
    --------
    One mine between cells 1 and 2, and two free cells, with two mines in all:

    >>> result = combine([count_component([((1, 2), 1)])], [7, 8], 2)
    >>> result.placements, result.fractions()[1], result.fractions()[7]
    (4, Fraction(1, 2), Fraction(1, 2))

    Notes
    -----
    With ``P_j`` component ``j``'s placements by mines and ``U`` unconstrained cells, the
    placements number ``sum_k (P_1 * ... * P_K)[k] * C(U, R - k)`` (``*`` convolution, ``R``
    the mines left). A class of component ``j`` is weighed against the product of the other
    components (prefix and suffix products, so no division), an unconstrained cell against
    ``C(U - 1, R - k - 1)``. Cost ``O(K * L**2 + classes * L)`` for ``K`` components and
    polynomials of length ``L``.
    """
    free = len(unconstrained)
    for count in counts:
        if not any(count.placements):
            raise NoPlacementError(
                f"the clues contradict each other around cells {count.cells}",
                why=Why.CLUES,
                cells=count.cells,
            )
    polys = [list(count.placements) for count in counts]
    prefix: list[list[int]] = [[1]]
    for poly in polys:
        prefix.append(_convolve(prefix[-1], poly))
    suffix: list[list[int]] = [[1]]
    for poly in reversed(polys):
        suffix.append(_convolve(suffix[-1], poly))
    suffix.reverse()
    every = prefix[-1]
    placements = sum(n * _choose(free, mines_left - k) for k, n in enumerate(every))
    if placements == 0:
        raise _no_room(polys, free, mines_left)
    mined: dict[Cell, int] = {}
    for j, count in enumerate(counts):
        others = _convolve(prefix[j], suffix[j + 1])
        weights = [
            sum(n * _choose(free, mines_left - k - t) for t, n in enumerate(others))
            for k in range(len(count.placements))
        ]
        for group, counted in zip(count.classes, count.mined, strict=True):
            value = sum(c * w for c, w in zip(counted, weights, strict=False) if c)
            for cell in group:
                mined[cell] = value
    if unconstrained:
        value = sum(n * _choose(free - 1, mines_left - k - 1) for k, n in enumerate(every))
        for cell in unconstrained:
            mined[cell] = value
    return Odds(mines_left, placements, mined)


def _no_room(polys: Sequence[Sequence[int]], free: int, mines_left: int) -> NoPlacementError:
    """The error for mines left that no split between components and free cells fits."""
    least = sum(next(k for k, n in enumerate(poly) if n) for poly in polys)
    most = sum(max(k for k, n in enumerate(poly) if n) for poly in polys) + free
    if mines_left < least:
        return NoPlacementError(
            f"{mines_left} mine(s) left, but the clues need at least {least}", why=Why.TOO_FEW
        )
    if mines_left > most:
        return NoPlacementError(
            f"{mines_left} mine(s) left, but at most {most} fit in the unknown cells",
            why=Why.TOO_MANY,
        )
    return NoPlacementError(
        f"{mines_left} mine(s) left, but no split of them between the clues fits", why=Why.GAP
    )


def _choose(n: int, k: int) -> int:
    """``C(n, k)``, zero outside ``0 <= k <= n``."""
    return comb(n, k) if 0 <= k <= n else 0
