"""Guessing policies: which unknown cell to reveal when no cell is provably safe.

Kept whole though a little over 450 lines: the three policies and the names that choose them
are one noun; what ``best`` builds on lives in :mod:`.lookahead` (with :func:`alike`, still
importable here), :mod:`.endgame`, :mod:`.regions` and :mod:`.fifties`.

Glossary
--------
stall
    A position where the sweep, mine total included, decides nothing: every unknown cell has
    a mine in some placements and not in others. Only then is a policy asked.
safety
    The chance that a cell holds no mine.
candidate
    An unknown cell nearly as safe as the safest: within the policy's tolerance.
progress, look-ahead, dead
    What revealing a candidate may show: see :mod:`.lookahead`.
endgame
    A position with few placements left, where best play is found by exhaustive search
    (:mod:`.endgame`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any, Protocol

from ..board import Cell, Geometry, PartialGrid
from ..solver import Position
from .endgame import PLACEMENTS, Endgame, best_reveal, nodes_for
from .fifties import fifty_fifty
from .lookahead import Outlook, alike, bounded_outlook
from .odds import Odds
from .regions import region_reveal, regions

__all__ = [
    "INGREDIENTS",
    "Best",
    "Policy",
    "PolicyName",
    "RandomGuess",
    "Safest",
    "alike",
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

    Examples
    --------
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

    Examples
    --------
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
       is counted exactly (:func:`~.lookahead.outlook`): the candidate with the best
       secondary safety (the chance of surviving it, times how safe the best next guess is)
       wins. A candidate that can show only one clue (dead: it tells nothing) comes last.
       A candidate whose safety cannot reach the best secondary safety so far is dropped
       unexamined, and so is one whose remaining clues cannot. With ``lookahead=False`` the
       candidate most likely to make progress wins instead.
    4. **Progress.** Between equal secondary safeties, the candidate more likely to decide
       another cell wins. With neither look-ahead nor progress the first candidate wins.
    5. **Endgame.** With at most :data:`~mineshafted.probability.endgame.PLACEMENTS`
       placements left, the reveal that wins most often, found by searching every sequence
       of reveals against every placement (:func:`~mineshafted.probability.best_reveal`,
       within :func:`~mineshafted.probability.endgame.nodes_for` the board); the steps
       above only when that search is too big. Else, an isolated region (unknown
       cells no clue or neighbour links to the others) whose every placement holds the
       same number of mines is a game of its own: its best reveal, searched the same way
       (:func:`~mineshafted.probability.regions.region_reveal`), comes before the steps
       above; and when they choose a cell of an isolated region whose number of mines
       varies, the region's best reveal is played instead, its placements weighed by how
       many ways the rest of the board can hold the mines they leave.
    6. **Fifty-fifty.** Two cells that hold one mine between them and that no cell can ever
       tell apart (every other neighbour of only one of them is a known mine or off the
       board) must be guessed some time: guess one now, before any avoidable risk, since
       its clue may help elsewhere.

    Ties are broken by the random order: with
    :class:`~mineshafted.probability.optimal.scoring.FixedTies`, by the lowest cell.

    Examples
    --------
    >>> Best().name, Best(progress=False).name, Best(tolerance=0.0, endgame=False).name
    ('best', 'best-progress', 'best-tolerance-endgame')

    Notes
    -----
    Cost: up to ``width`` candidates x (their unknown neighbours + 1) clue values, each a
    :func:`~mineshafted.solver.combine` of the position's components with the one the
    candidate touches counted anew (the others' counts are reused); the endgame search is
    bounded by its own budget.
    """

    tolerance: float = 0.1
    """Candidates are at least ``1 - tolerance`` times as safe as the safest cell."""
    corners: bool = True
    lookahead: bool = True
    progress: bool = True
    endgame: bool = True
    fifty: bool = True
    width: int = 12
    """How many candidates are counted at most (a limit, not an ingredient)."""

    @classmethod
    def without(cls, *ingredients: str) -> Best:
        """The default policy with ``ingredients`` switched off: a tolerance of 0, the others
        ``False``.

        Raises
        ------
        ValueError
            One of them is not in :data:`INGREDIENTS`.

        Examples
        --------
        >>> Best.without("tolerance", "corners") == Best(tolerance=0.0, corners=False)
        True
        """
        return cls().switched(ingredients, on=False)

    @classmethod
    def using(cls, *ingredients: str) -> Best:
        """The default policy with ``ingredients`` switched on: a tolerance of 0.1, the
        others ``True``.

        Raises
        ------
        ValueError
            One of them is not in :data:`INGREDIENTS`.

        Examples
        --------
        >>> Best.without("fifty").switched(["fifty"], on=True) == Best()
        True
        """
        return cls().switched(ingredients, on=True)

    def switched(self, ingredients: Iterable[str], *, on: bool) -> Best:
        """This policy with ``ingredients`` switched on (a tolerance of 0.1, the others
        ``True``) or off (a tolerance of 0, the others ``False``).

        Raises
        ------
        ValueError
            One of them is not in :data:`INGREDIENTS`.

        Examples
        --------
        >>> Best.without("fifty", "corners").switched(["corners"], on=True) == Best(fifty=False)
        True
        """
        names = list(ingredients)
        unknown = set(names) - set(INGREDIENTS)
        if unknown:
            raise ValueError(f"Best has no ingredient {', '.join(sorted(unknown))}")
        tolerance = 0.1 if on else 0.0
        values: dict[str, Any] = {n: tolerance if n == "tolerance" else on for n in names}
        return replace(self, **values)

    @property
    def name(self) -> str:
        """``best``, with ``-ingredient`` for each one of the default's switched off and
        ``+ingredient`` for each one switched on that the default has off, in the fields'
        order."""
        # An ingredient is on when its value is positive: True, or a tolerance above 0.
        default = Best()
        parts = [PolicyName.BEST.value]
        for name in INGREDIENTS:
            on, usual = getattr(self, name) > 0, getattr(default, name) > 0
            if on != usual:
                parts.append(("+" if on else "-") + name)
        return "".join(parts)

    def choose(
        self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random
    ) -> Cell:
        """The endgame's reveal, or the candidate with the best secondary safety (see the
        class)."""
        searched = None if odds.safe else self.searched(position, odds, board)
        return self.choose_after(searched, position, odds, board, rng)

    def searched(self, position: Position, odds: Odds, board: PartialGrid) -> Endgame | None:
        """The endgame search's best reveal of the whole stall: when this policy searches (its
        ``endgame`` ingredient), the stall has at most
        :data:`~mineshafted.probability.endgame.PLACEMENTS` placements and the search
        finishes within :func:`~mineshafted.probability.endgame.nodes_for` the board;
        ``None`` otherwise."""
        if self.endgame and odds.placements <= PLACEMENTS:  # pragma: no mutate - the limit
            return best_reveal(position, board, odds.mines_left, nodes=nodes_for(board))
        return None

    def choose_after(
        self,
        searched: Endgame | None,
        position: Position,
        odds: Odds,
        board: PartialGrid,
        rng: random.Random,
    ) -> Cell:
        """:meth:`choose`, given what :meth:`searched` found at this position (for a caller
        that shows the search's figures too: the search, up to a second on a small board, runs
        once)."""
        if odds.safe:
            return odds.safe[0]
        if searched is not None:
            return searched.cell
        if self.fifty:
            pair = fifty_fifty(position, board)
            if pair is not None:
                return pair
        isolated = regions(position, board) if self.endgame else []
        if len(isolated) > 1:
            region = region_reveal(position, board, odds.mines_left, among=isolated)
            if region is not None:
                return region.cell
        cell = self._heuristic(position, odds, board, rng)
        if len(isolated) > 1:
            region = region_reveal(
                position, board, odds.mines_left, fixed=False, within=cell, among=isolated
            )
            if region is not None:
                return region.cell
        return cell

    def _heuristic(
        self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random
    ) -> Cell:
        """The candidate with the best secondary safety (steps 1-4 of the class)."""
        cells = self._candidates(position, odds, board, rng)
        if len(cells) == 1 or not (self.progress or self.lookahead):
            return cells[0]
        floor = Fraction(-1)
        looks: list[Outlook] = []
        for cell in cells:
            look = bounded_outlook(position, odds, board, cell, floor if self.lookahead else None)
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
        risk = odds.mined
        least = min(risk.values())
        # Exact: total - mined >= (1 - tolerance) (total - least).
        cut = Fraction(self.tolerance).limit_denominator(10**6)
        limit = least + (total - least) * cut.numerator // cut.denominator
        cells = [cell for cell, mined in risk.items() if mined <= limit]
        rng.shuffle(cells)
        rows, cols = len(board), len(board[0])
        neighbours = Geometry(rows, cols).neighbour_table()
        if self.corners:
            cells.sort(key=lambda c: (risk[c], _hidden(neighbours[c], odds.mined)))
        else:
            cells.sort(key=lambda c: risk[c])
        free = set(position.unconstrained)
        stood_for: set[tuple[int, int, int]] = set()  # (risk, alike key) of each kept
        kept: list[Cell] = []
        for cell in cells:
            key = alike(cell, neighbours[cell], free, board, cols)
            if key is not None:
                if (risk[cell], *key) in stood_for:
                    continue
                stood_for.add((risk[cell], *key))
            kept.append(cell)
            if len(kept) == self.width:
                break
        return kept


