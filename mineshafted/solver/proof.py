"""Proof: which rung of the ladder decides a cell of a position, and clues enough for it.

The one question that certifying, explaining and hinting ask of a position
(:func:`first_rung`, :func:`prove`); a sweep's own question, a board's rating, is
:func:`~.ladder.rating`. A proof is the first rung, weakest first, that decides the cell from
the clues, and a minimal set of those clues enough for that rung alone;
:mod:`.argument` retraces it in steps a player can check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..board import Cell
from .clues import ClueConstraint, Clues
from .ladder import RUNGS, rung
from .technique import Technique

__all__ = ["Proof", "component", "first_rung", "prove"]


def first_rung(clues: Clues, cell: Cell, *, plain: bool = False) -> Technique:
    """The first rung, weakest first, that decides ``cell`` from ``clues`` (``guess`` when none
    does; ``total`` is tried only when the mines left are known).

    Every rung below ``total`` decides a cell from the clues linked to it alone, so those are
    asked about the cell's component only.

    Examples
    --------
    >>> from mineshafted.solver.clues import clues_of
    >>> grid = [[None, None, None, None], [None, 3, 2, 1], [2, -1, None, None], [None, 3, None, 2]]
    >>> clues = clues_of(grid, mines=4)
    >>> [(cell, first_rung(clues, cell).value) for cell in (1, 2, 0)]
    [(1, 'subset'), (2, 'ac3'), (0, 'complete')]
    >>> first_rung(clues_of([[0, 1, -1, None]], mines=2), 3).value
    'total'
    >>> first_rung(clues_of([[1, None], [None, None]], mines=1), 3).value
    'guess'
    """
    return _first(clues, cell, plain=plain)[0]


def _first(clues: Clues, cell: Cell, *, plain: bool = False) -> tuple[Technique, bool]:
    """:func:`first_rung`, and whether the cell holds a mine (``False`` for ``guess``)."""
    near = clues.only(component(clues.constraints, cell))
    for each in RUNGS:
        if each.technique is Technique.TOTAL and clues.mines_left is None:
            break
        facts = each.deduce(clues if each.technique is Technique.TOTAL else near, plain=plain)
        if cell in facts:
            return each.technique, facts[cell]
    return Technique.GUESS, False


@dataclass(frozen=True)
class Proof:
    """Why the clues decide a cell: the first rung that does, and clues enough for it."""

    cell: Cell
    mine: bool
    """Whether the cell holds a mine (else it is safe)."""
    technique: Technique
    """The first rung that decides the cell from all the clues."""
    clues: tuple[ClueConstraint, ...]
    """Clues that are enough for that rung to decide the cell, nearest first; minimal: without
    any one of them it does not (``total`` also counts the unknown cells and the mines left)."""


def prove(clues: Clues, cell: Cell) -> Proof:
    """The first rung that decides ``cell`` and a minimal set of clues enough for it.

    How the clues are found: a single clue that sees the cell, if one is enough; otherwise the
    clues linked to the cell taken in rings of distance (those that see it, then those sharing
    a cell with one of them, ...) until they are enough, then each dropped in turn, farthest
    first, when the rest are still enough (deletion: a rung only decides more with more clues,
    so the result is minimal). For ``total`` the deletion starts from every clue.

    Raises
    ------
    ValueError
        No rung decides ``cell``.

    Examples
    --------
    >>> from mineshafted.solver.clues import clues_of
    >>> proof = prove(clues_of([[None, None, None], [1, 1, 1]], mines=1), 2)
    >>> proof.mine, proof.technique.value, [clue.cell for clue in proof.clues]
    (False, 'subset', [4, 3])

    Notes
    -----
    One climb of the ladder over the cell's component (and the whole position for
    ``total``); then one deduction by that rung per ring and per clue dropped.
    """
    technique, mine = _first(clues, cell)
    if technique is Technique.GUESS:
        raise ValueError(f"no rung decides cell {cell}")
    deduce = rung(technique).deduce

    def enough(chosen: Sequence[ClueConstraint]) -> bool:
        return deduce(clues.only(chosen)).get(cell) is mine

    rings = _rings(clues.constraints, cell)
    for clue in rings[0] if rings else ():
        if enough([clue]):
            return Proof(cell, mine, technique, (clue,))
    chosen: list[ClueConstraint] = []
    if technique is Technique.TOTAL:
        chosen = [clue for ring in rings for clue in ring]
        near = {clue.cell for clue in chosen}
        chosen += [clue for clue in clues.constraints if clue.cell not in near]
    else:
        for ring in rings:
            chosen += ring
            if enough(chosen):
                break
    for clue in reversed(list(chosen)):
        trial = [c for c in chosen if c is not clue]
        if enough(trial):
            chosen = trial
    return Proof(cell, mine, technique, tuple(chosen))


def component(constraints: Sequence[ClueConstraint], cell: Cell) -> list[ClueConstraint]:
    """The clues linked to ``cell`` through shared unknown cells, nearest first (none if no
    clue sees it)."""
    return [clue for ring in _rings(constraints, cell) for clue in ring]


def _rings(constraints: Sequence[ClueConstraint], cell: Cell) -> list[list[ClueConstraint]]:
    """The clues linked to ``cell``, by distance: those that see it, then those sharing an
    unknown cell with one of them, and so on (breadth first, in the given order within a
    ring)."""
    holders: dict[Cell, list[int]] = {}
    for index, clue in enumerate(constraints):
        for unknown in clue.cells:
            holders.setdefault(unknown, []).append(index)
    seen_cells = {cell}
    seen: set[int] = set()
    ring = sorted(set(holders.get(cell, ())))
    rings: list[list[ClueConstraint]] = []
    while ring:
        seen.update(ring)
        rings.append([constraints[i] for i in ring])
        reached = {u for i in ring for u in constraints[i].cells} - seen_cells
        seen_cells |= reached
        ring = sorted({i for u in reached for i in holders.get(u, ()) if i not in seen})
    return rings
