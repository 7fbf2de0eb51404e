"""Guessing policies: which unknown cell to reveal when no cell is provably safe.

Glossary
--------
stall
    A position where the sweep, mine total included, decides nothing: every unknown cell has
    a mine in some placements and not in others. Only then is a policy asked.
safety
    The chance that a cell holds no mine.
candidate
    An unknown cell nearly as safe as the safest: within the policy's tolerance.
progress
    Revealing a cell makes progress when the clue it shows decides at least one other cell
    (a 0 decides all its neighbours). ``P(progress)`` is counted exactly, over the placements.
look-ahead
    A candidate's secondary safety: the chance of surviving it, times how safe the best next
    guess will be, over every clue it may show (a cell decided safe is certain).
dead
    A cell that can show only one clue: revealing it tells nothing but that it was safe.
endgame
    A position with few placements left, where best play is found by exhaustive search
    (:mod:`.endgame`).
"""

from __future__ import annotations

import random
from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Protocol

from ..board import Cell, Geometry
from ..errors import NoPlacementError, PartialGrid
from ..solver import Constraint, Position, Tally, combine, components, counted
from .endgame import PLACEMENTS, best_reveal
from .odds import Odds

__all__ = [
    "INGREDIENTS",
    "Best",
    "Outlook",
    "Policy",
    "PolicyName",
    "RandomGuess",
    "Safest",
    "outlook",
    "policy_named",
]


