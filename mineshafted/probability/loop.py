"""Loop: the one game loop, a sweep and a guessing policy playing a game to its end.

Classic play (:func:`~mineshafted.probability.play_game`) and the agents that sweep (``csp``,
``best``) play through :func:`play_out`.

Glossary
--------
stall
    Where the sweep, mine total included, decides nothing more: the policy is asked for a
    guess. The stall's position and odds are built the first time the policy reads them.
guess
    A reveal at a stall, chosen by the policy; the game's record keeps it (with its exact
    mine probability as a float, when the loop counts it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from ..board import MINE, Cell
from ..game import Game
from ..solver import Knowledge, Manager, Position, Sweep
from ..solver.recording import ReasonedManager
from .odds import Odds, odds
from .policy import Policy

__all__ = ["Guess", "play_out"]


@dataclass(frozen=True)
class Guess:
    """One guess: the cell, its exact chance of a mine then, and whether it was one."""

    cell: Cell
    probability: Fraction | None
    """Exact; ``None`` when the game was played without counting it (the agents' games)."""
    hit: bool


def play_out(
    game: Game,
    policy: Policy,
    rng: random.Random,
    *,
    start: Cell,
    flag: bool = False,
    probabilities: bool = True,
    reason: str | None = None,
    record_odds: bool = False,
    stages: bool = False,
) -> list[Guess]:
    """Play ``game`` to its end: the sweep deduces, and ``policy`` guesses at each stall.

    The one game loop of the package: classic play (:func:`play_game`) and the agents that
    sweep (``csp``, ``best``) both play through it. The sweep starts at ``start`` (revealed
    by its first move, or already revealed) with the mine total when the rules show it, and
    is told every mine already shown. At a stall the policy picks a cell; the game reveals it
    as a guess; a mine is told to the sweep (when play goes on after a mine), a safe cell is
    explored from; until the game is over or the sweep has decided every cell.

    Parameters
    ----------
    game:
        The game, not over; it may be under way.
    policy:
        Chooses each guess. Its ``odds`` are counted only when it reads them (the ``random``
        policy does not), and only when the rules show the mine total.
    rng:
        The policy's only source of chance.
    start:
        The cell the sweep starts from: a cell not yet revealed (the sweep's first move
        reveals it) or one revealed that is not a mine.
    flag:
        Flag every mine the sweep has proven before each move, and at the end (as the agents
        do; classic play does not flag).
    probabilities:
        Record each guess with its exact probability (the odds are then counted at every
        stall), as classic play does; without, a guess is recorded without one.
    reason:
        The reason recorded with each guess; by default ``"<policy name> guess"``.
    record_odds:
        Keep every unknown cell's probability at each guess in the record's ``detail``
        (needs ``probabilities``).
    stages:
        Record with each of the sweep's reveals the stage that proved its cell, and flag each
        proven mine with its stage before the next move
        (:class:`~mineshafted.solver.recording.ReasonedManager`), as the live environment's
        Watch shows them; ``flag`` is then implied.

    Returns
    -------
    list of Guess
        Every guess, in order, with its probability when ``probabilities`` is on.

    Raises
    ------
    ValueError
        The policy read the odds of a game whose rules keep the mine total hidden.

    Examples
    --------
    >>> from mineshafted.game import Rules
    >>> from mineshafted.probability import Safest
    >>> game = Game.draw(9, 9, 10, rules=Rules.CLASSIC, seed=2)
    >>> guesses = play_out(game, Safest(), random.Random(0), start=0)
    >>> game.over, [(g.cell, g.probability, g.hit) for g in guesses]
    (True, [(27, Fraction(1, 32), False)])

    Notes
    -----
    The sweep's own costs, plus at each stall the policy's choice and, when it or the record
    needs them, one count of the position (:func:`~mineshafted.probability.odds`).
    """
    mines = game.view().mines
    reasoned = ReasonedManager(game) if stages else None
    flagger = _FlagFirst(game) if flag and reasoned is None else None
    manager: Manager = reasoned or flagger or game.manager()
    sweep = Sweep(manager, start=start, mines=mines)
    if flagger is not None:
        flagger.knowledge = sweep.knowledge
    if reasoned is not None:
        reasoned.sweep = sweep
    for cell in range(game.geometry.cells):
        if game.shown(cell) == MINE:
            sweep.tell(cell, mine=True)
    label = reason if reason is not None else f"{policy.name} guess"
    guesses: list[Guess] = []
    try:
        report = sweep.advance()
    except RuntimeError:  # the start was a mine: possible only under FirstMove.NONE
        return guesses
    while True:
        if flagger is not None:
            flagger.flag_known()
        if reasoned is not None:
            reasoned.flag_news()
        if game.over or report.solved:
            return guesses
        position = _StallPosition(sweep)
        chances = _StallOdds(position, mines)
        cell = policy.choose(position, chances, report.board, rng)
        probability = chances.probability(cell) if probabilities else None
        detail = None
        if record_odds and probability is not None:
            detail = {"odds": {str(c): p for c, p in chances.floats().items()}}
        position.close()
        chances.close()
        event = game.reveal(
            cell,
            guess=True,
            probability=None if probability is None else float(probability),
            reason=label,
            detail=detail,
        )
        guesses.append(Guess(cell, probability, event.hit))
        if game.over:
            return guesses
        if reasoned is not None:
            for opened, _ in event.revealed:
                reasoned.border_around(opened)
        if event.hit:
            sweep.tell(cell, mine=True)
        else:
            sweep.guess(cell)
        report = sweep.advance()


class _Deferred:
    """Fields filled in by :meth:`_compute` the first time one of them is read, so that what
    a policy does not read is never computed; after :meth:`close` (the stall has passed)
    a field not yet read cannot be."""

    _fields: ClassVar[tuple[str, ...]]
    _closed: bool = False

    def close(self) -> None:
        """The stall has passed: the game has moved on from what the fields describe."""
        object.__setattr__(self, "_closed", True)

    def _compute(self) -> object:
        """An object holding the fields' values."""
        raise NotImplementedError  # pragma: no cover - every subclass computes its own

    def __getattr__(self, name: str) -> Any:
        """Compute the fields when one of them is first read.

        Raises
        ------
        RuntimeError
            The stall has passed: a policy reads its stall while it chooses, not later.
        """
        if name not in self._fields:
            raise AttributeError(name)
        if self._closed:
            raise RuntimeError(f"{name} of a stall read after the game moved on from it")
        done = self._compute()
        for known in self._fields:
            object.__setattr__(self, known, getattr(done, known))
        return getattr(done, name)


class _StallPosition(_Deferred, Position):
    """The position of a stalled sweep (:meth:`Sweep.position`), built when first read.

    Its board and its unknown cells are the sweep's report's: they cost nothing.
    """

    _fields = ("components", "unconstrained", "mines_found")
    _sweep: Sweep
    _undetermined: list[Cell]

    def __init__(self, sweep: Sweep) -> None:
        object.__setattr__(self, "_sweep", sweep)
        object.__setattr__(self, "board", sweep.report.board)
        object.__setattr__(self, "_undetermined", sweep.report.undetermined)

    @property
    def unknown(self) -> list[Cell]:
        """Every unknown cell, ascending: the sweep's undetermined cells at the stall."""
        return list(self._undetermined)

    def _compute(self) -> Position:
        """The sweep's position."""
        return self._sweep.position()


class _StallOdds(_Deferred, Odds):
    """The odds of a stall of the sweep, counted the first time a policy reads a count.

    No cell of a sweep's stall is certain (the sweep, with the mine total when known, decides
    every such cell before it stalls), so :attr:`safe` and :attr:`mines` are empty without
    counting.
    """

    _fields = ("mines_left", "placements", "mined")
    _stall: tuple[Position, int | None]

    def __init__(self, position: Position, mines: int | None) -> None:
        object.__setattr__(self, "_stall", (position, mines))

    @property
    def safe(self) -> list[Cell]:
        """None: the sweep explores every provably safe cell before it stalls."""
        return []

    @property
    def mines(self) -> list[Cell]:
        """None: the sweep flags every provably mined cell before it stalls."""
        return []

    def _compute(self) -> Odds:
        """The count of the stall.

        Raises
        ------
        ValueError
            The rules keep the mine total hidden: there are no exact odds.
        """
        position, mines = self._stall
        if mines is None:
            raise ValueError("no exact odds: the rules keep the mine total hidden")
        return odds(position, mines)


class _FlagFirst:
    """The game's manager, flagging every mine the sweep has proven before each move.

    A move may end the game (play continuing after a mine ends when the last safe cell is
    revealed); flagging first means no mine proven by then goes unflagged.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.inner = game.manager()
        self.size = self.inner.size
        self.knowledge: Knowledge | None = None
        self._proven = 0

    def move(self, index: int) -> int:
        """Flag the proven mines, then reveal ``index`` through the game's manager."""
        self.flag_known()
        return self.inner.move(index)

    def get_adjacent(self, index: int) -> list[int]:
        """The neighbours of ``index``."""
        return self.inner.get_adjacent(index)

    def flag_known(self) -> None:
        """Flag every proven mine not yet flagged or revealed (a scan only when there is news)."""
        if self.knowledge is None or self.game.over:
            return
        values = self.knowledge.values
        proven = values.count(MINE)
        if proven == self._proven:
            return
        self._proven = proven
        game, flags = self.game, self.game.flags
        for cell, value in enumerate(values):
            if value == MINE and cell not in flags and game.shown(cell) is None:
                game.flag(cell, reason="inferred mine")
