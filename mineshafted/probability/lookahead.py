"""The look-ahead: what revealing one cell may show, counted exactly over the placements.

For each clue a cell may show, the position after it is counted anew (the components the
cell touches merged, the others' counts reused): the chance of each clue, of progress, and
the secondary safety that :class:`~mineshafted.probability.Best` ranks its candidates by.

Glossary
--------
progress
    Revealing a cell makes progress when the clue it shows decides at least one other cell
    (a 0 decides all its neighbours). ``P(progress)`` is counted exactly, over the placements.
look-ahead
    A candidate's secondary safety: the chance of surviving it, times how safe the best next
    guess will be, over every clue it may show (a cell decided safe is certain).
dead
    A cell that can show only one clue: revealing it tells nothing but that it was safe.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..board import MINE, Cell, Geometry, PartialGrid
from ..errors import NoPlacementError
from ..solver import Constraint, Position, Tally, combine, components, weighed
from .odds import Odds

__all__ = ["After", "Outlook", "afters", "alike", "bounded_outlook", "outlook"]


@dataclass(frozen=True)
class Outlook:
    """What revealing one cell may show, counted exactly over the placements.

    Every probability is over all placements of the position (the cell's own mine included).
    """

    cell: Cell
    safe: Fraction
    """The chance the cell holds no mine."""
    progress: Fraction
    """The chance it is safe and its clue decides at least one other cell."""
    lookahead: Fraction
    """Its secondary safety: the chance it is safe, times how safe the next guess is. For
    each clue it may show, the two safest cells of the position after it (a cell decided
    safe is certain) count as ``(4 s1 + s2) / 5``; weighted by the chance of that clue."""
    by_clue: dict[int, Fraction] = field(compare=False)
    """Clue value -> the chance the cell is safe and shows it."""

    @property
    def dead(self) -> bool:
        """The cell can show only one clue: revealing it tells no more than that it is safe."""
        return len(self.by_clue) <= 1


def outlook(position: Position, odds: Odds, board: PartialGrid, cell: Cell) -> Outlook:
    """What revealing ``cell`` may show, and what each clue would let the player decide.

    Parameters
    ----------
    position, odds:
        The stall and its odds.
    board:
        The board as known (gives the board's shape and the known mines beside ``cell``).
    cell:
        An unknown cell of the position.

    Returns
    -------
    Outlook
        The chance of each clue, of progress, and the secondary safety.

    Examples
    --------
    A 1x4 board ``1 * ? ?`` with two mines: the second is on 2 or on 3. Revealing 2 is safe
    half the time, and then shows a 2 and leaves only mines: the game is won.

    >>> from mineshafted.solver import Position
    >>> stall = Position([[1, -1, None, None]], [], [2, 3], 1)
    >>> from mineshafted.probability import odds
    >>> look = outlook(stall, odds(stall, 2), [[1, -1, None, None]], 2)
    >>> look.safe, look.by_clue, look.progress, look.lookahead, look.dead
    (Fraction(1, 2), {2: Fraction(1, 2)}, Fraction(1, 2), Fraction(1, 2), True)

    Notes
    -----
    For each clue value ``v`` of ``cell`` the position gains the constraint "``v`` less the
    known mines among its unknown neighbours" and loses ``cell`` (safe); the components it
    touches are merged and counted anew, the others' counts reused. The placements of that
    position, over those of the stall, are the chance of ``cell`` safe and showing ``v``.
    """
    found = bounded_outlook(position, odds, board, cell, None)
    assert found is not None  # no floor: never dropped
    return found


def bounded_outlook(
    position: Position,
    odds: Odds,
    board: PartialGrid,
    cell: Cell,
    floor: Fraction | None,
) -> Outlook | None:
    """:func:`outlook`, or ``None`` as soon as the secondary safety cannot reach ``floor``
    (``None``: never given up).

    A policy that keeps the best secondary safety so far passes it as ``floor``, so that a
    candidate that cannot beat it costs only the clues counted until that shows.
    """
    total = odds.placements
    safe = total - odds.mined[cell]
    # The secondary safety is ahead / (5 total); ``ahead`` gains at most 5 per safe placement.
    least = None if floor is None else floor * 5 * total
    if least is not None and 5 * safe < least:
        return None
    by_clue: dict[int, Fraction] = {}
    progress = 0
    ahead = 0
    unseen = safe
    for after in afters(position, odds, board, cell):
        by_clue[after.clue] = Fraction(after.tally.placements, total)
        safety, decides = _glance(after.tally)
        if decides:
            progress += after.tally.placements
        ahead += safety
        unseen -= after.tally.placements
        if least is not None and ahead + 5 * unseen < least:
            return None
    return Outlook(
        cell,
        safe=Fraction(safe, total),
        progress=Fraction(progress, total),
        lookahead=Fraction(ahead, 5 * total),
        by_clue=by_clue,
    )


@dataclass(frozen=True)
class After:
    """The position after revealing a cell that is safe and shows one clue."""

    clue: int
    position: Position
    """The position after: the cell's clue on the board, its constraint added."""
    tally: Tally
    """Its count: the placements where the cell is safe and shows :attr:`clue`."""


def afters(position: Position, odds: Odds, board: PartialGrid, cell: Cell) -> Iterator[After]:
    """Every clue ``cell`` may show, with the position after it and its count, by ascending
    clue.

    Notes
    -----
    For each clue value ``v`` of ``cell`` the position gains the constraint "``v`` less the
    known mines among its unknown neighbours" and loses ``cell`` (safe); the components it
    touches are merged and counted anew, the others' counts reused: up to 9 counts
    (:func:`~mineshafted.solver.combine`) of the position.
    """
    rows, cols = len(board), len(board[0])
    around = Geometry(rows, cols).neighbour_table()[cell]
    known = sum(1 for n in around if board[n // cols][n % cols] == -1)
    hidden = tuple(n for n in around if n in odds.mined)
    near = set(hidden)
    near.add(cell)
    kept: list[list[Constraint]] = []
    touched: list[Constraint] = []
    for component in position.components:
        if any(c in near for scope, _ in component for c in scope):
            for scope, mines in component:
                rest = tuple(c for c in scope if c != cell)
                touched.append((rest, mines))
        else:
            kept.append(component)
    kept_counts = [weighed(tuple(component)) for component in kept]
    free = [c for c in position.unconstrained if c not in near]
    for extra in range(len(hidden) + 1):
        constraints = [*touched, (hidden, extra)] if hidden else list(touched)
        if any(not scope and mines for scope, mines in constraints):
            continue
        constraints = [(scope, mines) for scope, mines in constraints if scope]
        parts = list(components(constraints))
        counts = list(kept_counts)
        counts.extend(weighed(tuple(part)) for part in parts)
        try:
            after = combine(counts, free, odds.mines_left)
        except NoPlacementError:
            continue
        shown = [list(row) for row in board]
        shown[cell // cols][cell % cols] = known + extra
        yield After(
            known + extra,
            Position(shown, [*kept, *parts], free, position.mines_found),
            after,
        )


def _glance(after: Tally) -> tuple[int, bool]:
    """One pass over a counted position: ``placements x (4 s1 + s2)`` for its two safest
    cells ``s1`` and ``s2`` (a cell decided safe is certain; 1 when no cell is left to guess),
    and whether it decides any cell."""
    total = after.placements
    # Two smallest counts below ``total`` by whole-list passes (min, remove: C loops), not a
    # Python loop over every unknown cell: the same two values, the same answer.
    values = list(after.mined.values())
    decides = total in values
    first = min(values, default=total)
    if first == total:
        return 5 * total, decides
    decides = decides or first == 0
    values.remove(first)
    second = min(values, default=total)
    if second == total:
        second = first
    return 4 * (total - first) + (total - second), decides


def alike(
    cell: Cell, around: Sequence[Cell], free: set[Cell], board: PartialGrid, cols: int
) -> tuple[int, int] | None:
    """``(unknown, mined)`` neighbours of a cell that no clue sees and whose unknown
    neighbours no clue sees either; ``None`` for any other cell. Two cells with the same
    key have the same outlook, so one of them stands for all.

    Examples
    --------
    >>> row = [[None, None, -1]]  # no clue: cells 0 and 1 unknown and free, 2 a mine
    >>> alike(0, [1], {0, 1}, row, 3), alike(1, [0, 2], {0, 1}, row, 3), alike(1, [0], {1}, row, 3)
    ((1, 0), (1, 1), None)
    """
    if cell not in free:
        return None
    hidden = mined = 0
    for n in around:
        value = board[n // cols][n % cols]
        if value is None:
            if n not in free:
                return None
            hidden += 1
        elif value == MINE:
            mined += 1
    return (hidden, mined)
