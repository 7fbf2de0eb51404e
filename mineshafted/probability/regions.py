"""Regions: unknown cells apart from the rest of the board, and best play inside one.

Glossary
--------
isolated region
    Unknown cells that nothing links to the other unknown cells: no clue sees both, and no
    cell of the region touches an unknown cell outside it. Revealing a cell of the region
    tells nothing about the rest of the board, nor the other way round, but through the
    mine total: its placements are weighed by how many ways the rest can hold the mines
    they leave over.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import comb

from .. import core
from ..board import Cell, Geometry, PartialGrid
from ..solver import Position, weighed
from ..solver.weights import convolve
from .endgame import PLACEMENTS, Endgame, enumerate_placements, search_placements

__all__ = ["REGION_NODES", "region_reveal", "regions"]

REGION_NODES = 10_000
"""The budget of a region's search: regions are searched at every stall where they stand
apart, so theirs is smaller."""


def region_reveal(
    position: Position,
    board: PartialGrid,
    mines_left: int,
    *,
    fixed: bool = True,
    within: Cell | None = None,
    among: Sequence[Sequence[Cell]] | None = None,
    placements: int = PLACEMENTS,
    nodes: int = REGION_NODES,
) -> Endgame | None:
    """Best play in an isolated region: its best first reveal, its placements weighed by
    what the rest of the board can hold.

    Parameters
    ----------
    position, board, mines_left:
        A stall, as :func:`~.endgame.best_reveal`'s.
    fixed:
        Only a region whose every placement has the same number of mines: it is then a game
        of its own, independent of the rest, so its best reveal is part of best play of the
        whole board, whenever it is made.
    within:
        Only the region of this cell.
    among:
        The position's :func:`regions`, if already found.
    placements, nodes:
        As :func:`~.endgame.best_reveal`'s, for the region.

    Returns
    -------
    Endgame | None
        The first such region's (in the order of its least cell) that the search finishes;
        ``None`` when there is none.

    Examples
    --------
    Two pockets behind walls of 1s, each with one mine by the wall (on 1 or 8, on 5 or 12)
    and two cells no clue sees. With two mines each pocket holds one: a game of its own, a
    50/50. With four, the pockets share the two others, and a pocket's placements count as
    many times as the other pocket can take the mines they leave.

    >>> view = [[None, None, 1, 0, 1, None, None], [None, None, 1, 0, 1, None, None]]
    >>> from mineshafted.probability.view import position_of
    >>> region_reveal(position_of(view), view, 2)
    Endgame(cell=1, wins=2, placements=4)
    >>> region_reveal(position_of(view), view, 4) is None  # no pocket's count is fixed
    True
    >>> region_reveal(position_of(view), view, 4, fixed=False, within=0)
    Endgame(cell=1, wins=8, placements=24)
    """
    unknown = position.unknown
    for region in regions(position, board) if among is None else among:
        if len(region) == len(unknown) or (within is not None and within not in region):
            continue
        inside = set(region)
        own = [c for c in position.components if c[0][0][0] in inside]
        loose = [cell for cell in position.unconstrained if cell in inside]
        rest = _rest(position, inside, mines_left)
        poly: list[int] = [comb(len(loose), j) for j in range(len(loose) + 1)]
        for component in own:
            poly = convolve(poly, weighed(tuple(component)).placements)
        counts = [k for k, n in enumerate(poly) if n and k <= mines_left and rest[k]]
        if not counts or (fixed and len(counts) > 1) or sum(poly[k] for k in counts) > placements:
            continue
        found = enumerate_placements(own, loose, counts, placements)
        if not found:
            continue
        weights = tuple((k, rest[k]) for k in counts)
        size = (len(board), len(board[0]))
        result = _region_searched(size, tuple(region), tuple(found), weights, nodes)
        if result is not None:
            return result
    return None


def regions(position: Position, board: PartialGrid) -> list[list[Cell]]:
    """The unknown cells in isolated regions, each region ascending, in the order of their
    least cell: cells are linked when a clue sees both or they touch.

    Examples
    --------
    >>> from mineshafted.solver import Position
    >>> regions(Position([[None, 1, None]], [[((0, 2), 1)]], [], 0), [[None, 1, None]])
    [[0, 2]]

    Notes
    -----
    A search from each cell not yet reached, over its unknown neighbours and the cells of
    the constraints it is in: ``O(unknown cells x 8 + constraints' cells)``.
    """
    cells = position.unknown
    around = Geometry(len(board), len(board[0])).neighbour_table()
    kernels = core.kernels
    if kernels is not None:  # the compiled form (mineshafted.core)
        compiled = kernels.regions(cells, around, position.components)
        if compiled is not None:
            return compiled
    scopes: dict[Cell, list[tuple[Cell, ...]]] = {}
    for component in position.components:
        for scope, _ in component:
            for cell in scope:
                scopes.setdefault(cell, []).append(scope)
    unknown = set(cells)
    found: list[list[Cell]] = []
    for start in cells:
        if start not in unknown:
            continue
        unknown.discard(start)
        region = [start]
        todo = [start]
        while todo:
            cell = todo.pop()
            for n in around[cell]:
                if n in unknown:
                    unknown.discard(n)
                    region.append(n)
                    todo.append(n)
            for scope in scopes.get(cell, ()):
                for n in scope:
                    if n in unknown:
                        unknown.discard(n)
                        region.append(n)
                        todo.append(n)
        found.append(sorted(region))
    return found


@lru_cache(maxsize=256)
def _region_searched(
    size: tuple[int, int],
    region: tuple[Cell, ...],
    found: tuple[int, ...],
    weights: tuple[tuple[int, int], ...],
    nodes: int,
) -> Endgame | None:
    """The best first reveal of a region's placements, remembered: a region no guess has
    touched is met again at the next stall, the same search on the same placements (only
    the weights of a region whose count varies change), and a search out of nodes would
    run out again."""
    rows, cols = size
    board: PartialGrid = [[None] * cols for _ in range(rows)]  # its shape is all that is read
    return search_placements(region, found, board, nodes, dict(weights))


def _rest(position: Position, inside: set[Cell], mines_left: int) -> list[int]:
    """For each number of mines ``k`` up to ``mines_left``, how many ways the unknown cells
    outside ``inside`` can hold ``mines_left - k`` mines and agree with their clues."""
    poly: list[int] = [1]
    for component in position.components:
        if component[0][0][0] not in inside:
            poly = convolve(poly, weighed(tuple(component)).placements)
    free = sum(1 for cell in position.unconstrained if cell not in inside)
    poly = convolve(poly, [comb(free, j) for j in range(free + 1)])
    return [
        poly[mines_left - k] if 0 <= mines_left - k < len(poly) else 0
        for k in range(mines_left + 1)
    ]
