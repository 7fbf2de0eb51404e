"""Explanation: why a position decides a cell, in as few clues as can be found cheaply.

Glossary
--------
clue constraint
    A revealed clue's say about its unknown neighbours: they hold its value less the known
    mines around it.
forces
    A set of clue constraints (with the mine total, or without) forces a cell when no
    assignment of mines to the unknown cells satisfies them all with the cell the other way.
sound
    A clue set that forces the cell (with the total only when the explanation says it uses
    the total).
minimal
    A sound clue set from which no single clue can be dropped: without any one of them the
    cell is no longer forced.
technique
    The weakest rung of the ladder (:class:`~mineshafted.solver.Technique`) whose reasoning,
    run to its fixed point on the position's clues (nothing is revealed meanwhile), decides
    the cell: ``count`` (one clue at a time), ``subset`` (and differences of constraints),
    ``ac3`` (arc consistency over each clue's arrangements), ``complete`` (all the clues of
    the cell's component together), ``total`` (with the mine total).

How the clues are found: if a single clue beside the cell forces it, that clue; otherwise the
clues of the cell's component are taken in rings of distance from the cell (those beside it,
then those sharing a cell with one of them, ...) until they force it, and then each is
dropped in turn, farthest first, when the rest still force the cell (deletion-based
minimisation; forcing only grows with more clues, so the result is minimal). When the
component's clues alone do not force the cell, the mine total is used: deletion then starts
from every clue of the position. Forcing is checked by counting: the cell fixed the other
way is one more constraint, the components are counted by number of mines
(:func:`~mineshafted.solver.counted`), and there is no placement at all, or (with the total)
none whose mine number leaves a number of mines that the other unknown cells can hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..board import MINE, Cell, Geometry, PartialGrid
from ..errors import NoPlacementError, Why
from ..probability import odds, position_of
from ..solver import ClueCSP, Technique, components, counted, subset_facts
from ..solver.count import convolve
from .errors import UndecidedError

__all__ = ["Clue", "Explanation", "clue_constraints", "explain", "forces", "technique_for"]

Clue = tuple[Cell, tuple[Cell, ...], int]
"""A clue constraint: ``(clue cell, its unknown neighbours, the mines among them)``."""


@dataclass(frozen=True)
class Explanation:
    """Why a position decides a cell: the clues that prove it, and how."""

    cell: tuple[int, int]
    """The cell explained, ``(row, column)``."""
    mine: bool
    """Whether the cell holds a mine (else it is safe)."""
    clues: tuple[tuple[int, int], ...]
    """The revealed clues that prove it, ``(row, column)``, nearest first; sound and
    minimal."""
    uses_total: bool
    """Whether the mine total is needed besides the clues."""
    technique: Technique
    """The weakest technique that decides the cell from the position."""
    mines: int
    """The board's mine total."""
    mines_left: int
    """The mine total less the known mines."""

    @property
    def text(self) -> str:
        """The explanation in a sentence.

        Examples
        --------
        >>> print(explain([[1, None], [1, None], [0, 0]], 1, (1, 1)).text)
        The clue at (2, 0) leaves no placement with a mine at (1, 1): found by count (one \
clue on its own (all its mines placed, or all its unknowns mines)).
        """
        n = len(self.clues)
        if n == 1:
            who = f"The clue at {_at(self.clues[0])}"
        elif n:
            who = f"These {n} clues"
        else:
            who = ""
        if self.uses_total:
            total = f"the mine total ({self.mines} in all, {self.mines_left} not yet known)"
            who = f"{who} and {total}" if who else total[0].upper() + total[1:]
        verb = "leaves" if n + self.uses_total == 1 else "leave"
        how = "with" if not self.mine else "without"
        technique = self.technique
        return (
            f"{who} {verb} no placement {how} a mine at {_at(self.cell)}: found by "
            f"{technique.value} ({technique.summary})."
        )

    def to_json(self) -> dict[str, object]:
        """The answer of ``POST /api/explain``: ``cell``, ``value`` (``"safe"`` or
        ``"mine"``), ``clues`` (``[row, column]`` each), ``uses_total``, ``technique`` and
        ``text``."""
        return {
            "cell": list(self.cell),
            "value": "mine" if self.mine else "safe",
            "clues": [list(clue) for clue in self.clues],
            "uses_total": self.uses_total,
            "technique": self.technique.value,
            "text": self.text,
        }


