"""Guessing policies: which unknown cell to reveal when no cell is provably safe.

Glossary
--------
stall
    A position where the sweep, mine total included, decides nothing: every unknown cell has
    a mine in some placements and not in others. Only then is a policy asked.
candidate
    An unknown cell whose chance of a mine is within the policy's tolerance of the lowest.
progress
    Revealing a cell makes progress when the clue it shows decides at least one other cell
    (a 0 decides all its neighbours). ``P(progress)`` is counted exactly, over the placements.
look-ahead
    The chance of surviving this guess *and* the next one: for each clue the candidate may
    show, the safest cell of the position after it (1 when something is decided safe).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import Protocol

from ..board import Cell, Geometry
from ..errors import NoPlacementError, PartialGrid
from ..solver import Constraint, Count, Position, Tally, combine, components, count_component
from .odds import Odds

__all__ = [
    "Best",
    "Outlook",
    "Policy",
    "PolicyName",
    "RandomGuess",
    "Safest",
    "outlook",
    "policy_named",
]


class PolicyName(StrEnum):
    """The policies :func:`policy_named` knows, by the name the command line uses."""

    BEST = "best"
    """:class:`Best`: the safest cells, then the one most likely to make progress."""
    SAFEST = "safest"
    """:class:`Safest`: a cell of lowest mine probability, ties at random."""
    RANDOM = "random"
    """:class:`RandomGuess`: any unknown cell; the baseline."""


class Policy(Protocol):
    """Chooses the cell to guess at a stall."""

    @property
    def name(self) -> str:
        """The policy's name, kept in each guess's record."""
        ...  # pragma: no cover - protocol

    def choose(
        self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random
    ) -> Cell:
        """The unknown cell to reveal next.

        Parameters
        ----------
        position:
            The stall, from :meth:`mineshafted.solver.Sweep.position`.
        odds:
            Its exact mine probabilities under the total.
        board:
            The board as the player knows it: clues, ``-1`` for known mines, ``None`` unknown
            (its shape is the board's).
        rng:
            The only source of chance a policy may use, so that a seeded game replays.
        """
        ...  # pragma: no cover - protocol


@dataclass(frozen=True)
class RandomGuess:
    """Any unknown cell, uniformly: what a player who ignores the clues would do.

    >>> odds = Odds(1, 2, {4: 1, 5: 1})
    >>> RandomGuess().choose(_stall(), odds, [[0, 1, 1], [1, None, None]], random.Random(1))
    4
    """

    name: str = PolicyName.RANDOM.value

    def choose(
        self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random
    ) -> Cell:
        """A uniformly random unknown cell (a certain safe one first, should there be one)."""
        if odds.safe:
            return odds.safe[0]
        return rng.choice(sorted(odds.mined))


@dataclass(frozen=True)
class Safest:
    """A cell of lowest mine probability, ties broken at random.

    >>> odds = Odds(1, 3, {4: 1, 5: 2, 7: 1})
    >>> Safest().choose(_stall(), odds, [[0, 1, 1], [1, None, None]], random.Random(2)) in (4, 7)
    True
    """

    name: str = PolicyName.SAFEST.value

    def choose(
        self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random
    ) -> Cell:
        """One of :meth:`Odds.safest`, at random."""
        return rng.choice(odds.safest())


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
    survive_two: Fraction
    """The chance it is safe and so is the safest cell of the position it leaves (a cell
    decided safe counts as certain): one step of look-ahead."""
    by_clue: dict[int, Fraction] = field(compare=False)
    """Clue value -> the chance the cell is safe and shows it."""


@dataclass(frozen=True)
class Best:
    """The default policy: safe first, then progress, with corners and one step of look-ahead.

    Each ingredient can be switched off, to measure what it adds
    (``scripts/bench_play.py --ablation``).

    1. **Lowest probability first.** Only cells within ``tolerance`` of the lowest mine
       probability are candidates (``tolerance=0``: only the safest).
    2. **Corners and edges.** Of equally likely candidates, those with the fewest unknown
       neighbours come first (corners, then edges, then cells by a clue): they show a 0, and
       open a region, most often. With ``corners=False`` equal candidates come in random
       order. At most ``width`` candidates are examined further.
    3. **Progress.** For each examined candidate and each clue it may show, the position
       after it is counted exactly (:func:`outlook`); the candidate most likely to be safe
       *and* decide another cell wins. With ``progress=False`` the first candidate wins.
    4. **Look-ahead.** Among the ``survivors`` best by progress, the one most likely to
       survive this guess and the next (the safest cell of each position it may leave) wins.
       It costs nothing more: the counts are those of step 3.

    Ties are broken by lower probability, then by the random order.

    Examples
    --------
    >>> Best().name, Best(progress=False).name, Best(tolerance=0.0, lookahead=False).name
    ('best', 'best-progress', 'best-tolerance-lookahead')

    Notes
    -----
    Cost: up to ``width`` candidates x (their unknown neighbours + 1) clue values, each a
    :func:`~mineshafted.solver.combine` of the position's components with the one the
    candidate touches counted anew (the others' counts are reused).
    """

    tolerance: float = 0.05
    """Candidates have a mine probability at most this much above the lowest."""
    corners: bool = True
    progress: bool = True
    lookahead: bool = True
    width: int = 8
    """How many candidates are counted for progress at most."""
    survivors: int = 3
    """How many of the best by progress the look-ahead compares."""

    @property
    def name(self) -> str:
        """``best``, with ``-ingredient`` for each one switched off."""
        off = [
            ingredient
            for ingredient, on in (
                ("tolerance", self.tolerance > 0),
                ("corners", self.corners),
                ("progress", self.progress),
                ("lookahead", self.lookahead),
            )
            if not on
        ]
        return "-".join([PolicyName.BEST.value, *off])

    def choose(
        self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random
    ) -> Cell:
        """The candidate most likely to make progress, after the look-ahead (see the class)."""
        if odds.safe:
            return odds.safe[0]
        total = odds.placements
        least = min(odds.mined.values())
        # Exact comparison: mined / total <= least / total + tolerance.
        limit = least + int(self.tolerance * total)
        cells = [cell for cell, mined in odds.mined.items() if mined <= limit]
        rng.shuffle(cells)
        rows, cols = len(board), len(board[0])
        neighbours = Geometry(rows, cols).neighbour_table()
        unknown = set(odds.mined)
        if self.corners:
            cells.sort(key=lambda c: (odds.mined[c], _hidden(neighbours[c], unknown)))
        else:
            cells.sort(key=lambda c: odds.mined[c])
        cells = cells[: self.width]
        if len(cells) == 1 or not (self.progress or self.lookahead):
            return cells[0]
        cache: dict[tuple[Constraint, ...], Count] = {}
        free = set(position.unconstrained)
        alike: dict[tuple[int, int], Outlook] = {}
        looks: list[Outlook] = []
        for cell in cells:
            # A cell that no clue sees, among neighbours no clue sees, has the outlook of any
            # other such cell with as many unknown and mined neighbours: count it once.
            key = _isolated(cell, neighbours[cell], free, board, cols)
            if key is not None and key in alike:
                looks.append(replace(alike[key], cell=cell))
                continue
            look = outlook(position, odds, board, cell, _cache=cache)
            if key is not None:
                alike[key] = look
            looks.append(look)
        order = {look.cell: rank for rank, look in enumerate(looks)}
        if self.progress:
            looks.sort(key=lambda look: (-look.progress, -look.safe, order[look.cell]))
        if self.lookahead:
            head = looks[: self.survivors]
            head.sort(key=lambda look: (-look.survive_two, -look.progress, order[look.cell]))
            return head[0].cell
        return looks[0].cell


def policy_named(name: str | PolicyName) -> Policy:
    """The policy called ``name``: ``best``, ``safest`` or ``random``.

    ``best-`` followed by ingredients joined by ``-`` is :class:`Best` with those switched
    off (its :attr:`Best.name`), for measuring what each adds.

    Raises
    ------
    ValueError
        No policy has that name.

    >>> policy_named("safest")
    Safest(name='safest')
    >>> policy_named("best-corners-lookahead")
    Best(tolerance=0.05, corners=False, progress=True, lookahead=False, width=8, survivors=3)
    """
    text = str(name)
    head, dash, rest = text.partition("-")
    try:
        which = PolicyName(head)
    except ValueError:
        which = None
    if which is PolicyName.BEST:
        off = set(rest.split("-")) if dash else set()
        unknown = off - {"tolerance", "corners", "progress", "lookahead"}
        if not unknown:
            return Best(
                tolerance=0.0 if "tolerance" in off else Best.tolerance,
                corners="corners" not in off,
                progress="progress" not in off,
                lookahead="lookahead" not in off,
            )
    elif which is not None and not dash:
        return Safest() if which is PolicyName.SAFEST else RandomGuess()
    raise ValueError(f"no policy is called {text!r}: choose one of {', '.join(PolicyName)}")


def outlook(
    position: Position,
    odds: Odds,
    board: PartialGrid,
    cell: Cell,
    *,
    _cache: dict[tuple[Constraint, ...], Count] | None = None,
) -> Outlook:
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
        The chance of each clue, of progress, and of surviving two steps.

    Examples
    --------
    A 1x4 board ``1 * ? ?`` with two mines: the second is on 2 or on 3. Revealing 2 is safe
    half the time, and then shows a 2 and leaves only mines: the game is won.

    >>> from mineshafted.solver import Position
    >>> stall = Position([[1, -1, None, None]], [], [2, 3], 1)
    >>> from mineshafted.probability import odds
    >>> look = outlook(stall, odds(stall, 2), [[1, -1, None, None]], 2)
    >>> look.safe, look.by_clue, look.progress, look.survive_two
    (Fraction(1, 2), {2: Fraction(1, 2)}, Fraction(1, 2), Fraction(1, 2))

    Notes
    -----
    For each clue value ``v`` of ``cell`` the position gains the constraint "``v`` less the
    known mines among its unknown neighbours" and loses ``cell`` (safe); the components it
    touches are merged and counted anew, the others' counts reused. The placements of that
    position, over those of the stall, are the chance of ``cell`` safe and showing ``v``.
    """
    cache = _cache if _cache is not None else {}
    rows, cols = len(board), len(board[0])
    around = Geometry(rows, cols).neighbour_table()[cell]
    known = sum(1 for n in around if board[n // cols][n % cols] == -1)
    unknown_set = set(odds.mined)
    hidden = tuple(n for n in around if n in unknown_set)
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
    kept_counts = [_counted(component, cache) for component in kept]
    free = [c for c in position.unconstrained if c not in near]
    total = odds.placements
    by_clue: dict[int, Fraction] = {}
    progress = 0
    survive = Fraction(0)
    for extra in range(len(hidden) + 1):
        constraints = [*touched, (hidden, extra)] if hidden else list(touched)
        if any(not scope and mines for scope, mines in constraints):
            continue
        constraints = [(scope, mines) for scope, mines in constraints if scope]
        counts = list(kept_counts)
        counts.extend(_counted(part, cache) for part in components(constraints))
        try:
            after = combine(counts, free, odds.mines_left)
        except NoPlacementError:
            continue
        by_clue[known + extra] = Fraction(after.placements, total)
        if after.certain():
            progress += after.placements
        survive += Fraction(after.placements, total) * _best_safety(after)
    return Outlook(
        cell,
        safe=Fraction(total - odds.mined[cell], total),
        progress=Fraction(progress, total),
        survive_two=survive,
        by_clue=by_clue,
    )


def _counted(component: Sequence[Constraint], cache: dict[tuple[Constraint, ...], Count]) -> Count:
    """``count_component(component)``, remembered for the choice under way."""
    key = tuple(component)
    found = cache.get(key)
    if found is None:
        found = cache[key] = count_component(component)
    return found


def _best_safety(after: Tally) -> Fraction:
    """The chance the safest cell of a counted position is safe (1 if only mines are left)."""
    total = after.placements
    open_cells = [mined for mined in after.mined.values() if mined < total]
    if not open_cells:
        return Fraction(1)
    return Fraction(total - min(open_cells), total)


def _isolated(
    cell: Cell, around: Sequence[Cell], free: set[Cell], board: PartialGrid, cols: int
) -> tuple[int, int] | None:
    """``(unknown, mined)`` neighbours of a cell that no clue sees and whose unknown
    neighbours no clue sees either; ``None`` for any other cell."""
    if cell not in free:
        return None
    hidden = mined = 0
    for n in around:
        value = board[n // cols][n % cols]
        if value is None:
            if n not in free:
                return None
            hidden += 1
        elif value == -1:
            mined += 1
    return (hidden, mined)


def _hidden(around: Sequence[Cell], unknown: set[Cell]) -> int:
    """How many of the cells ``around`` are unknown."""
    return sum(1 for n in around if n in unknown)


def _stall() -> Position:
    """A small stall for the examples: ``0 1 1 / 1 ? ?`` with one mine."""
    return Position([[0, 1, 1], [1, None, None]], [[((4, 5), 1)]], [], 0)
