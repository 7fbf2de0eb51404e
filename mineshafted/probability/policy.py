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
progress, look-ahead, dead
    What revealing a candidate may show: see :mod:`.lookahead`.
endgame
    A position with few placements left, where best play is found by exhaustive search
    (:mod:`.endgame`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any, Protocol

from ..board import Cell, Geometry, PartialGrid
from ..solver import Position, Tally
from .endgame import NODES, PLACEMENTS, best_reveal
from .fifties import influence, pseudo
from .lookahead import Outlook, afters, bounded_outlook
from .odds import Odds

__all__ = [
    "INGREDIENTS",
    "Best",
    "Policy",
    "PolicyName",
    "RandomGuess",
    "Safest",
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
       of reveals against every placement (:func:`~mineshafted.probability.best_reveal`);
       the steps above only when that search is too big.
    6. **Fifty-fifty.** Two cells that hold one mine between them and that no cell can ever
       tell apart (every other neighbour of only one of them is a known mine or off the
       board) must be guessed some time: guess one now, before any avoidable risk, since
       its clue may help elsewhere.

    Seven more ingredients are off by default (none was measured to win more games; see
    ``docs/benchmarks.md``), switched on with :meth:`using` or a ``best+ingredient`` name:

    7. **Uncapped.** The candidates within the tolerance are not capped at ``width``: they
       are examined safest first while their safety can still reach the best secondary
       safety found so far.
    8. **Bound.** Every cell is a candidate, neither cut by the tolerance nor capped at
       ``width``: examined safest first while its safety can still reach the best
       secondary safety found so far (a cell's secondary safety is at most its safety).
    9. **Deep.** The endgame searches positions of up to :data:`DEEP_PLACEMENTS`
       placements, within :data:`DEEP_NODES` nodes.
    10. **Two-step.** The leading candidates (at most :data:`LEADERS`, within
        :data:`CLOSE` of the best secondary safety) are ranked two guesses deep: for each
        clue, the best secondary safety of the position after it.
    11. **Pseudo.** After step 6: a pseudo fifty-fifty (:func:`~.fifties.pseudo`), a cell
        that in every placement with a mine on it is the mine of a fifty-fifty to come
        (beside a cell no clue can tell it from), is guessed before any avoidable risk: a
        winner pays that risk anyway, now or later.
    12. **Long-term.** A candidate's risk is counted less its influence
        (:func:`~.fifties.influence`: the placements in which it is the mine of a
        fifty-fifty to come, risk a winner pays anyway): in choosing the candidates and in
        their secondary safety.
    13. **Blend.** Candidates are ranked by their secondary safety times
        ``1 + BLEND x P(progress)`` instead of by secondary safety with progress as the
        tie-break: a candidate a little less safe two guesses deep but much likelier to
        decide other cells can win.

    Ties are broken by the random order.

    Examples
    --------
    >>> Best().name, Best(progress=False).name, Best(tolerance=0.0, endgame=False).name
    ('best', 'best-progress', 'best-tolerance-endgame')
    >>> Best(deep=True, fifty=False).name
    'best-fifty+deep'

    Notes
    -----
    Cost: up to ``width`` candidates x (their unknown neighbours + 1) clue values, each a
    :func:`~mineshafted.solver.combine` of the position's components with the one the
    candidate touches counted anew (the others' counts are reused); the endgame search is
    bounded by its own limits. The bound may examine every unknown cell (at most
    :data:`WIDE`); the two-step look-ahead adds up to :data:`LEADERS` x 9 positions x
    :data:`AFTER_WIDTH` candidates' look-ahead.
    """

    tolerance: float = 0.1
    """Candidates are at least ``1 - tolerance`` times as safe as the safest cell."""
    corners: bool = True
    lookahead: bool = True
    progress: bool = True
    endgame: bool = True
    fifty: bool = True
    uncapped: bool = False
    """The candidates within the tolerance are not capped at ``width``: examined safest
    first while their safety can still reach the best secondary safety so far."""
    bound: bool = False
    """Candidates are neither cut by the tolerance nor capped at ``width``: every cell is
    one, examined in order of safety while its safety can still reach the best secondary
    safety found so far (the secondary safety of a cell is at most its safety)."""
    deep: bool = False
    """The endgame searches up to :data:`DEEP_PLACEMENTS` placements and
    :data:`DEEP_NODES` nodes instead of the shallow limits."""
    twostep: bool = False
    """The leading candidates (at most :data:`LEADERS`) are ranked by a look-ahead two
    guesses deep (:func:`_two_step`)."""
    pseudo: bool = False
    """A pseudo fifty-fifty is guessed before any avoidable risk (:func:`.fifties.pseudo`)."""
    longterm: bool = False
    """Candidates are chosen and ranked by their risk less their influence
    (:func:`.fifties.influence`)."""
    blend: bool = False
    """Candidates are ranked by secondary safety times ``1 +`` :data:`BLEND` ``x
    P(progress)``."""
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
        >>> Best.using("bound", "deep") == Best(bound=True, deep=True)
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
        >>> Best.without("fifty").switched(["deep"], on=True) == Best(fifty=False, deep=True)
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
        if odds.safe:
            return odds.safe[0]
        total = odds.placements
        limit, nodes = (DEEP_PLACEMENTS, DEEP_NODES) if self.deep else (PLACEMENTS, NODES)
        if self.endgame and total <= limit:  # pragma: no mutate - the limit's exact value
            found = best_reveal(position, board, odds.mines_left, placements=limit, nodes=nodes)
            if found is not None:
                return found.cell
        if self.fifty:
            pair = _fifty_fifty(position, board)
            if pair is not None:
                return pair
        if self.pseudo:
            cell = pseudo(position, odds, board)
            if cell is not None:
                return cell
        paid = influence(position, odds, board) if self.longterm else {}
        cells = self._candidates(position, odds, board, rng, paid)
        if len(cells) == 1 or not (self.progress or self.lookahead):
            return cells[0]
        # The floor is the best score so far; a score is at most ``scale`` times the
        # secondary safety, which is at most the safety (plus the influence, step 12).
        scale = 1 + BLEND if self.blend else Fraction(1)
        floor = Fraction(-1)
        looks: list[Outlook] = []
        for cell in cells:
            bonus = Fraction(paid.get(cell, 0), total)
            if (self.bound or self.uncapped) and scale * (
                total - odds.mined[cell] + paid.get(cell, 0)
            ) < floor * total:
                break  # candidates come safest first: none after can reach the floor
            look = bounded_outlook(
                position, odds, board, cell, floor / scale - bonus if self.lookahead else None
            )
            if look is None:
                continue
            if bonus:
                look = replace(look, lookahead=look.lookahead + bonus)
            looks.append(look)
            if not look.dead:
                floor = max(floor, self._score(look))
        order = {cell: rank for rank, cell in enumerate(cells)}
        if self.lookahead:
            looks.sort(
                key=lambda look: (
                    look.dead,
                    -self._score(look),
                    -look.progress if self.progress else 0,
                    order[look.cell],
                )
            )
            if self.twostep:
                return _two_step(position, odds, board, looks, self)
        else:
            looks.sort(key=lambda look: (-look.progress, -look.safe, order[look.cell]))
        return looks[0].cell

    def _score(self, look: Outlook) -> Fraction:
        """What a candidate is ranked by: its secondary safety, times ``1 + BLEND x
        P(progress)`` with the blend (step 13)."""
        if self.blend:
            return look.lookahead * (1 + BLEND * look.progress)
        return look.lookahead

    def _candidates(
        self,
        position: Position,
        odds: Odds,
        board: PartialGrid,
        rng: random.Random,
        paid: dict[Cell, int] | None = None,
    ) -> list[Cell]:
        """The cells safe enough to examine, in order (steps 1 and 2 of the class); a cell's
        risk less its ``paid`` placements (step 12)."""
        total = odds.placements
        risk = odds.mined if not paid else {c: m - paid.get(c, 0) for c, m in odds.mined.items()}
        least = min(risk.values())
        # Exact: total - mined >= (1 - tolerance) (total - least).
        cut = Fraction(1 if self.bound else self.tolerance).limit_denominator(10**6)
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
        alike: set[tuple[int, int, int]] = set()
        kept: list[Cell] = []
        for cell in cells:
            key = _isolated(cell, neighbours[cell], free, board, cols)
            if key is not None:
                if (risk[cell], *key) in alike:
                    continue
                alike.add((risk[cell], *key))
            kept.append(cell)
            if len(kept) == (WIDE if self.bound or self.uncapped else self.width):
                break
        return kept


BLEND = Fraction(1, 10)
"""With the blend, a candidate's secondary safety is multiplied by ``1 + BLEND x
P(progress)``."""
LEADERS = 2
"""How many of the leading candidates the two-step look-ahead ranks anew."""
CLOSE = Fraction(98, 100)
"""A candidate leads when its secondary safety is at least this share of the best one's."""
AFTER_WIDTH = 4
"""How many candidates of each position after a leader the two-step look-ahead examines."""
WIDE = 200
"""With the bound, the candidates examined at most (a guard on the cost, rarely reached)."""
DEEP_PLACEMENTS = 4000
"""The deep endgame searches positions of at most this many placements."""
DEEP_NODES = 100_000
"""The deep endgame's node budget."""

INGREDIENTS = tuple(f.name for f in fields(Best) if f.name != "width")
"""The ingredients of :class:`Best` that can be switched off: its fields but ``width``, in the
order of its name (the one list of them)."""


def policy_named(name: str | PolicyName) -> Policy:
    """The policy called ``name``: ``best``, ``safest`` or ``random``.

    ``best`` followed by ``-ingredient`` and ``+ingredient`` parts is :class:`Best` with
    those switched off and on (its :attr:`Best.name`), for measuring what each adds.

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
    >>> policy_named("best+bound-fifty") == Best(bound=True, fifty=False)
    True
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
    parts_of_best = (
        f" (best takes +INGREDIENT and -INGREDIENT parts: {', '.join(INGREDIENTS)})"
        if which is PolicyName.BEST
        else ""
    )
    raise ValueError(
        f"no policy is called {text!r}: choose one of {', '.join(PolicyName)}{parts_of_best}"
    )


def _two_step(
    position: Position, odds: Odds, board: PartialGrid, looks: list[Outlook], best: Best
) -> Cell:
    """Of the leading candidates (``looks`` ranked, the first :data:`LEADERS` not dead whose
    secondary safety is within :data:`CLOSE` of the best one's), the
    one whose look-ahead two guesses deep is highest; ties keep the ranking.

    A leader's two-step value: for each clue it may show, the chance of it (safe) times the
    best secondary safety of the position after it (its cells decided safe, else its own
    candidates, as ``best`` would pick them, at most :data:`AFTER_WIDTH`); a position with
    no cell left to guess counts 1.

    Notes
    -----
    Cost: per leader, up to 9 positions after it, each counted, and in each up to
    :data:`AFTER_WIDTH` candidates' look-ahead (up to 9 counts each): some hundreds of
    counts a leader, which is why only the leaders are examined.
    """
    top = looks[0].lookahead
    leaders = [look for look in looks[:LEADERS] if not look.dead and look.lookahead >= CLOSE * top]
    if len(leaders) < 2:
        return looks[0].cell
    total = odds.placements
    values: list[tuple[Fraction, int]] = []
    for rank, look in enumerate(leaders):
        value = Fraction(0)
        for after in afters(position, odds, board, look.cell):
            chance = Fraction(after.tally.placements, total)
            value += chance * _next_safety(after.position, after.tally, after.position.board, best)
        values.append((value, -rank))
    _, rank = max(values)
    return leaders[-rank].cell


def _next_safety(position: Position, tally: Tally, board: PartialGrid, best: Best) -> Fraction:
    """The best secondary safety of a position after a guess (1 when nothing is left to
    guess): over its cells decided safe, if any, else over its candidates."""
    chances = Odds(tally.mines_left, tally.placements, tally.mined)
    total = chances.placements
    open_cells = [cell for cell, mined in chances.mined.items() if mined < total]
    if not open_cells:
        return Fraction(1)
    safe = [cell for cell in open_cells if chances.mined[cell] == 0]
    if safe:
        cells = sorted(safe)[:AFTER_WIDTH]
    else:
        narrow = replace(best, width=AFTER_WIDTH, bound=False)
        cells = narrow._candidates(position, chances, board, random.Random(0))
    floor = Fraction(-1)
    top = Fraction(0)
    for cell in cells:
        if (total - chances.mined[cell]) < floor * total:
            break
        look = bounded_outlook(position, chances, board, cell, floor)
        if look is None:
            continue
        top = max(top, look.lookahead)
        if not look.dead:
            floor = max(floor, look.lookahead)
    return top


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
