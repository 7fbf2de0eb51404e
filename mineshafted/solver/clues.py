"""Clue constraints: what each revealed clue says about its unknown neighbours, built once.

Every part of the package that reads clues off a grid builds them here: the sweep at a stall
(:meth:`~.sweep.Sweep.position`), a player's grid made a position
(:func:`~mineshafted.probability.position_of`), the ladder's rungs (:mod:`.ladder`,
:mod:`.plain`) and the explanations of the live environment.

Glossary
--------
clue constraint
    A revealed clue with unknown neighbours, as ``(cell, cells, mines)``: the clue's cell, its
    unknown neighbours and how many mines they hold (the clue less the known mines around it).
    Without its cell it is a :data:`~.position.Constraint`.
clues
    What the revealed clues say at one moment: every clue constraint, the unknown cells, and
    the mines left when the mine total is known. The input of every rung of the ladder.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..board import MINE, Cell, Geometry, PartialGrid
from ..errors import ContradictionError, NoPlacementError, Why
from .position import Constraint, Position, components

__all__ = [
    "TABLE_CELLS",
    "ClueConstraint",
    "Clues",
    "clue_constraint",
    "clues_of",
    "constraint_of",
    "position_from",
]

TABLE_CELLS = 40_000
"""Up to this many cells, :func:`clues_of` uses the geometry's shared neighbour table; above
it, it finds only the clues' neighbours (building a table of a million cells takes seconds)."""


class ClueConstraint(NamedTuple):
    """A revealed clue's constraint: exactly ``mines`` mines among its unknown ``cells``.

    Examples
    --------
    >>> clue = ClueConstraint(4, (2, 5, 8), 2)
    >>> clue.constraint
    ((2, 5, 8), 2)
    """

    cell: Cell
    """The clue's cell."""
    cells: tuple[Cell, ...]
    """Its unknown neighbours, in the order its neighbours are listed."""
    mines: int
    """The mines among them: the clue less the known mines around it."""

    @property
    def constraint(self) -> tuple[tuple[Cell, ...], int]:
        """``(cells, mines)``, without the clue's cell."""
        return self.cells, self.mines


@dataclass(frozen=True)
class Clues:
    """What the revealed clues say: their constraints, the unknown cells, the mines left.

    Examples
    --------
    >>> clues = clues_of([[1, None], [None, -1]], mines=1)
    >>> clues.constraints, clues.unknown, clues.mines_left
    ((ClueConstraint(cell=0, cells=(1, 2), mines=0),), (1, 2), 0)
    >>> clues.reduced({1: False}).constraints
    (ClueConstraint(cell=0, cells=(2,), mines=0),)
    """

    constraints: tuple[ClueConstraint, ...]
    """Every revealed clue with an unknown neighbour, by cell."""
    unknown: tuple[Cell, ...]
    """Every unknown cell, ascending."""
    mines_left: int | None = None
    """The mine total less the known mines; ``None`` when the total is not known."""

    def reduced(self, facts: dict[Cell, bool]) -> Clues:
        """These clues once the cells of ``facts`` (cell -> is a mine) are known: each
        constraint over its cells still unknown (a constraint left with none is dropped).

        Raises
        ------
        ContradictionError
            A clue whose cells are all known has the wrong number of mines among them.
        """
        if not facts:
            return self
        kept = []
        for clue in self.constraints:
            cells = tuple(c for c in clue.cells if c not in facts)
            mines = clue.mines - sum(facts[c] for c in clue.cells if c in facts)
            if cells:
                kept.append(ClueConstraint(clue.cell, cells, mines))
            elif mines:
                raise ContradictionError(
                    f"the clue at cell {clue.cell} cannot hold", cells=[clue.cell]
                )
        left = self.mines_left
        if left is not None:
            left -= sum(facts.values())
        unknown = tuple(c for c in self.unknown if c not in facts)
        return Clues(tuple(kept), unknown, left)

    def only(self, constraints: Iterable[ClueConstraint]) -> Clues:
        """The same unknown cells and mines left, with only ``constraints`` said."""
        return Clues(tuple(constraints), self.unknown, self.mines_left)