INGREDIENTS = ("tolerance", "corners", "lookahead", "progress", "endgame", "fifty")
"""The ingredients of :class:`Best` that can be switched off, in the order of its name."""


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

        Notes
        -----
        In a game (the loop :func:`~mineshafted.probability.loop.play_out`) the position is
        built and the odds counted the first time the policy reads them, and only then: a
        policy that needs no count should read none (the position's ``unknown`` cells and
        ``board``, and the odds' ``safe`` and ``mines``, are free there), and reads them
        while it chooses, not later.
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
        """A uniformly random unknown cell (a certain safe one first, should there be one).

        Reads only :attr:`Odds.safe` and :attr:`Position.unknown`: in a game neither is
        counted (see :func:`~mineshafted.probability.loop.play_out`)."""
        if odds.safe:
            return odds.safe[0]
        return rng.choice(position.unknown)


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


@dataclass(frozen=True)
class Best:
    """The default policy: the safe cells, judged by how safe the next guess will be.

    Each ingredient can be switched off, to measure what it adds
    (``scripts/bench_play.py --ablation``).

    1. **Tolerance.** The candidates are the cells at least ``1 - tolerance`` times as safe
       as the safest one (``tolerance=0``: only the safest).
    2. **Corners and edges.** Of equally likely candidates, those with the fewest unknown
       neighbours come first (corners, then edges, then cells by a clue): they show a 0, and
       open a region, most often. With ``corners=False`` equal candidates come in random
       order. Cells that no clue sees, with neighbours no clue sees, are alike when they
       have as many unknown and mined neighbours: one stands for all. At most ``width``
       candidates are examined further.
    3. **Look-ahead.** For each candidate and each clue it may show, the position after it
       is counted exactly (:func:`outlook`): the candidate with the best secondary safety
       (the chance of surviving it, times how safe the best next guess is) wins. A
       candidate that can show only one clue (dead: it tells nothing) comes last. A
       candidate whose safety cannot reach the best secondary safety so far is dropped
       unexamined, and so is one whose remaining clues cannot. With ``lookahead=False`` the
       candidate most likely to make progress wins instead.
    4. **Progress.** Between equal secondary safeties, the candidate more likely to decide
       another cell wins. With neither look-ahead nor progress the first candidate wins.
    5. **Endgame.** With at most :data:`~mineshafted.probability.endgame.PLACEMENTS`
       placements left, the reveal that wins most often, found by searching every sequence
       of reveals against every placement (:func:`~mineshafted.probability.best_reveal`);
       the steps above only when that search is too big.
    6. **Fifty-fifty.** Two cells that hold one mine between them and that no cell can ever
       tell apart (every other neighbour of only one of them is a known mine or off the
       board) must be guessed some time: guess one now, before any avoidable risk, since
       its clue may help elsewhere.

    Ties are broken by the random order.

    Examples
    --------
    >>> Best().name, Best(progress=False).name, Best(tolerance=0.0, endgame=False).name
    ('best', 'best-progress', 'best-tolerance-endgame')

    Notes
    -----
    Cost: up to ``width`` candidates x (their unknown neighbours + 1) clue values, each a
    :func:`~mineshafted.solver.combine` of the position's components with the one the
    candidate touches counted anew (the others' counts are reused); the endgame search is
    bounded by its own limits.
    """

    tolerance: float = 0.1
    """Candidates are at least ``1 - tolerance`` times as safe as the safest cell."""
    corners: bool = True
    lookahead: bool = True
    progress: bool = True
    endgame: bool = True
    fifty: bool = True
    width: int = 12
    """How many candidates are counted at most."""

    @property
    def name(self) -> str:
        """``best``, with ``-ingredient`` for each one switched off."""
        off = [
            ingredient
            for ingredient, on in (
                ("tolerance", self.tolerance > 0),
                ("corners", self.corners),
                ("lookahead", self.lookahead),
                ("progress", self.progress),
                ("endgame", self.endgame),
                ("fifty", self.fifty),
            )
            if not on
        ]
        return "-".join([PolicyName.BEST.value, *off])

    def choose(
        self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random
    ) -> Cell:
        """The endgame's reveal, or the candidate with the best secondary safety (see the
        class)."""
        if odds.safe:
            return odds.safe[0]
        total = odds.placements
        if self.endgame and total <= PLACEMENTS:  # pragma: no mutate - the limit's exact value
            found = best_reveal(position, board, odds.mines_left)
            if found is not None:
                return found.cell
        if self.fifty:
            pair = _fifty_fifty(position, board)
            if pair is not None:
                return pair
        cells = self._candidates(position, odds, board, rng)
        if len(cells) == 1 or not (self.progress or self.lookahead):
            return cells[0]
        floor = Fraction(-1)
        looks: list[Outlook] = []
        for cell in cells:
            look = _outlook(position, odds, board, cell, floor if self.lookahead else None)
            if look is None:
                continue
            looks.append(look)
            if not look.dead:
                floor = max(floor, look.lookahead)
        order = {cell: rank for rank, cell in enumerate(cells)}
        if self.lookahead:
            looks.sort(
                key=lambda look: (
                    look.dead,
                    -look.lookahead,
                    -look.progress if self.progress else 0,
                    order[look.cell],
                )
            )
        else:
            looks.sort(key=lambda look: (-look.progress, -look.safe, order[look.cell]))
        return looks[0].cell

    def _candidates(
        self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random
    ) -> list[Cell]:
        """The cells safe enough to examine, in order (steps 1 and 2 of the class)."""
        total = odds.placements
        least = min(odds.mined.values())
        # Exact: total - mined >= (1 - tolerance) (total - least).
        cut = Fraction(self.tolerance).limit_denominator(10**6)
        limit = least + (total - least) * cut.numerator // cut.denominator
        cells = [cell for cell, mined in odds.mined.items() if mined <= limit]
        rng.shuffle(cells)
        rows, cols = len(board), len(board[0])
        neighbours = Geometry(rows, cols).neighbour_table()
        if self.corners:
            cells.sort(key=lambda c: (odds.mined[c], _hidden(neighbours[c], odds.mined)))
        else:
            cells.sort(key=lambda c: odds.mined[c])
        free = set(position.unconstrained)
        alike: set[tuple[int, int, int]] = set()
        kept: list[Cell] = []
        for cell in cells:
            key = _isolated(cell, neighbours[cell], free, board, cols)
            if key is not None:
                if (odds.mined[cell], *key) in alike:
                    continue
                alike.add((odds.mined[cell], *key))
            kept.append(cell)
            if len(kept) == self.width:
                break
        return kept


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
    >>> policy_named("best-corners-endgame")
    Best(tolerance=0.1, corners=False, lookahead=True, progress=True, endgame=False, fifty=True, \
width=12)
    """
    text = str(name)
    head, dash, rest = text.partition("-")
    try:
        which = PolicyName(head)
    except ValueError:
        which = None
    if which is PolicyName.BEST:
        off = set(rest.split("-")) if dash else set()
        unknown = off - set(INGREDIENTS)
        if not unknown:
            return Best(
                tolerance=0.0 if "tolerance" in off else Best.tolerance,
                corners="corners" not in off,
                lookahead="lookahead" not in off,
                progress="progress" not in off,
                endgame="endgame" not in off,
                fifty="fifty" not in off,
            )
    elif which is not None and not dash:
        return Safest() if which is PolicyName.SAFEST else RandomGuess()
    raise ValueError(f"no policy is called {text!r}: choose one of {', '.join(PolicyName)}")


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
    found = _outlook(position, odds, board, cell, None)
    assert found is not None  # no floor: never dropped
    return found


def _outlook(
    position: Position,
    odds: Odds,
    board: PartialGrid,
    cell: Cell,
    floor: Fraction | None,
) -> Outlook | None:
    """:func:`outlook`, or ``None`` as soon as the secondary safety cannot reach ``floor``."""
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
    kept_counts = [counted(tuple(component)) for component in kept]
    free = [c for c in position.unconstrained if c not in near]
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
    for extra in range(len(hidden) + 1):
        constraints = [*touched, (hidden, extra)] if hidden else list(touched)
        if any(not scope and mines for scope, mines in constraints):
            continue
        constraints = [(scope, mines) for scope, mines in constraints if scope]
        counts = list(kept_counts)
        counts.extend(counted(tuple(part)) for part in components(constraints))
        try:
            after = combine(counts, free, odds.mines_left)
        except NoPlacementError:
            continue
        by_clue[known + extra] = Fraction(after.placements, total)
        safety, decides = _glance(after)
        if decides:
            progress += after.placements
        ahead += safety
        unseen -= after.placements
        if least is not None and ahead + 5 * unseen < least:
            return None
    return Outlook(
        cell,
        safe=Fraction(safe, total),
        progress=Fraction(progress, total),
        lookahead=Fraction(ahead, 5 * total),
        by_clue=by_clue,
    )


def _fifty_fifty(position: Position, board: PartialGrid) -> Cell | None:
    """A cell of an unavoidable 50/50, if the position has one: two cells holding exactly
    one mine that no cell can ever tell apart, because every other neighbour of only one of
    them is a known mine or off the board."""
    rows, cols = len(board), len(board[0])
    neighbours = Geometry(rows, cols).neighbour_table()
    for component in position.components:
        for scope, mines in component:
            if len(scope) != 2 or mines != 1:
                continue
            a, b = scope
            only = set(neighbours[a]) ^ set(neighbours[b])
            only.discard(a)
            only.discard(b)
            if all(board[n // cols][n % cols] == -1 for n in only):
                return a
    return None


def _glance(after: Tally) -> tuple[int, bool]:
    """One pass over a counted position: ``placements x (4 s1 + s2)`` for its two safest
    cells ``s1`` and ``s2`` (a cell decided safe is certain; 1 when no cell is left to guess),
    and whether it decides any cell."""
    total = after.placements
    first = second = total
    decides = False
    for mined in after.mined.values():
        if mined == total:
            decides = True
        elif mined < second:
            if mined < first:
                first, second = mined, first
            else:
                second = mined
    if first == total:
        return 5 * total, decides
    decides = decides or first == 0
    if second == total:
        second = first
    return 4 * (total - first) + (total - second), decides


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


def _hidden(around: Sequence[Cell], unknown: Container[Cell]) -> int:
    """How many of the cells ``around`` are unknown."""
    return sum(1 for n in around if n in unknown)


def _stall() -> Position:
    """A small stall for the examples: ``0 1 1 / 1 ? ?`` with one mine."""
    # No mutate: the examples' policies do not read the position.
    return Position([[0, 1, 1], [1, None, None]], [[((4, 5), 1)]], [], 0)  # pragma: no mutate
