"""Endgame: the best play, exactly, when few placements of the mines remain, or in a region.

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
isolated region
    Unknown cells that nothing links to the other unknown cells: no clue sees both, and no
    cell of the region touches an unknown cell outside it. Revealing a cell of the region
    tells nothing about the rest of the board, nor the other way round, but through the
    mine total: its placements are weighed by how many ways the rest can hold the mines
    they leave over.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb

from ..board import Cell, Geometry, PartialGrid
from ..solver import Constraint, Position, weighed

__all__ = [
    "NODES",
    "PLACEMENTS",
    "REGION_NODES",
    "SMALL_BOARD",
    "SMALL_NODES",
    "Endgame",
    "best_reveal",
    "component_placements",
    "nodes_for",
    "region_reveal",
    "regions",
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
REGION_NODES = 10_000
"""The budget of a region's search: regions are searched at every stall where they stand
apart, so theirs is smaller."""


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
    found = _enumerate(position.components, position.unconstrained, mines_left, placements)
    if found is None:
        return None
    layout = _Layout.of(position.unknown, found, board)
    return _searched(layout, nodes)


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
        A stall, as :func:`best_reveal`'s.
    fixed:
        Only a region whose every placement has the same number of mines: it is then a game
        of its own, independent of the rest, so its best reveal is part of best play of the
        whole board, whenever it is made.
    within:
        Only the region of this cell.
    among:
        The position's :func:`regions`, if already found.
    placements, nodes:
        As :func:`best_reveal`'s, for the region.

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
            poly = _convolve(poly, weighed(tuple(component)).placements)
        counts = [k for k, n in enumerate(poly) if n and k <= mines_left and rest[k]]
        if not counts or (fixed and len(counts) > 1) or sum(poly[k] for k in counts) > placements:
            continue
        found = _enumerate(own, loose, counts, placements)
        if not found:
            continue
        weights = tuple((k, rest[k]) for k in counts)
        size = (len(board), len(board[0]))
        result = _region_searched(size, tuple(region), tuple(found), weights, nodes)
        if result is not None:
            return result
    return None


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
    return _searched(_Layout.of(region, found, board, dict(weights)), nodes)


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
    scopes: dict[Cell, list[tuple[Cell, ...]]] = {}
    for component in position.components:
        for scope, _ in component:
            for cell in scope:
                scopes.setdefault(cell, []).append(scope)
    around = Geometry(len(board), len(board[0])).neighbour_table()
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


def _rest(position: Position, inside: set[Cell], mines_left: int) -> list[int]:
    """For each number of mines ``k`` up to ``mines_left``, how many ways the unknown cells
    outside ``inside`` can hold ``mines_left - k`` mines and agree with their clues."""
    poly: list[int] = [1]
    for component in position.components:
        if component[0][0][0] not in inside:
            poly = _convolve(poly, weighed(tuple(component)).placements)
    free = sum(1 for cell in position.unconstrained if cell not in inside)
    poly = _convolve(poly, [comb(free, j) for j in range(free + 1)])
    return [
        poly[mines_left - k] if 0 <= mines_left - k < len(poly) else 0
        for k in range(mines_left + 1)
    ]


def _convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """Two disjoint parts' placements together, by number of mines."""
    product = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            product[i + j] += x * y
    return product


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
        i, wins = self._best(self.everything)
        return (self.layout.cells[i] if i >= 0 else -1), wins

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


def _enumerate(
    components: Sequence[Sequence[Constraint]],
    free_cells: Sequence[Cell],
    mines: int | Sequence[int],
    limit: int,
) -> list[int] | None:
    """Every placement of ``mines`` mines (or of any of several numbers) as a mask over the
    components' cells, then ``free_cells``, in ascending cell order; ``None`` past
    ``limit``."""
    counts = [mines] if isinstance(mines, int) else list(mines)
    cells = sorted(
        {cell for component in components for scope, _ in component for cell in scope}
        | set(free_cells)
    )
    index = {cell: i for i, cell in enumerate(cells)}
    most = max(counts, default=-1)
    by_component: list[dict[int, list[int]]] = []
    for component in components:
        found: dict[int, list[int]] = {}
        for size, (mask, count) in enumerate(component_placements(component, index)):
            found.setdefault(count, []).append(mask)
            if size >= limit * 20:  # pragma: no mutate - a speed budget: its exact value
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
        if len(partial) > limit * 20:  # pragma: no mutate - a speed budget: its exact value
            return None
    for mask, used in partial:
        for total in counts:
            rest = total - used
            if not 0 <= rest <= len(free):
                continue
            for chosen in combinations(free, rest):
                result.append(mask | sum(chosen))
                if len(result) > limit:
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