def explain(grid: PartialGrid, mines: int, cell: tuple[int, int]) -> Explanation:
    """Why the position ``grid`` with ``mines`` in all decides ``cell``.

    Parameters
    ----------
    grid:
        Rows of clues 0-8, ``-1`` (known mines) and ``None`` (unknown), checked.
    mines:
        The board's mine total.
    cell:
        ``(row, column)`` of an unknown cell.

    Returns
    -------
    Explanation
        A sound and minimal set of clues, whether the total is needed, the technique.

    Raises
    ------
    UndecidedError
        ``cell`` is off the board, not unknown, or not decided by the position (its mine
        probability is neither 0 nor 1).
    InvalidBoardError
        The grid is malformed.
    NoPlacementError
        No placement fits the position.

    Examples
    --------
    ``1 ? ?`` over ``1 1 ?`` with one mine: the clues at (0, 0) and (1, 0) each see one
    unknown cell, (0, 1), which is therefore a mine; (0, 2) is safe because the clue at
    (1, 1) has its mine at (0, 1) already, which either of the other two proves.

    >>> why = explain([[1, None, None], [1, 1, None]], 1, (0, 1))
    >>> why.mine, why.clues, why.uses_total, why.technique.value
    (True, ((0, 0),), False, 'count')
    >>> explain([[1, None, None], [1, 1, None]], 1, (0, 2)).clues
    ((1, 1), (0, 0))
    >>> explain([[1, None], [None, None]], 1, (0, 1))
    Traceback (most recent call last):
    ...
    mineshafted.web.errors.UndecidedError: (0, 1) is not decided by the position: its mine \
probability is 1/3

    Notes
    -----
    One count of the position for the odds; then one count of the checked clues' components
    per ring and per clue tried (components not changed are remembered), and the ladder's
    techniques over the cell's component.
    """
    position = position_of(grid)
    rows, cols = len(grid), len(grid[0])
    row, col = cell
    if not (0 <= row < rows and 0 <= col < cols):
        raise UndecidedError(f"{_at(cell)} is off the {rows}x{cols} board")
    shown = grid[row][col]
    if shown is not None:
        what = "a known mine" if shown == MINE else f"a revealed clue ({shown})"
        raise UndecidedError(f"{_at(cell)} is {what}, not an unknown cell")
    if mines < position.mines_found:
        raise NoPlacementError(
            f"{mines} mine(s) in all, but {position.mines_found} are known", why=Why.TOO_FEW
        )
    result = odds(position, mines)
    target = row * cols + col
    mined = result.mined[target]
    if 0 < mined < result.placements:
        chance = Fraction(mined, result.placements)
        raise UndecidedError(
            f"{_at(cell)} is not decided by the position: its mine probability is {chance}"
            + (f" ({float(chance):.1%})" if chance.denominator > 12 else "")
        )
    mine = mined == result.placements
    clues = clue_constraints(grid)
    left = mines - position.mines_found
    unknown = sum(value is None for line in grid for value in line)
    problem = _Problem(target, mine, left, unknown)
    component = _component(clues, target)
    if component and problem.forces(component, total=False):
        chosen = _smallest_without_total(problem, component)
        uses_total = False
    else:
        chosen = _minimised(problem, _by_distance(clues, target), total=True)
        uses_total = True
    technique = technique_for(component, target, uses_total=uses_total)
    return Explanation(
        cell=(row, col),
        mine=mine,
        clues=tuple(divmod(clue, cols) for clue, _, _ in chosen),
        uses_total=uses_total,
        technique=technique,
        mines=mines,
        mines_left=left,
    )


def clue_constraints(grid: PartialGrid) -> list[Clue]:
    """Every revealed clue with an unknown neighbour, as ``(cell, unknown neighbours,
    mines among them)``, in row-major order.

    Examples
    --------
    >>> clue_constraints([[1, None], [-1, 2]])
    [(0, (1,), 0), (3, (1,), 1)]
    """
    rows, cols = len(grid), len(grid[0])
    values = [value for line in grid for value in line]
    table = Geometry(rows, cols).neighbour_table()
    found: list[Clue] = []
    for cell, value in enumerate(values):
        if value is None or value == MINE:
            continue
        around = table[cell]
        unknown = tuple(n for n in around if values[n] is None)
        if unknown:
            known = sum(values[n] == MINE for n in around)
            found.append((cell, unknown, value - known))
    return found


def forces(
    clues: Iterable[Clue], cell: Cell, mine: bool, *, left: int | None, unknown: int
) -> bool:
    """Whether ``clues`` (and the ``left`` mines among ``unknown`` cells, when given) leave
    no placement with ``cell`` the other way than ``mine``.

    Examples
    --------
    >>> forces([(0, (1, 2), 1)], 1, False, left=None, unknown=2)
    False
    >>> forces([(0, (1, 2), 1)], 3, False, left=1, unknown=3)
    True
    """
    return _Problem(cell, mine, left if left is not None else 0, unknown).forces(
        clues, total=left is not None
    )


def technique_for(component: Sequence[Clue], cell: Cell, *, uses_total: bool) -> Technique:
    """The weakest technique whose reasoning decides ``cell`` from the clues of its
    component (the total only when nothing weaker does).

    Parameters
    ----------
    component:
        The clue constraints of the cell's component.
    cell:
        A cell the position decides.
    uses_total:
        Whether the component's clues alone fail to decide it (then it is ``total``).

    Examples
    --------
    >>> technique_for([(0, (1, 2), 2)], 1, uses_total=False).value
    'count'
    >>> technique_for([(0, (1, 2), 1), (3, (1, 2, 4), 1)], 4, uses_total=False).value
    'subset'
    """
    if uses_total:
        return Technique.TOTAL
    constraints = [(scope, need) for _, scope, need in component]
    decided = _counted(constraints, {})
    if cell in decided:
        return Technique.COUNT
    while True:
        news = [(c, m) for c, m in subset_facts(_reduced(constraints, decided)) if c not in decided]
        if not news:
            break
        decided.update(news)
        decided = _counted(constraints, decided)
        if cell in decided:
            return Technique.SUBSET
    csp = ClueCSP()
    for clue, scope, need in component:
        csp.add(clue, scope, need)
    if any(c == cell for c, _ in csp.propagate()):
        return Technique.AC3
    return Technique.COMPLETE


