"""Fifty-fifties, now and to come: the pairs of cells no clue will ever tell apart (the live
page marks them at a stall).

Glossary
--------
fifty-fifty
    Two unknown cells side by side holding one mine between them that no other cell can
    ever tell apart: every cell beside only one of them (its *flank*) is a mine or off the
    board. A player who wants to win must guess one of them, at even odds, some time.
fifty-fifty to come
    Two unknown cells side by side whose flank holds no revealed cell and at most
    :data:`MISSING` unknown cells that are not known mines: in the placements that put a
    mine on one of the two, none on the other and mines on those flank cells, the two
    form a fifty-fifty.

The policy ingredients once built on these (``pseudo``, ``longterm``: a guess's influence on
the fifty-fifties to come) won nothing measurable and left the library (their code is in
commit ``5000a9a``; their figures in the benchmarks page).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..board import Cell, Geometry, PartialGrid
from ..errors import NoPlacementError
from ..solver import Constraint, Position, combine, components, weighed
from .odds import Odds

__all__ = ["MISSING", "Coming", "coming", "fifty_fifty", "placements_given"]

MISSING = 1
"""A pair is a fifty-fifty to come only if at most this many of its flank's cells are unknown
(and not known mines): each must be a mine for the fifty-fifty to form."""


@dataclass(frozen=True)
class Coming:
    """A fifty-fifty to come: ``first`` and ``second`` side by side, ``flank`` the unknown
    cells beside only one of them that must be mines, and ``placements`` how many
    placements put the mine on ``first`` (as many put it on ``second``: no clue tells the
    two apart)."""

    first: Cell
    second: Cell
    flank: tuple[Cell, ...]
    placements: int


def coming(position: Position, odds: Odds, board: PartialGrid) -> Iterator[Coming]:
    """Every fifty-fifty to come of the position that some placement forms.

    Examples
    --------
    The top row ``? ? *`` over ``1 3 *`` with three mines in all (two known): the two unknown
    cells hold one mine, and the flank on the right is known mines, on the left off the
    board, so they are a fifty-fifty now.

    >>> board = [[None, None, -1], [1, 3, -1]]
    >>> stall = Position(board, [[((0, 1), 1)]], [], 2)
    >>> from mineshafted.probability import odds
    >>> [(c.first, c.second, c.flank, c.placements) for c in coming(stall, odds(stall, 3), board)]
    [(0, 1, (), 1)]
    """
    rows, cols = len(board), len(board[0])
    for r in range(rows):
        for c in range(cols):
            first = r * cols + c
            if first not in odds.mined:
                continue
            for dr, dc in ((0, 1), (1, 0)):
                r2, c2 = r + dr, c + dc
                if r2 >= rows or c2 >= cols or r2 * cols + c2 not in odds.mined:
                    continue
                flank = _flank(board, r, c, dr, dc)
                if flank is None or len(flank) > MISSING:
                    continue
                second = r2 * cols + c2
                found = placements_given(position, odds.mines_left, (first, *flank), (second,))
                if found:
                    yield Coming(first, second, flank, found)


def placements_given(
    position: Position, mines_left: int, mines: tuple[Cell, ...], safe: tuple[Cell, ...]
) -> int:
    """How many placements of the position put mines on every cell of ``mines`` and none on
    those of ``safe`` (0 if none does).

    The components those cells are in are counted anew with the cells fixed; the others'
    counts are reused.

    Examples
    --------
    >>> stall = Position([[None, None, None]], [[((0, 1), 1)]], [2], 0)
    >>> placements_given(stall, 1, (0,), ()), placements_given(stall, 1, (), (0, 1))
    (1, 0)
    """
    fixed: dict[Cell, int] = {cell: 1 for cell in mines}
    fixed.update((cell, 0) for cell in safe)
    kept: list[tuple[Constraint, ...]] = []
    touched: list[Constraint] = [((cell,), value) for cell, value in fixed.items()]
    for component in position.components:
        if any(cell in fixed for scope, _ in component for cell in scope):
            touched.extend(component)
        else:
            kept.append(tuple(component))
    counts = [weighed(component) for component in kept]
    counts.extend(weighed(tuple(part)) for part in components(touched))
    free = [cell for cell in position.unconstrained if cell not in fixed]
    try:
        return combine(counts, free, mines_left).placements
    except NoPlacementError:
        return 0


def _flank(board: PartialGrid, r: int, c: int, dr: int, dc: int) -> tuple[Cell, ...] | None:
    """The unknown cells (not known mines) beside only one of the pair at ``(r, c)`` and the
    next cell along ``(dr, dc)``; ``None`` if one of them is revealed."""
    rows, cols = len(board), len(board[0])
    if dc:  # side by side in a row: the columns left and right of the pair
        spots = [(r + k, c + j) for j in (-1, 2) for k in (-1, 0, 1)]
    else:  # one above the other: the rows above and below
        spots = [(r + j, c + k) for j in (-1, 2) for k in (-1, 0, 1)]
    unknown: list[Cell] = []
    for rr, cc in spots:
        if not (0 <= rr < rows and 0 <= cc < cols):
            continue
        value = board[rr][cc]
        if value is None:
            unknown.append(rr * cols + cc)
        elif value != -1:
            return None
    return tuple(unknown)


def fifty_fifty(position: Position, board: PartialGrid) -> Cell | None:
    """A cell of an unavoidable 50/50, if the position has one: two cells holding exactly
    one mine that no cell can ever tell apart, because every other neighbour of only one of
    them is a known mine or off the board. The least such cell, whatever the order of the
    position's constraints (the ``fifty`` ingredient of the ``best`` policy guesses it).

    Examples
    --------
    >>> from mineshafted.solver import Position
    >>> board = [[None, None], [-1, -1]]  # a mine on 0 or 1: the row below tells nothing
    >>> fifty_fifty(Position(board, [[((0, 1), 1)]], [], 1), board)
    0
    """
    rows, cols = len(board), len(board[0])
    neighbours = Geometry(rows, cols).neighbour_table()
    found: Cell | None = None
    for component in position.components:
        for scope, mines in component:
            if len(scope) != 2 or mines != 1:
                continue
            a, b = sorted(scope)
            only = set(neighbours[a]) ^ set(neighbours[b])
            only.discard(a)
            only.discard(b)
            if all(board[n // cols][n % cols] == -1 for n in only):
                found = a if found is None else min(found, a)
    return found
