"""Endgame: the best play, exactly, when few placements of the mines remain.

A search over sets of placements (:func:`best_reveal`; :func:`search_placements` for any
cells and placements, which :mod:`.regions` searches one isolated region with), and the
placements of a position listed as masks (:func:`enumerate_placements`,
:func:`component_placements`).

Glossary
--------
placement
    One arrangement of the remaining mines on the unknown cells that agrees with every clue
    and the total; all are equally likely.
wins
    For a set of placements, how many of them a player can win from here with the best
    choice of reveals: the search maximises it, so ``wins / placements`` is the exact
    chance of winning with best play.
free reveal
    A cell that is safe in every placement left: revealing it costs nothing, and when its
    clue differs between placements it splits them; the sweep reveals such cells anyway.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from .. import core
from ..board import Cell, Geometry, PartialGrid
from ..solver import Constraint, Position

__all__ = [
    "NODES",
    "PLACEMENTS",
    "SMALL_BOARD",
    "SMALL_NODES",
    "Endgame",
    "best_reveal",
    "component_placements",
    "enumerate_placements",
    "nodes_for",
    "search_placements",
]

logger = logging.getLogger(__name__)

PLACEMENTS = 5000
"""Search only positions (or regions) with at most this many placements."""
NODES = 20_000
"""Give up (and let the heuristic choose) after this many distinct sets of placements: a
count, not a time, so that a game replays the same on any machine (under a second here)."""
SMALL_BOARD = 36
"""A board of at most this many cells (6x6) is searched with :data:`SMALL_NODES`."""
SMALL_NODES = 100_000
"""The budget on a small board (:func:`nodes_for`): a 4x5 stall of 1,680 placements needs
87,000 sets (half a second here), and a search that runs out costs at most about a second;
the standard levels, 8x8 and up, keep :data:`NODES`."""


def nodes_for(board: PartialGrid) -> int:
    """The endgame's budget of sets of placements on ``board``: :data:`SMALL_NODES` on a board
    of at most :data:`SMALL_BOARD` cells, :data:`NODES` on any larger one.

    Examples
    --------
    >>> nodes_for([[None] * 5] * 4), nodes_for([[None] * 9] * 9)
    (100000, 20000)
    """
    return SMALL_NODES if len(board) * len(board[0]) <= SMALL_BOARD else NODES


@dataclass(frozen=True)
class Endgame:
    """The reveal that wins most often, and how often it wins."""

    cell: Cell
    wins: int
    """How many of the placements best play wins, revealing :attr:`cell` first (in a region,
    over the whole board's placements: each of the region's counts as many times as the rest
    of the board can hold the mines it leaves)."""
    placements: int

    @property
    def chance(self) -> Fraction:
        """The exact chance of winning with best play from here (in a region: of clearing
        the region)."""
        return Fraction(self.wins, self.placements)


def best_reveal(
    position: Position,
    board: PartialGrid,
    mines_left: int,
    *,
    placements: int = PLACEMENTS,
    nodes: int = NODES,
) -> Endgame | None:
    """Search every sequence of reveals against every placement; the best first reveal.

    Parameters
    ----------
    position:
        A stall (no unknown cell is safe in every placement).
    board:
        The board as known (its shape, and the known mines beside each cell).
    mines_left:
        Mines not yet found.
    placements, nodes:
        The search runs only when the position has at most ``placements`` placements, and
        stops after ``nodes`` distinct sets of placements.

    Returns
    -------
    Endgame | None
        ``None`` when the position has too many placements, or none, or no cell to guess, or
        the search ran out of nodes.

    Examples
    --------
    ``1 * ? ? ?`` on one row, one mine left: on 2, 3 or 4. Revealing 3 shows 1 whether the
    mine is on 2 or on 4, and leaves a 50/50; revealing an end cell tells the other two
    apart, so it wins whenever it is safe: 2 times in 3.

    >>> from mineshafted.solver import Position
    >>> stall = Position([[1, -1, None, None, None]], [], [2, 3, 4], 1)
    >>> found = best_reveal(stall, [[1, -1, None, None, None]], 1)
    >>> found.cell in (2, 4), found.chance
    (True, Fraction(2, 3))

    Notes
    -----
    Cost: enumerating the placements, then a search over subsets of them, each a bit mask;
    a subset's wins are remembered, and a reveal whose safe placements cannot beat the best
    so far is skipped. Bounded by ``nodes`` subsets, each costing a pass over the unknown
    cells.
    """
    found = enumerate_placements(
        position.components, position.unconstrained, mines_left, placements
    )
    if found is None:
        return None
    return search_placements(position.unknown, found, board, nodes)


def search_placements(
    cells: Sequence[Cell],
    found: Sequence[int],
    board: PartialGrid,
    nodes: int,
    weights: dict[int, int] | None = None,
) -> Endgame | None:
    """The best first reveal of the placements ``found`` (masks over ``cells``, ascending),
    and its wins; ``weights`` gives a placement of ``k`` mines the weight ``weights[k]``
    (1 each unless given). ``None``: no cell to guess, or past ``nodes`` sets of placements.

    Examples
    --------
    A row of three cells and one mine: an end cell is safe 2 times in 3, and its clue then
    tells the other two apart.

    >>> search_placements([0, 1, 2], [0b001, 0b010, 0b100], [[None, None, None]], 100)
    Endgame(cell=0, wins=2, placements=3)
    """
    return _searched(_Layout.of(cells, found, board, weights), nodes)


def _searched(layout: _Layout, nodes: int) -> Endgame | None:
    """The best first reveal of ``layout``, or ``None`` (no cell to guess, or out of nodes)."""
    search = _Search(layout, nodes)
    try:
        cell, wins = search.root()
    except _OutOfNodes:
        logger.debug("endgame: over %d nodes on %d placements", nodes, len(layout.placements))
        return None
    if cell < 0:  # not a stall: no cell is a mine in some placements and not in others
        return None
    return Endgame(cell, wins, layout.weight(search.everything))


class _OutOfNodes(Exception):
    """The search reached its node budget."""


@dataclass(frozen=True)
class _Layout:
    """The unknown cells (bit ``i`` is ``cells[i]``) and every placement as a mask of mines,
    each weighed by its number of mines (1 each, unless given)."""

    cells: tuple[Cell, ...]
    placements: tuple[int, ...]
    mined: tuple[int, ...]
    """Per cell: the placements (bit ``j`` for placement ``j``) where it is a mine."""
    shows: tuple[tuple[int, ...], ...]
    """Per cell: for each clue value, the placements where it is safe and shows that value."""
    weights: tuple[tuple[int, int], ...]
    """The placements of each weight, as ``(mask, weight)``."""

    @classmethod
    def of(
        cls,
        cells: Sequence[Cell],
        found: Sequence[int],
        board: PartialGrid,
        weights: dict[int, int] | None = None,
    ) -> _Layout:
        """The layout of the placements ``found`` (masks over ``cells``); ``weights`` gives a
        placement of ``k`` mines the weight ``weights[k]``."""
        rows, cols = len(board), len(board[0])
        around = Geometry(rows, cols).neighbour_table()
        kernels = core.kernels
        compiled = None if kernels is None else kernels.layout(tuple(cells), tuple(found), around)
        mined, shows = _masks(cells, found, around) if compiled is None else compiled
        everything = (1 << len(found)) - 1
        if weights is None:
            classes: tuple[tuple[int, int], ...] = ((everything, 1),)
        else:
            masks: dict[int, int] = {}
            for j, placement in enumerate(found):
                k = placement.bit_count()
                masks[k] = masks.get(k, 0) | 1 << j
            classes = tuple((mask, weights[k]) for k, mask in sorted(masks.items()))
        return cls(tuple(cells), tuple(found), tuple(mined), tuple(shows), classes)

    def weight(self, subset: int) -> int:
        """The weight of the placements of ``subset``."""
        if len(self.weights) == 1:
            mask, weight = self.weights[0]
            return (subset & mask).bit_count() * weight
        return sum((subset & mask).bit_count() * weight for mask, weight in self.weights)


class _Search:
    """Wins of sets of placements, remembered, within a node budget."""

    def __init__(self, layout: _Layout, nodes: int) -> None:
        self.layout = layout
        self.nodes = nodes
        self.memo: dict[int, int] = {}
        self.everything = (1 << len(layout.placements)) - 1

    def root(self) -> tuple[Cell, int]:
        """The best first reveal of all placements (-1 if no cell is left to guess), and
        its wins."""
        layout, kernels = self.layout, core.kernels
        found = None
        if kernels is not None:  # the compiled form of this search (mineshafted.core)
            answer = kernels.endgame(
                layout.mined, layout.shows, layout.weights, len(layout.placements), self.nodes
            )
            if isinstance(answer, int):
                raise _OutOfNodes
            found = answer
        i, wins = self._best(self.everything) if found is None else found
        return (layout.cells[i] if i >= 0 else -1), wins

    def wins(self, subset: int) -> int:
        """How many placements of ``subset`` best play wins (weighed)."""
        if subset & (subset - 1) == 0:
            return self.layout.weight(subset)
        found = self.memo.get(subset)
        if found is not None:
            return found
        if len(self.memo) >= self.nodes:  # pragma: no mutate - the node budget's exact value
            raise _OutOfNodes
        layout = self.layout
        for i, mine in enumerate(layout.mined):
            if subset & mine == 0:
                parts = [subset & mask for mask in layout.shows[i] if subset & mask]
                if len(parts) > 1:
                    total = sum(self.wins(part) for part in parts)
                    self.memo[subset] = total
                    return total
        _, best = self._best(subset)
        self.memo[subset] = best
        return best

    def _best(self, subset: int) -> tuple[int, int]:
        """The cell (its index; -1 if none) whose reveal wins most of ``subset``, and how
        many: the safest first, and a cell whose safe placements cannot beat the best so far
        ends the scan."""
        best_i, best = -1, 0
        weight = self.layout.weight
        for i in self._by_safety(subset):
            if weight(subset & ~self.layout.mined[i]) <= best:
                break
            wins = self._reveal(i, subset, best)
            if wins > best:
                best_i, best = i, wins
        return best_i, best

    def _reveal(self, i: int, subset: int, floor: int) -> int:
        """Wins when cell ``i`` is revealed next (0 if it cannot beat ``floor``)."""
        weight = self.layout.weight
        parts = [subset & mask for mask in self.layout.shows[i] if subset & mask]
        sizes = [weight(part) for part in parts]
        room = sum(sizes)
        total = 0
        for part, size in zip(parts, sizes, strict=True):
            total += self.wins(part)
            room -= size
            if total + room <= floor:
                return 0
        return total

    def _by_safety(self, subset: int) -> list[int]:
        """The cells that are a mine in some placements of ``subset`` and not in others,
        safest first."""
        weight = self.layout.weight
        ranked: list[tuple[int, int]] = []
        for i, mine in enumerate(self.layout.mined):
            hit = subset & mine
            if hit and subset & ~mine:
                ranked.append((weight(hit), i))
        ranked.sort()
        return [i for _, i in ranked]


def _masks(
    cells: Sequence[Cell], found: Sequence[int], around: tuple[tuple[Cell, ...], ...]
) -> tuple[Sequence[int], Sequence[tuple[int, ...]]]:
    """:meth:`_Layout.of`'s ``mined`` and ``shows``: per cell, the placements where it is a
    mine, and for each clue it may show the placements where it is safe and shows it."""
    index = {cell: i for i, cell in enumerate(cells)}
    mined: list[int] = []
    shows: list[tuple[int, ...]] = []
    for cell in cells:
        # The known mines around a cell add the same to each of its clues: only the
        # unknown neighbours tell placements apart.
        near = 0
        for n in around[cell]:
            if n in index:
                near |= 1 << index[n]
        bit = 1 << index[cell]
        mine = 0
        by_value = [0] * 9
        for j, placement in enumerate(found):
            if placement & bit:
                mine |= 1 << j
            else:
                by_value[(placement & near).bit_count()] |= 1 << j
        mined.append(mine)
        shows.append(tuple(mask for mask in by_value if mask))
    return mined, shows


def enumerate_placements(
    components: Sequence[Sequence[Constraint]],
    free_cells: Sequence[Cell],
    mines: int | Sequence[int],
    limit: int | None,
) -> list[int] | None:
    """Every placement of ``mines`` mines (or of any of several numbers) as a mask over the
    components' cells, then ``free_cells``, in ascending cell order; ``None`` past
    ``limit`` (``None``: no limit). The endgame's and the optimal search's table's.

    Examples
    --------
    >>> enumerate_placements([[((0, 1), 1)]], [2], 1, 10)  # on 1 or on 0; none on 2
    [2, 1]
    """
    counts = [mines] if isinstance(mines, int) else list(mines)
    cells = sorted(
        {cell for component in components for scope, _ in component for cell in scope}
        | set(free_cells)
    )
    index = {cell: i for i, cell in enumerate(cells)}
    most = max(counts, default=-1)
    cap = None if limit is None else limit * 20
    by_component: list[dict[int, list[int]]] = []
    for component in components:
        found: dict[int, list[int]] = {}
        for size, (mask, count) in enumerate(component_placements(component, index)):
            found.setdefault(count, []).append(mask)
            if cap is not None and size >= cap:  # pragma: no mutate - a speed budget
                return None
        by_component.append(found)
    free = [1 << index[cell] for cell in free_cells]
    result: list[int] = []
    partial: list[tuple[int, int]] = [(0, 0)]
    for found in by_component:
        partial = [
            (mask | extra, used + count)
            for mask, used in partial
            for count, masks in found.items()
            if used + count <= most
            for extra in masks
        ]
        if cap is not None and len(partial) > cap:  # pragma: no mutate - a speed budget
            return None
    for mask, used in partial:
        for total in counts:
            rest = total - used
            if not 0 <= rest <= len(free):
                continue
            for chosen in combinations(free, rest):
                result.append(mask | sum(chosen))
                if limit is not None and len(result) > limit:
                    return None
    return result


def component_placements(
    component: Sequence[Constraint], index: dict[Cell, int]
) -> Iterator[tuple[int, int]]:
    """Every assignment of mines to the component's cells that meets each constraint: its
    mask (bit ``index[cell]`` a mine) and its number of mines.

    Examples
    --------
    >>> sorted(component_placements([((0, 1), 1)], {0: 0, 1: 1}))
    [(1, 1), (2, 1)]
    """
    cells = sorted({cell for scope, _ in component for cell in scope})
    holders: dict[Cell, list[int]] = {cell: [] for cell in cells}
    for k, (scope, _) in enumerate(component):
        for cell in scope:
            holders[cell].append(k)
    need = [mines for _, mines in component]
    room = [len(scope) for scope, _ in component]

    def place(at: int, mask: int, count: int) -> Iterator[tuple[int, int]]:
        if at == len(cells):
            yield mask, count
            return
        cell = cells[at]
        ks = holders[cell]
        for k in ks:
            room[k] -= 1
        if all(need[k] <= room[k] for k in ks):  # the cell safe
            yield from place(at + 1, mask, count)
        if all(need[k] > 0 for k in ks):  # the cell a mine
            for k in ks:
                need[k] -= 1
            if all(need[k] <= room[k] for k in ks):
                yield from place(at + 1, mask | 1 << index[cell], count + 1)
            for k in ks:
                need[k] += 1
        for k in ks:
            room[k] += 1

    yield from place(0, 0, 0)