# -- helpers ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Problem:
    """The cell to force and the position's totals."""

    cell: Cell
    mine: bool
    left: int
    """Mines left among the unknown cells (the total less the known mines)."""
    unknown: int
    """How many unknown cells the position has."""

    def forces(self, clues: Iterable[Clue], *, total: bool) -> bool:
        """Whether ``clues`` (and the total, with ``total``) force the cell."""
        constraints = [(scope, need) for _, scope, need in clues]
        constraints.append(((self.cell,), 0 if self.mine else 1))  # the cell the other way
        counts = [1]
        seen = 0
        for component in components(constraints):
            count = counted(tuple(component))
            if not any(count.placements):
                return True
            seen += len(count.cells)
            if total:
                counts = convolve(counts, count.placements)
        if not total:
            return False
        free = self.unknown - seen
        return not any(
            placements and 0 <= self.left - k <= free for k, placements in enumerate(counts)
        )


def _smallest_without_total(problem: _Problem, component: list[Clue]) -> list[Clue]:
    """A minimal set of the component's clues forcing the cell: one beside it if one does,
    else the nearest rings that do, minimised."""
    ordered = _by_distance(component, problem.cell)
    for clue in ordered:
        if problem.cell not in clue[1]:
            break
        if problem.forces([clue], total=False):
            return [clue]
    rings = _rings(component, problem.cell)
    chosen: list[Clue] = []
    for ring in rings:
        chosen.extend(ring)
        if problem.forces(chosen, total=False):
            break
    return _minimised(problem, chosen, total=False)


def _minimised(problem: _Problem, clues: list[Clue], *, total: bool) -> list[Clue]:
    """``clues`` (nearest first, forcing the cell) less each clue, farthest first, that the
    others do without."""
    kept = list(clues)
    for clue in reversed(clues):
        trial = [c for c in kept if c is not clue]
        if problem.forces(trial, total=total):
            kept = trial
    return kept


def _component(clues: list[Clue], cell: Cell) -> list[Clue]:
    """The clues linked to ``cell`` through shared unknown cells (none if no clue sees it)."""
    return [clue for ring in _rings(clues, cell) for clue in ring]


def _rings(clues: Sequence[Clue], cell: Cell) -> list[list[Clue]]:
    """The clues linked to ``cell``, by distance: those that see it, then those sharing an
    unknown cell with one of them, and so on (breadth first, row-major within a ring)."""
    watchers: dict[Cell, list[int]] = {}
    for index, (_, scope, _) in enumerate(clues):
        for unknown in scope:
            watchers.setdefault(unknown, []).append(index)
    seen_cells = {cell}
    seen: set[int] = set()
    ring = sorted(set(watchers.get(cell, ())))
    rings: list[list[Clue]] = []
    while ring:
        seen.update(ring)
        rings.append([clues[i] for i in ring])
        frontier = {u for i in ring for u in clues[i][1]} - seen_cells
        seen_cells |= frontier
        ring = sorted({i for u in frontier for i in watchers.get(u, ()) if i not in seen})
    return rings


def _by_distance(clues: Sequence[Clue], cell: Cell) -> list[Clue]:
    """Every clue, nearest to ``cell`` first: its component's by ring, then the others."""
    near = _component(list(clues), cell)
    taken = {clue[0] for clue in near}
    return near + [clue for clue in clues if clue[0] not in taken]


def _counted(
    constraints: Sequence[tuple[tuple[Cell, ...], int]], decided: dict[Cell, bool]
) -> dict[Cell, bool]:
    """``decided`` grown to the fixed point of counting: a constraint with no mine left
    makes its other cells safe, one with as many mines as cells makes them mines."""
    decided = dict(decided)
    changed = True
    while changed:
        changed = False
        for scope, need in _reduced(constraints, decided):
            if need == 0 or need == len(scope):
                for c in scope:
                    decided[c] = need > 0
                changed = True
    return decided


def _reduced(
    constraints: Sequence[tuple[tuple[Cell, ...], int]], decided: dict[Cell, bool]
) -> list[tuple[tuple[Cell, ...], int]]:
    """The constraints over their undecided cells, less the mines decided among them (those
    left with no cell dropped)."""
    reduced = []
    for scope, need in constraints:
        open_cells = tuple(c for c in scope if c not in decided)
        if open_cells:
            reduced.append((open_cells, need - sum(decided[c] for c in scope if c in decided)))
    return reduced


def _at(cell: tuple[int, int]) -> str:
    """``(row, column)`` as text."""
    return f"({cell[0]}, {cell[1]})"
