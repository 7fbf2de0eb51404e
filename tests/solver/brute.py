"""Brute force, independent of the package's rungs: every assignment of mines to the frontier.

The independent check of the rungs that decide by placements (``complete``, ``total``) and of
the soundness of every rung: nothing here comes from ``mineshafted.solver`` but the
:class:`~mineshafted.solver.clues.Clues` it reads. Plain loops over ``2 ** frontier``
assignments, so for small positions only.
"""

from __future__ import annotations

from itertools import product

from mineshafted.board import Cell
from mineshafted.solver.clues import Clues

Facts = dict[Cell, bool]

MOST_CELLS = 14
"""The widest frontier :func:`decided` will enumerate (``2 ** 14`` assignments)."""


def frontier(clues: Clues) -> list[Cell]:
    """The unknown cells some clue sees, ascending."""
    return sorted({cell for clue in clues.constraints for cell in clue.cells})


def decided(clues: Clues, *, with_total: bool) -> Facts:
    """The unknown cells that take one value in every assignment agreeing with every clue (and,
    ``with_total``, placing exactly the mines left).

    Every assignment of the frontier that meets each clue exactly, with any number of mines on
    the rest that is possible: without the total, every cell of the rest can go either way;
    with it, the rest holds exactly the mines the frontier leaves.
    """
    cells = frontier(clues)
    assert len(cells) <= MOST_CELLS, "brute force is for small positions"
    rest = [cell for cell in clues.unknown if cell not in set(cells)]
    values: dict[Cell, set[bool]] = {cell: set() for cell in cells}
    leftovers: set[int] = set()
    for bits in product((False, True), repeat=len(cells)):
        mined = {cell for cell, bit in zip(cells, bits, strict=True) if bit}
        if not all(len(mined & set(c.cells)) == c.mines for c in clues.constraints):
            continue
        if with_total:
            assert clues.mines_left is not None
            left = clues.mines_left - len(mined)
            if not 0 <= left <= len(rest):
                continue
            leftovers.add(left)
        for cell in cells:
            values[cell].add(cell in mined)
    assert all(values.values()) or not cells, "no assignment agrees with the clues"
    facts = {cell: mine for cell, (mine, *others) in values.items() if not others}
    if with_total and rest and len(leftovers) == 1 and leftovers <= {0, len(rest)}:
        facts.update(dict.fromkeys(rest, leftovers == {len(rest)}))
    return facts
