"""The mine total: a stall's components combined under it, and the cells it decides.

With the mine total, the components' counts (:mod:`.weights`) combine into a :class:`Tally`
of the whole position: how many placements of the remaining mines agree with every clue,
and on how many of them each unknown cell holds a mine. A cell mined in none or all of them
is decided by the count: the last layer of deduction (Tatham's order: local deduction first,
the global count last).

Glossary
--------
placement
    As in :mod:`.weights`: a choice of which unknown cells hold mines.
unconstrained
    An unknown cell that no clue sees: any of them may hold any mine the components leave
    over.
mines left
    The mine total less the mines already proven: what the unknown cells hold between them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Final

from .. import core
from ..board import Cell
from ..errors import NoPlacementError, Why
from .binomial import binomials
from .position import Constraint, Position
from .variables import Fact
from .weights import Weights, convolve, weighed

__all__ = ["WINDOW_CELLS", "Tally", "combine", "decided_by_total", "tally"]

WINDOW_CELLS: Final = 2_000
"""From this many unconstrained cells on, :func:`combine` takes its binomials as one window
(:func:`~.binomial.binomials`) instead of one :func:`math.comb` each."""


@dataclass(frozen=True)
class Tally:
    """A position's placements under the mine total, counted: in all, and per unknown cell.

    ``mined[cell] / placements`` is the cell's chance of a mine
    (:class:`mineshafted.probability.Odds` says so in fractions and floats); a cell mined in
    none or all of the placements is decided by the count (:meth:`certain`).
    """

    mines_left: int
    """The mines the unknown cells hold between them."""
    placements: int
    """How many placements of the mines left agree with every clue (always at least 1)."""
    mined: dict[Cell, int]
    """Unknown cell -> how many of the placements put a mine on it."""

    def certain(self) -> list[Fact]:
        """The cells decided by the count: ``(cell, is_mine)`` for none or all placements.

        Examples
        --------
        >>> Tally(1, 2, {3: 0, 4: 1, 5: 1, 6: 2}).certain()
        [(3, False), (6, True)]
        """
        total = self.placements
        return [
            (cell, count == total)
            for cell, count in sorted(self.mined.items())
            if count in (0, total)
        ]


def tally(position: Position, mines: int) -> Tally:
    """Count the placements of a stalled position's remaining mines, in all and per cell.

    Counted over all placements of the mines left (``mines`` less the proven ones) on the
    unknown cells that agree with every clue; cells that no clue sees included.

    Raises
    ------
    NoPlacementError
        The clues contradict each other, or the mines left are too few or too many for them.

    Examples
    --------
    A 1x4 board ``0 1 * ?``: the sweep stalls with cell 3 unknown, seen by no clue. With one
    mine in all it is safe; with two it is the second mine.

    >>> from mineshafted import BoardManager, Sweep
    >>> sweep = Sweep(BoardManager([[0, 1, -1, 1]]))
    >>> sweep.run().undetermined
    [3]
    >>> tally(sweep.position(), 1).certain(), tally(sweep.position(), 2).certain()
    ([(3, False)], [(3, True)])

    Notes
    -----
    Each component is counted by number of mines (:func:`~.weights.weighed`), then
    :func:`combine` multiplies them together and with ``C(unconstrained cells, mines left
    over)``. The cost is that of counting the components, plus ``O(K * L**2)`` to combine
    ``K`` components with polynomials of length ``L``.
    """
    counts = [weighed(tuple(component)) for component in position.components]
    return combine(counts, position.unconstrained, mines - position.mines_found)


def decided_by_total(position: Position, mines: int) -> list[Fact]:
    """The cells the mine total decides at a sweep's stall: what :func:`tally`'s ``certain()``
    gives, counting only when the total can restrict something.

    Only at a stall: the shortcut below takes the sweep's search to have decided every cell
    that its component alone decides.

    Examples
    --------
    >>> position = Position([[0, 1, -1, None]], [], [3], 1)
    >>> decided_by_total(position, 1), decided_by_total(position, 2)
    ([(3, False)], [(3, True)])

    Notes
    -----
    Components are counted through :func:`~.weights.weighed`, so one that did not change since
    the last stall (or that a guessing policy met) is not counted again. When every split of
    the mines left between the components and the unconstrained cells fits (at least one and
    at most all-but-one unconstrained cell left over whatever the components hold), the total
    restricts nothing: a component cell is then decided only if its component decides it,
    which the sweep's search has already done, so the combination is skipped. Bounds on each
    component's mines from disjoint constraints (:func:`_bounds`) often show this before any
    counting.
    """
    left = mines - position.mines_found
    free = len(position.unconstrained)
    cells = sum(
        len({c for scope, _ in component for c in scope}) for component in position.components
    )
    if _restricts_nothing(left, 0, cells, free):
        return []  # even with no count at all: the components hold between 0 and all their cells
    if free:
        least = most = 0
        for component in position.components:
            low, high = _bounds(component)
            least += low
            most += high
        if _restricts_nothing(left, least, most, free):
            return []
    counts = [weighed(tuple(component)) for component in position.components]
    if free and all(any(count.placements) for count in counts):
        least = sum(next(k for k, n in enumerate(c.placements) if n) for c in counts)
        most = sum(max(k for k, n in enumerate(c.placements) if n) for c in counts)
        if _restricts_nothing(left, least, most, free):
            return []
    return combine(counts, position.unconstrained, left).certain()


def combine(counts: Sequence[Weights], unconstrained: Sequence[Cell], mines_left: int) -> Tally:
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
    Tally

    Raises
    ------
    NoPlacementError
        A component has no placement at all, or no split of ``mines_left`` between the
        components and the unconstrained cells works.

    Examples
    --------
    One mine between cells 1 and 2, and two free cells, with two mines in all:

    >>> from mineshafted.solver import weigh
    >>> result = combine([weigh([((1, 2), 1)])], [7, 8], 2)
    >>> result.placements, result.mined[1], result.mined[7]
    (4, 2, 2)

    Notes
    -----
    With ``P_j`` component ``j``'s placements by mines and ``U`` unconstrained cells, the
    placements number ``sum_k (P_1 * ... * P_K)[k] * C(U, R - k)`` (``*`` convolution, ``R``
    the mines left). A class of component ``j`` is weighed against the product of the other
    components (prefix and suffix products, so no division), an unconstrained cell against
    ``C(U - 1, R - k - 1)``. Cost ``O(K * L**2 + classes * L)`` for ``K`` components and
    polynomials of length ``L``.

    Compiled (:mod:`mineshafted.core`): after the binomials, the same sums in C, the
    components' products in 128-bit counts (a frontier of at most 127 cells) and only the
    products with the binomials in Python's big ints; the Python body below is its
    specification.
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
    most = sum(len(poly) - 1 for poly in polys)  # the most mines the components can hold
    # ways[x]: the placements of the unconstrained cells when the components hold x mines,
    # C(U, R - x): on a large board one window of binomials, made from the highest.
    if free >= WINDOW_CELLS:  # pragma: no mutate - a speed threshold: either way is exact
        ways = binomials(free, mines_left - most, mines_left)[::-1]
    else:
        ways = [_choose(free, mines_left - x) for x in range(most + 1)]
    kernels = core.kernels
    found = None if kernels is None else kernels.combine(counts, unconstrained, mines_left, ways)
    if found is not None:  # the compiled form of what follows, where the counts fit it
        if found[0] == 0:
            raise _no_room(polys, free, mines_left)
        return Tally(mines_left, *found)
    prefix: list[list[int]] = [[1]]
    for poly in polys:
        prefix.append(convolve(prefix[-1], poly))
    suffix: list[list[int]] = [[1]]
    for poly in reversed(polys):
        suffix.append(convolve(suffix[-1], poly))
    suffix.reverse()
    every = prefix[-1]
    placements = sum(n * w for n, w in zip(every, ways, strict=True))
    if placements == 0:
        raise _no_room(polys, free, mines_left)
    mined: dict[Cell, int] = {}
    for j, count in enumerate(counts):
        others = convolve(prefix[j], suffix[j + 1])
        weights = [
            sum(n * ways[k + t] for t, n in enumerate(others) if n)
            for k in range(len(count.placements))
        ]
        for group, hits in zip(count.classes, count.mined, strict=True):
            value = sum(c * w for c, w in zip(hits, weights, strict=False) if c)
            for cell in group:
                mined[cell] = value
    if unconstrained:
        # A cell of them is a mine in C(U - 1, R - k - 1) = C(U, R - k) * (R - k) / U, exactly.
        pairs = enumerate(zip(every, ways, strict=True))
        value = sum(n * (w * (mines_left - k) // free) for k, (n, w) in pairs)
        for cell in unconstrained:
            mined[cell] = value
    return Tally(mines_left, placements, mined)


def _restricts_nothing(left: int, least: int, most: int, free: int) -> bool:
    """Whether the total restricts nothing: with components holding between ``least`` and
    ``most`` mines, at least one and at most all-but-one of the ``free`` cells is left over."""
    return free > 0 and left - most >= 1 and left - least <= free - 1


def _bounds(component: Sequence[Constraint]) -> tuple[int, int]:
    """Bounds on the mines a component holds, from constraints picked pairwise disjoint.

    Disjoint constraints place their mines, and leave their other cells free, independently:
    at least the sum of their mines, at most every cell less the sum of their free cells.

    Examples
    --------
    >>> _bounds([((1, 2), 1), ((2, 3), 1), ((3, 4), 1)])
    (2, 2)
    """
    cells = {cell for scope, _ in component for cell in scope}
    used: set[Cell] = set()
    least = spare = 0
    for scope, mines in sorted(component, key=lambda c: len(c[0])):
        if used.isdisjoint(scope):
            used.update(scope)
            least += mines
            spare += len(scope) - mines
    return least, len(cells) - spare


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


@lru_cache(maxsize=1 << 16)
def _choose(n: int, k: int) -> int:
    """``C(n, k)``, zero outside ``0 <= k <= n`` (remembered: the same few recur)."""
    return comb(n, k) if 0 <= k <= n else 0
