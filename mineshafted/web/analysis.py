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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..board import Cell, PartialGrid
from ..errors import NoPlacementError, Why
from ..probability import Odds, odds, odds_json, position_of
from ..solver import Position, counted
from ..solver.count import convolve
from .knowledge import policy_choice, stall_of

__all__ = [
    "LOOKAHEAD_CELLS",
    "OPEN_CELLS",
    "Analysis",
    "analyze",
    "best_move",
    "binomials",
    "open_odds",
    "position_odds",
]

LOOKAHEAD_CELLS: Final = 40_000
"""The most unknown cells on which the ``best`` policy's look-ahead chooses the best move (a
live game's largest board); above, the best move is the safest cell."""

OPEN_CELLS: Final = 2_000
"""From this many open cells on, a position is counted by :func:`open_odds`."""


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
    The count of :func:`~mineshafted.probability.view_odds` (through :func:`position_odds`),
    plus the policy's choice at a stall (a count per candidate and clue it may show: see
    :class:`~mineshafted.probability.Best`).
    """
    result = position_odds(grid, mines)
    unknown = len(result.mined)
    best = best_move(grid, mines, result) if unknown <= LOOKAHEAD_CELLS else _safest(result)
    if best is None:
        chosen = None
    elif result.mined[best] == 0:
        chosen = "safe"
    else:
        chosen = "policy" if unknown <= LOOKAHEAD_CELLS else "safest"
    return Analysis(grid, result, best, chosen)


def position_odds(grid: PartialGrid, mines: int) -> Odds:
    """:func:`~mineshafted.probability.view_odds`, the same counts, with the open cells
    counted by :func:`open_odds` when there are many.

    Raises
    ------
    InvalidBoardError, NoPlacementError
        As :func:`~mineshafted.probability.view_odds`.

    Examples
    --------
    >>> position_odds([[1, None], [None, None]], 1).fractions()[3]
    Fraction(1, 3)
    """
    position = position_of(grid)
    if mines < position.mines_found:
        raise NoPlacementError(
            f"{mines} mine(s) in all, but {position.mines_found} are known", why=Why.TOO_FEW
        )
    if len(position.unconstrained) >= OPEN_CELLS:
        return open_odds(position, mines)
    return odds(position, mines)


def open_odds(position: Position, mines: int) -> Odds:
    """The odds of ``position``, as :func:`~mineshafted.probability.odds` counts them, for a
    position with many open cells.

    Every placement puts some of the mines left in the components and the rest among the
    ``U`` open cells, in ``C(U, rest)`` ways; an open cell holds a mine in ``C(U - 1, rest -
    1)`` of them. These are the same few binomials for every cell, of numbers with hundreds
    of thousands of digits on a large board: :func:`binomials` makes them from one, and the
    one from its prime factors.

    Raises
    ------
    NoPlacementError
        As :func:`~mineshafted.probability.odds`.

    Examples
    --------
    >>> from mineshafted.probability import position_of
    >>> position = position_of([[1, None, None, None]])
    >>> open_odds(position, 2) == odds(position, 2)
    True

    Notes
    -----
    The combination of :func:`mineshafted.solver.combine` (prefix and suffix products of the
    components' polynomials), with its ``C(U, rest)`` for ``rest`` in a window of as many
    values as the components have cells: ``O(U log U)`` for the first binomial (a product
    tree of prime powers), ``O(digits)`` for each next, where ``math.comb`` pays a
    big-number division for each (about 1 s apiece for ``C(1,000,000, 200,000)`` here).
    """
    counts = [counted(tuple(component)) for component in position.components]
    left = mines - position.mines_found
    free = len(position.unconstrained)
    if any(not any(count.placements) for count in counts) or not 0 <= left <= free + sum(
        len(count.placements) - 1 for count in counts
    ):
        return odds(position, mines)  # no placement: the library's own count says why
    polys = [list(count.placements) for count in counts]
    prefix: list[list[int]] = [[1]]
    for poly in polys:
        prefix.append(convolve(prefix[-1], poly))
    suffix: list[list[int]] = [[1]]
    for poly in reversed(polys):
        suffix.append(convolve(suffix[-1], poly))
    suffix.reverse()
    every = prefix[-1]
    # ways[x]: the placements of the open cells when the components hold x mines.
    ways = binomials(free, left - len(every) + 1, left)[::-1]
    placements = sum(n * w for n, w in zip(every, ways, strict=True))
    if placements == 0:
        return odds(position, mines)
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
    if free:
        # C(U - 1, r - 1) = C(U, r) * r / U, exactly.
        value = sum(
            n * (w * (left - k) // free) for k, (n, w) in enumerate(zip(every, ways, strict=True))
        )
        for cell in position.unconstrained:
            mined[cell] = value
    return Odds(left, placements, mined)


def binomials(n: int, low: int, high: int) -> list[int]:
    """``C(n, k)`` for ``k`` from ``low`` to ``high``, zero outside ``0..n``.

    Examples
    --------
    >>> binomials(5, -1, 3)
    [0, 1, 5, 10, 10]
    >>> from math import comb
    >>> binomials(1000, 197, 203) == [comb(1000, k) for k in range(197, 203 + 1)]
    True

    Notes
    -----
    The highest in range from its prime factors (Legendre: the exponent of ``p`` in
    ``C(n, k)`` is the number of carries when adding ``k`` and ``n - k`` in base ``p``),
    multiplied as a balanced product tree; then each next one down by ``C(n, k - 1) =
    C(n, k) * k / (n - k + 1)``, an exact division by a small number.
    """
    top = min(high, n)
    found: dict[int, int] = {}
    if low <= top and top >= 0:
        value = _binomial(n, top)
        found[top] = value
        for k in range(top, max(low, 0), -1):
            value = value * k // (n - k + 1)
            found[k - 1] = value
    return [found.get(k, 0) for k in range(low, high + 1)]


def best_move(grid: PartialGrid, mines: int, result: Odds) -> Cell | None:
    """A safe cell if there is one; else the ``best`` policy's guess; ``None`` if no unknown
    cell is left but mines.

    The policy is asked as classic play asks it, at a stall: the cells the total decides as
    mines are marked as known mines first (their odds do not change).

    Examples
    --------
    >>> grid = [[1, None, None]]
    >>> best_move(grid, 1, position_odds(grid, 1))
    2
    >>> best_move([[1, None]], 1, position_odds([[1, None]], 1)) is None
    True
    """
    if result.safe:
        return result.safe[0]
    total = result.placements
    if all(count == total for count in result.mined.values()):
        return None
    position, stall, marked = stall_of(grid, mines, result)
    return policy_choice(position, stall, marked)


def _binomial(n: int, k: int) -> int:
    """``C(n, k)`` as a product of prime powers (see :func:`binomials`)."""
    k = min(k, n - k)
    if k < 0:
        return 0
    if k < 64:
        from math import comb

        return comb(n, k)
    factors = []
    for p in _primes(n):
        exponent, a, b, c = 0, n, k, n - k
        while a:
            a, b, c = a // p, b // p, c // p
            exponent += a - b - c
        if exponent:
            factors.append(p**exponent)
    return _product(factors)


def _primes(n: int) -> list[int]:
    """The primes up to ``n`` (a sieve)."""
    sieve = bytearray([1]) * (n + 1)
    sieve[: min(2, n + 1)] = bytes(min(2, n + 1))
    for i in range(2, int(n**0.5) + 1):
        if sieve[i]:
            sieve[i * i :: i] = bytes(len(range(i * i, n + 1, i)))
    return [i for i, prime in enumerate(sieve) if prime]


def _product(numbers: Sequence[int]) -> int:
    """The product of ``numbers``, multiplied in pairs (balanced sizes: fast big numbers)."""
    layer = list(numbers) or [1]
    while len(layer) > 1:
        layer = [
            layer[i] * layer[i + 1] if i + 1 < len(layer) else layer[i]
            for i in range(0, len(layer), 2)
        ]
    return layer[0]


def _safest(result: Odds) -> Cell | None:
    """The first of the unknown cells least likely to hold a mine; ``None`` if every one is
    a mine."""
    if not result.mined or min(result.mined.values()) == result.placements:
        return None
    least = min(result.mined.values())
    return min(cell for cell, count in result.mined.items() if count == least)
