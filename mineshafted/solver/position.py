"""A position at a stall: what the clues still say, by component, for counting and guessing.

Glossary
--------
constraint
    ``(cells, mines)``: exactly ``mines`` mines among the unknown ``cells`` (one explored clue
    less what is already decided around it).
component
    Constraints linked by shared cells: the unit that can be counted on its own.
unconstrained
    Unknown cells that no explored clue sees.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .. import core
from ..board import Cell, PartialGrid

__all__ = ["Constraint", "Position", "components"]

Constraint = tuple[tuple[Cell, ...], int]
"""Exactly ``mines`` mines among ``cells``: ``(cells, mines)``."""


@dataclass(frozen=True)
class Position:
    """Everything a counter of placements needs to know about a stalled sweep.

    Every unknown cell is either in some constraint of :attr:`components` or in
    :attr:`unconstrained`, never both.
    """

    board: PartialGrid
    """The board as known: clues, ``-1`` for proven mines, ``None`` for unknown cells."""
    components: list[list[Constraint]]
    """The clue constraints over unknown cells, grouped into independent components."""
    unconstrained: list[Cell]
    """Unknown cells that no explored clue sees, ascending."""
    mines_found: int
    """How many cells are proven mines."""

    @property
    def unknown(self) -> list[Cell]:
        """Every unknown cell, ascending."""
        cells = set(self.unconstrained)
        for component in self.components:
            for scope, _ in component:
                cells.update(scope)
        return sorted(cells)


def components(constraints: Iterable[Constraint]) -> Iterator[list[Constraint]]:
    """Yield the constraints grouped into components: linked when they share a cell.

    Examples
    --------
    >>> list(components([((1, 2), 1), ((5,), 1), ((2, 3), 1)]))
    [[((1, 2), 1), ((2, 3), 1)], [((5,), 1)]]

    Notes
    -----
    Union-find over the cells, ``O(total cells)`` (amortised); components come in the order
    of their first constraint. Compiled (:mod:`mineshafted.core`): the same groups in C; the
    body below is its specification.
    """
    listed = list(constraints)
    kernels = core.kernels
    found = None if kernels is None else kernels.components(listed)
    if found is not None:
        yield from found
        return
    parent: dict[Cell, Cell] = {}
    for scope, _ in listed:
        root = _find(parent, scope[0])
        for cell in scope[1:]:
            other = _find(parent, cell)
            if other != root:
                parent[other] = root
    groups: dict[Cell, list[Constraint]] = {}
    for item in listed:
        groups.setdefault(_find(parent, item[0][0]), []).append(item)
    yield from groups.values()


def _find(parent: dict[Cell, Cell], cell: Cell) -> Cell:
    """The root of ``cell``'s set, halving the path on the way."""
    parent.setdefault(cell, cell)
    while parent[cell] != cell:
        parent[cell] = parent[parent[cell]]
        cell = parent[cell]
    return cell