INGREDIENTS = tuple(f.name for f in fields(Best) if f.name != "width")
"""The ingredients of :class:`Best` that can be switched off: its fields but ``width``, in the
order of its name (the one list of them)."""

REMOVED = (
    "uncapped", "bound", "deep", "twostep", "pseudo", "longterm", "blend", "living", "pocket",
    "floating",
)  # fmt: skip
"""Ingredients :class:`Best` once had, off by default and measured to win no more games: they
left the library (their figures are in ``docs/benchmarks.md``, their code in commit
``5000a9a``, ``living``'s in ``2756e2b`` on the branch ``experiment/living``, ``pocket``'s
and ``floating``'s in ``70237ce`` on the branch ``experiment/jsm-rules``). A name that
switches one is refused with a word on why."""


def policy_named(name: str | PolicyName) -> Policy:
    """The policy called ``name``: ``best``, ``safest`` or ``random``.

    ``best`` followed by ``-ingredient`` and ``+ingredient`` parts is :class:`Best` with
    those switched off and on (its :attr:`Best.name`), for measuring what each adds. Every
    ingredient is on by default, so ``+`` parts change nothing today.

    Raises
    ------
    ValueError
        No policy has that name.

    Examples
    --------
    >>> policy_named("safest")
    Safest(name='safest')
    >>> policy_named("best-corners-endgame") == Best(corners=False, endgame=False)
    True
    >>> policy_named("best+deep")
    Traceback (most recent call last):
    ...
    ValueError: no policy is called 'best+deep': deep was removed from best (it won no more \
games; see docs/benchmarks.md); best's ingredients are tolerance, corners, lookahead, \
progress, endgame, fifty, each switched off by -NAME
    """
    text = str(name)
    head, *parts = re.split(r"(?=[-+])", text)
    try:
        which = PolicyName(head)
    except ValueError:
        which = None
    if which is PolicyName.BEST:
        off = {part[1:] for part in parts if part[0] == "-"}
        added = {part[1:] for part in parts if part[0] == "+"}
        named = off | added
        if not named - set(INGREDIENTS) and not off & added and len(named) == len(parts):
            return Best.without(*off).switched(added, on=True)
    elif which is not None and not parts:
        return Safest() if which is PolicyName.SAFEST else RandomGuess()
    if which is not PolicyName.BEST:
        raise ValueError(f"no policy is called {text!r}: choose one of {', '.join(PolicyName)}")
    gone = [part[1:] for part in parts if part[1:] in REMOVED]
    why = (
        f"{', '.join(gone)} {'was' if len(gone) == 1 else 'were'} removed from best (it won no "
        "more games; see docs/benchmarks.md)"
        if gone
        else "best takes -INGREDIENT parts"
    )
    raise ValueError(
        f"no policy is called {text!r}: {why}; best's ingredients are "
        f"{', '.join(INGREDIENTS)}, each switched off by -NAME"
    )


def _hidden(around: Sequence[Cell], unknown: Mapping[Cell, object]) -> int:
    """How many of the cells ``around`` are unknown."""
    return len(unknown.keys() & around)


def _stall() -> Position:
    """A small stall for the examples: ``0 1 1 / 1 ? ?`` with one mine."""
    # No mutate: the examples' policies do not read the position.
    return Position([[0, 1, 1], [1, None, None]], [[((4, 5), 1)]], [], 0)  # pragma: no mutate
