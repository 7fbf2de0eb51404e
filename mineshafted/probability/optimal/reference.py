"""Reference: best play found by plain search over the placements, to check the fast search.

Nothing here is shared with :mod:`.search`: the rules are played as a game plays them (a
reveal of a mine loses, a 0 opens its neighbours, the game is won when every safe cell is
revealed), the placements are sets of mined cells, and the only shortcut is remembering a
position once searched. It is exponential in the board, fine up to about 12 cells.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from ...board import Cell, Geometry

__all__ = ["PlainSearch"]

Layout = frozenset[Cell]
"""One placement: the set of mined cells."""


class PlainSearch:
    """Best play on a fresh ``rows`` x ``cols`` board with ``mines`` mines, by expectimax.

    Examples
    --------
    >>> plain = PlainSearch(3, 3, 2)
    >>> plain.first_reveal(1), plain.first_reveal(4)
    (24, 17)
    >>> plain.opening(0), plain.opening(1)
    (9, 3)
    """

    def __init__(self, rows: int, cols: int, mines: int) -> None:
        self.geometry = Geometry(rows, cols)
        self.mines = mines
        cells = range(self.geometry.cells)
        self.layouts = [frozenset(chosen) for chosen in combinations(cells, mines)]
        self.remembered: dict[tuple[frozenset[Cell], frozenset[Layout]], int] = {}

    def first_reveal(self, cell: Cell) -> int:
        """How many placements best play wins with the first reveal at ``cell`` (a mine there
        loses)."""
        return self.after(cell, frozenset(), self.layouts)

    def opening(self, cell: Cell) -> int:
        """How many of the placements that keep ``cell`` and its neighbours clear best play
        wins from a first reveal at ``cell``."""
        zone = {cell, *self.geometry.neighbours(cell)}
        clear = [layout for layout in self.layouts if not layout & zone]
        return self.after(cell, frozenset(), clear)

    def wins(self, revealed: frozenset[Cell], layouts: frozenset[Layout]) -> int:
        """How many of ``layouts`` (all showing the ``revealed`` cells alike) best play wins."""
        if len(revealed) == self.geometry.cells - self.mines:
            return len(layouts)  # every safe cell is revealed: won
        key = (revealed, layouts)
        if key not in self.remembered:
            self.remembered[key] = max(
                self.after(cell, revealed, layouts)
                for cell in range(self.geometry.cells)
                if cell not in revealed
            )
        return self.remembered[key]

    def after(self, cell: Cell, revealed: frozenset[Cell], layouts: Iterable[Layout]) -> int:
        """How many of ``layouts`` best play wins by revealing ``cell`` next: those where it is
        safe, grouped by what the reveal shows, each group played on."""
        groups: dict[frozenset[tuple[Cell, int]], set[Layout]] = {}
        for layout in layouts:
            if cell in layout:
                continue  # the reveal is of a mine: lost
            shown = self.reveal(cell, layout, revealed)
            groups.setdefault(frozenset(shown.items()), set()).add(layout)
        return sum(
            self.wins(revealed | {c for c, _ in seen}, frozenset(group))
            for seen, group in groups.items()
        )

    def reveal(self, cell: Cell, layout: Layout, revealed: frozenset[Cell]) -> dict[Cell, int]:
        """What revealing the safe ``cell`` shows in ``layout``: each newly revealed cell and
        its clue, a 0 opening its neighbours."""
        shown: dict[Cell, int] = {}
        todo = [cell]
        while todo:
            here = todo.pop()
            if here in shown or here in revealed:
                continue
            around = self.geometry.neighbours(here)
            shown[here] = sum(1 for n in around if n in layout)
            if shown[here] == 0:
                todo.extend(around)
        return shown
