"""Play: one classic game played to its end by the sweep, with a policy for every guess.

Glossary
--------
start
    The first cell revealed: ``corner`` (row 0, column 0), ``centre``, or a cell given as
    ``R,C``.
first move
    What the rules keep free of mines at the start (:class:`~mineshafted.game.FirstMove`):
    ``safe`` the start cell, ``opening`` it and its neighbours (so it shows a 0).
guess
    A reveal at a stall, chosen by the policy; the game's record keeps it with its exact mine
    probability (as a float) and the policy's name.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from time import perf_counter
from typing import Any, ClassVar

from ..board import MINE, Cell, Geometry
from ..errors import IllegalMoveError, InvalidBoardError
from ..game import AfterMine, FirstMove, Game, GameRecord, Rules, View
from ..solver import Knowledge, Manager, Position, Sweep
from .odds import Odds, odds
from .policy import Policy, PolicyName, policy_named

__all__ = ["Guess", "Played", "Start", "check_game", "play_game", "play_out", "start_cell"]


class Start(StrEnum):
    """The named start cells; any cell may also be given as ``R,C``."""

    CORNER = "corner"
    """Row 0, column 0: Tu et al.'s rules."""
    CENTRE = "centre"
    """The middle cell (rounding down)."""


@dataclass(frozen=True)
class Guess:
    """One guess: the cell, its exact chance of a mine then, and whether it was one."""

    cell: Cell
    probability: Fraction | None
    """Exact; ``None`` when the game was played without counting it (the agents' games)."""
    hit: bool


@dataclass(frozen=True)
class Played:
    """How one game went."""

    won: bool
    guesses: tuple[Guess, ...]
    """Every guess, in order; the last one lost the game when :attr:`won` is False."""
    seconds: float = field(compare=False)
    """Wall-clock time of the whole game: sweep, odds and policy (not compared)."""
    record: GameRecord
    """The game's record: every reveal, guesses marked with their probability."""
    view: View
    """The board as it ended."""
    seed: int
    """The game's seed: the same seed, size, rules, start and policy replay the same game."""


def play_game(
    rows: int,
    cols: int,
    mines: int,
    *,
    seed: int,
    first: FirstMove = FirstMove.SAFE,
    start: Start | str | Cell = Start.CORNER,
    policy: Policy | PolicyName | str = PolicyName.BEST,
    record_odds: bool = False,
) -> Played:
    """Play one classic game (mine total known, zeros expand, a mine loses) to its end.

    The game is drawn from ``seed`` and played by :func:`play_out`: the sweep plays with the
    mine total; at each stall the policy picks a cell, the game records it as a guess with
    its probability, and the sweep goes on from it, until the board is cleared (won) or a
    guess hits a mine (lost).

    Parameters
    ----------
    rows, cols, mines:
        The board.
    seed:
        Draws the board and feeds the policy's random choices: the same seed, the same game.
    first:
        ``SAFE`` or ``OPENING`` (``NONE`` is allowed too: the start may then be a mine).
    start:
        ``corner``, ``centre``, ``"R,C"`` or a cell index.
    policy:
        A :class:`~mineshafted.probability.policy.Policy` or its name (default ``best``).
    record_odds:
        Keep every unknown cell's mine probability at each guess in the record (the reveal's
        ``detail["odds"]``), for a replay's heat map. Off by default: studies do not need it.

    Returns
    -------
    Played

    Raises
    ------
    InvalidBoardError
        The board has no cells, or the mines do not fit beside the first move's zone.
    IllegalMoveError
        The start is not a cell of the board.
    ValueError
        No policy has that name.

    Examples
    --------
    >>> played = play_game(9, 9, 10, seed=2)
    >>> played.won, [(guess.cell, guess.probability) for guess in played.guesses]
    (True, [(27, Fraction(1, 32))])
    >>> played == play_game(9, 9, 10, seed=2)
    True
    >>> from mineshafted.game import Reveal
    >>> [(e.cell, e.probability, e.reason) for e in played.record.events
    ...  if isinstance(e, Reveal) and e.guess]
    [(27, 0.03125, 'best guess')]

    Notes
    -----
    Each stall costs one count of the position (:func:`~mineshafted.probability.odds`) and
    the policy's choice; between stalls the sweep's own costs.
    """
    chooser = policy_named(policy) if isinstance(policy, str) else policy
    cell = start_cell(start, rows, cols)
    check_game(rows, cols, mines, first=first, start=cell)
    rules = Rules(first, auto_expand=True, after_mine=AfterMine.END, total_known=True)
    game = Game.draw(rows, cols, mines, rules=rules, seed=seed)
    rng = random.Random(f"policy:{seed}")
    began = perf_counter()
    guesses = play_out(game, chooser, rng, start=cell, record_odds=record_odds)
    seconds = perf_counter() - began
    return Played(game.won, tuple(guesses), seconds, game.record, game.view(), seed)


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
    flagger = _FlagFirst(game) if flag else None
    manager: Manager = flagger if flagger is not None else game.manager()
    sweep = Sweep(manager, start=start, mines=mines)
    if flagger is not None:
        flagger.knowledge = sweep.knowledge
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
        if event.hit:
            sweep.tell(cell, mine=True)
        else:
            sweep.guess(cell)
        report = sweep.advance()