def constraint_of(values: Sequence[int | None], cell: Cell, around: Iterable[Cell]) -> Constraint:
    """The clue at ``cell`` as a constraint: its unknown neighbours and the mines among them.

    ``values`` is the board as known, row-major (a clue, ``MINE`` or ``None`` for an unknown
    cell); ``around`` lists the cell's neighbours. The one place a clue's constraint is worked
    out: :func:`clue_constraint` and :func:`clues_of` build on it, and the sweep asks it at a
    stall.

    Examples
    --------
    >>> constraint_of([1, None, -1, 2], 3, (0, 1, 2))
    ((1,), 1)
    """
    value = values[cell]
    assert value is not None and value != MINE, f"cell {cell} holds no clue"
    unknown = []
    for n in around:
        seen = values[n]
        if seen is None:
            unknown.append(n)
        elif seen == MINE:
            value -= 1
    return tuple(unknown), value


def clue_constraint(
    values: Sequence[int | None], cell: Cell, around: Iterable[Cell]
) -> ClueConstraint:
    """:func:`constraint_of`, with the clue's cell.

    Examples
    --------
    >>> clue_constraint([1, None, -1, 2], 3, (0, 1, 2))
    ClueConstraint(cell=3, cells=(1,), mines=1)
    """
    cells, mines = constraint_of(values, cell, around)
    return ClueConstraint(cell, cells, mines)


def clues_of(
    grid: PartialGrid, mines: int | None = None, *, table_cells: int = TABLE_CELLS
) -> Clues:
    """The clues of a checked partial grid (rows of clues, ``-1`` and ``None``), row-major.

    ``mines`` is the mine total, when known. Up to ``table_cells`` cells the geometry's shared
    neighbour table is used; above, only the clues' neighbours are looked up (the same clues).

    Raises
    ------
    NoPlacementError
        A clue with more known mines around it than its value, or fewer unknown neighbours
        than the mines it still needs; names the row and column.

    Examples
    --------
    >>> clues_of([[1, None], [-1, 2]]).constraints
    (ClueConstraint(cell=0, cells=(1,), mines=0), ClueConstraint(cell=3, cells=(1,), mines=1))
    >>> clues_of([[1, -1], [-1, None]])
    Traceback (most recent call last):
    ...
    mineshafted.errors.NoPlacementError: row 0, column 0: clue 1 but 2 known mines around it

    Notes
    -----
    ``O(cells)``. The shared neighbour table pays on boards met often; building one for a
    million cells takes seconds.
    """
    geometry = Geometry(len(grid), len(grid[0]))
    values = [value for row in grid for value in row]
    table = geometry.neighbour_table() if geometry.cells <= table_cells else None
    found = []
    for cell, value in enumerate(values):
        if value is None or value == MINE:
            continue
        clue = clue_constraint(values, cell, table[cell] if table else geometry.neighbours(cell))
        if clue.mines < 0 or len(clue.cells) < clue.mines:
            raise _impossible(geometry, cell, value, clue)
        if clue.cells:
            found.append(clue)
    unknown = tuple(c for c, v in enumerate(values) if v is None)
    left = None if mines is None else mines - values.count(MINE)
    return Clues(tuple(found), unknown, left)


def position_from(
    board: PartialGrid, constraints: Iterable[Constraint], unknown: Iterable[Cell], found: int
) -> Position:
    """The position of ``board`` whose clues say ``constraints``: grouped into components,
    with the ``unknown`` cells no clue sees and the ``found`` mines.

    Examples
    --------
    >>> clues = clues_of([[1, None, None]])
    >>> position_from([[1, None, None]], [((1,), 1)], clues.unknown, 0)
    Position(board=[[1, None, None]], components=[[((1,), 1)]], unconstrained=[2], mines_found=0)
    """
    pairs = list(constraints)
    seen = {cell for cells, _ in pairs for cell in cells}
    return Position(
        board=board,
        components=list(components(pairs)),
        unconstrained=[c for c in unknown if c not in seen],
        mines_found=found,
    )


def _impossible(
    geometry: Geometry, cell: Cell, value: int, clue: ClueConstraint
) -> NoPlacementError:
    """The error for a clue the known mines or its unknown neighbours cannot meet."""
    row, col = geometry.coords(cell)
    known = value - clue.mines
    if clue.mines < 0:
        message = f"clue {value} but {known} known mines around it"
    else:
        message = (
            f"clue {value} needs {clue.mines} more mine(s) but has "
            f"{len(clue.cells)} unknown neighbour(s)"
        )
    return NoPlacementError(message, why=Why.CLUES, row=row, col=col)
