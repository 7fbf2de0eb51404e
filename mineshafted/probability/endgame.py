"""Endgame: the best play, exactly, when few placements of the mines remain.

Glossary
--------
placement
    One arrangement of the remaining mines on the unknown cells that agrees with every clue
    and the total; all are equally likely.
wins
    For a set of placements, how many of them a player can win from here with the best
    choice of reveals: the search below maximises it, so ``wins / placements`` is the exact
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

from ..board import Cell, Geometry, PartialGrid
from ..solver import Constraint, Position

__all__ = ["Endgame", "best_reveal"]

logger = logging.getLogger(__name__)

PLACEMENTS = 750
"""Search only positions with at most this many placements."""
NODES = 20_000
"""Give up (and let the heuristic choose) after this many distinct sets of placements."""


@dataclass(frozen=True)
class Endgame:
    """The reveal that wins most often, and how often it wins."""

    cell: Cell
    wins: int
    """How many of the placements best play wins, revealing :attr:`cell` first."""
    placements: int

    @property
    def chance(self) -> Fraction:
        """The exact chance of winning with best play from here."""
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
    layout = _Layout.of(position, board, mines_left, limit=placements)
    if layout is None:
        return None
    search = _Search(layout, nodes)
    try:
        cell, wins = search.root()
    except _OutOfNodes:
        logger.debug("endgame: over %d nodes on %d placements", nodes, len(layout.placements))
        return None
    if cell < 0:  # not a stall: no cell is a mine in some placements and not in others
        return None
    return Endgame(cell, wins, len(layout.placements))


class _OutOfNodes(Exception):
    """The search reached its node budget."""


@dataclass(frozen=True)
class _Layout:
    """The unknown cells (bit ``i`` is ``cells[i]``) and every placement as a mask of mines."""

    cells: tuple[Cell, ...]
    placements: tuple[int, ...]
    mined: tuple[int, ...]
    """Per cell: the placements (bit ``j`` for placement ``j``) where it is a mine."""
    shows: tuple[tuple[int, ...], ...]
    """Per cell: for each clue value, the placements where it is safe and shows that value."""

    @classmethod
    def of(
        cls, position: Position, board: PartialGrid, mines_left: int, *, limit: int
    ) -> _Layout | None:
        """The layout of ``position``, or ``None`` past ``limit`` placements."""
        cells = tuple(position.unknown)
        index = {cell: i for i, cell in enumerate(cells)}
        found = _enumerate(position, index, mines_left, limit)
        if found is None:
            return None
        rows, cols = len(board), len(board[0])
        around = Geometry(rows, cols).neighbour_table()
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
        return cls(cells, tuple(found), tuple(mined), tuple(shows))


class _Search:
    """Wins of sets of placements, remembered, within a node budget."""

    def __init__(self, layout: _Layout, nodes: int) -> None:
        self.layout = layout
        self.nodes = nodes
        self.memo: dict[int, int] = {}

    def root(self) -> tuple[Cell, int]:
        """The best first reveal of all placements (-1 if no cell is left to guess), and
        its wins."""
        i, wins = self._best((1 << len(self.layout.placements)) - 1)
        return (self.layout.cells[i] if i >= 0 else -1), wins

    def wins(self, subset: int) -> int:
        """How many placements of ``subset`` best play wins."""
        if subset & (subset - 1) == 0:
            return 1
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
        for i in self._by_safety(subset):
            if (subset & ~self.layout.mined[i]).bit_count() <= best:
                break
            wins = self._reveal(i, subset, best)
            if wins > best:
                best_i, best = i, wins
        return best_i, best

    def _reveal(self, i: int, subset: int, floor: int) -> int:
        """Wins when cell ``i`` is revealed next (0 if it cannot beat ``floor``)."""
        parts = [subset & mask for mask in self.layout.shows[i] if subset & mask]
        room = sum(part.bit_count() for part in parts)
        total = 0
        for part in parts:
            size = part.bit_count()
            total += self.wins(part)
            room -= size
            if total + room <= floor:
                return 0
        return total

    def _by_safety(self, subset: int) -> list[int]:
        """The cells that are a mine in some placements of ``subset`` and not in others,
        safest first."""
        ranked: list[tuple[int, int]] = []
        for i, mine in enumerate(self.layout.mined):
            hit = (subset & mine).bit_count()
            if hit > 0 and subset & ~mine:
                ranked.append((hit, i))
        ranked.sort()
        return [i for _, i in ranked]


def _enumerate(
    position: Position, index: dict[Cell, int], mines_left: int, limit: int
) -> list[int] | None:
    """Every placement of ``mines_left`` mines as a mask over ``index``; ``None`` past
    ``limit``."""
    by_component: list[dict[int, list[int]]] = []
    for component in position.components:
        found: dict[int, list[int]] = {}
        for size, (mask, count) in enumerate(_component_placements(component, index)):
            found.setdefault(count, []).append(mask)
            if size >= limit * 20:  # pragma: no mutate - a speed budget: its exact value
                return None
        by_component.append(found)
    free = [1 << index[cell] for cell in position.unconstrained]
    result: list[int] = []
    partial: list[tuple[int, int]] = [(0, 0)]
    for found in by_component:
        partial = [
            (mask | extra, used + count)
            for mask, used in partial
            for count, masks in found.items()
            if used + count <= mines_left
            for extra in masks
        ]
        if len(partial) > limit * 20:  # pragma: no mutate - a speed budget: its exact value
            return None
    for mask, used in partial:
        rest = mines_left - used
        if rest > len(free):
            continue
        for chosen in combinations(free, rest):
            result.append(mask | sum(chosen))
            if len(result) > limit:
                return None
    return result


def _component_placements(
    component: Sequence[Constraint], index: dict[Cell, int]
) -> Iterator[tuple[int, int]]:
    """Every assignment of mines to the component's cells that meets each constraint: its
    mask and its number of mines."""
    cells = sorted({cell for scope, _ in component for cell in scope})
    watching: dict[Cell, list[int]] = {cell: [] for cell in cells}
    for k, (scope, _) in enumerate(component):
        for cell in scope:
            watching[cell].append(k)
    need = [mines for _, mines in component]
    room = [len(scope) for scope, _ in component]

    def place(at: int, mask: int, count: int) -> Iterator[tuple[int, int]]:
        if at == len(cells):
            yield mask, count
            return
        cell = cells[at]
        ks = watching[cell]
        for room_k in ks:
            room[room_k] -= 1
        if all(need[k] <= room[k] for k in ks):  # the cell safe
            yield from place(at + 1, mask, count)
        if all(need[k] > 0 for k in ks):  # the cell a mine
            for k in ks:
                need[k] -= 1
            if all(need[k] <= room[k] for k in ks):
                yield from place(at + 1, mask | 1 << index[cell], count + 1)
            for k in ks:
                need[k] += 1
        for room_k in ks:
            room[room_k] += 1

    yield from place(0, 0, 0)