def start_cell(start: Start | str | Cell, rows: int, cols: int) -> Cell:
    """The cell index of ``start`` on a ``rows`` x ``cols`` board.

    Raises
    ------
    IllegalMoveError
        ``start`` is not ``corner``, ``centre``, ``R,C`` or an index, or is off the board.

    >>> start_cell("corner", 16, 30), start_cell("centre", 16, 30), start_cell("3,3", 16, 30)
    (0, 255, 93)
    """
    if isinstance(start, int):
        if not 0 <= start < rows * cols:
            raise IllegalMoveError(f"start cell {start} is off the {rows}x{cols} board", cell=start)
        return start
    if start == Start.CORNER:
        return 0
    if start == Start.CENTRE:
        return (rows // 2) * cols + cols // 2
    parts = start.split(",")
    try:
        row, col = (int(part) for part in parts)
    except ValueError:
        raise IllegalMoveError(
            f"start {start!r} is not corner, centre or ROW,COL", cell=start
        ) from None
    if not (0 <= row < rows and 0 <= col < cols):
        raise IllegalMoveError(
            f"start {row},{col} is off the {rows}x{cols} board (rows 0..{rows - 1}, "
            f"columns 0..{cols - 1})",
            cell=start,
        )
    return row * cols + col


def check_game(rows: int, cols: int, mines: int, *, first: FirstMove, start: Cell) -> None:
    """Refuse a game that cannot be played: no cells, or mines that do not fit.

    Raises
    ------
    InvalidBoardError
        ``rows`` or ``cols`` is below 1, ``mines`` is negative, or more mines than the cells
        outside the first move's zone around ``start``.

    >>> check_game(3, 3, 1, first=FirstMove.OPENING, start=4)
    Traceback (most recent call last):
    ...
    mineshafted.errors.InvalidBoardError: 1 mines do not fit on a 3x3 board with an opening \
first move at row 1, column 1: at most 0
    """
    if rows < 1 or cols < 1:
        raise InvalidBoardError(f"a board needs at least 1 row and 1 column, not {rows}x{cols}")
    geometry = Geometry(rows, cols)
    zone = 0
    if first is FirstMove.SAFE:
        zone = 1
    elif first is FirstMove.OPENING:
        zone = 1 + len(geometry.neighbour_table()[start])
    room = rows * cols - zone
    if not 0 <= mines <= room:
        row, col = geometry.coords(start)
        raise InvalidBoardError(
            f"{mines} mines do not fit on a {rows}x{cols} board with {_article(first)} "
            f"first move at row {row}, column {col}: at most {room}"
        )


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


def _article(first: FirstMove) -> str:
    """``a safe`` / ``an opening`` / ``a none``: the first move named in a sentence."""
    return f"an {first.value}" if first.value[0] in "aeiou" else f"a {first.value}"
