"""Play: one classic game played to its end by the sweep, with a policy for every guess.

Glossary
--------
start
    The first cell revealed: ``corner`` (row 0, column 0), ``centre``, or a cell given as
    ``R,C``.
first move
    What the rules keep free of mines at the start (:class:`~mineshafted.game.FirstMove`):
    ``safe`` the start cell, ``opening`` it and its neighbours (so it shows a 0).
given board
    A board played exactly as it is (:func:`play_board`): no mine is drawn or moved, so its
    start must already be what the first move promises.
guess
    A reveal at a stall, chosen by the policy; the game's record keeps it with its exact mine
    probability (as a float) and the policy's name.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum
from time import perf_counter

from ..board import MINE, Board, Cell, Geometry
from ..errors import IllegalMoveError, InvalidBoardError
from ..game import AfterMine, FirstMove, Game, GameRecord, Rules, View
from .loop import Guess, play_out
from .policy import Policy, PolicyName, policy_named

__all__ = [
    "Guess",
    "Played",
    "Start",
    "check_board",
    "check_game",
    "play_board",
    "play_game",
    "start_cell",
]
# Guess lives in .loop; it is named here too, where it was first.


class Start(StrEnum):
    """The named start cells; any cell may also be given as ``R,C``."""

    CORNER = "corner"
    """Row 0, column 0: Tu et al.'s rules."""
    CENTRE = "centre"
    """The middle cell (rounding down)."""


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
    flag: bool = False,
) -> Played:
    """Play one classic game (mine total known, zeros expand, a mine loses) to its end.

    The game is drawn from ``seed`` and played by the one game loop
    (:func:`~mineshafted.probability.loop.play_out`): the sweep plays with the mine total; at
    each stall the policy picks a cell, the game records it as a guess with its probability,
    and the sweep goes on from it, until the board is cleared (won) or a guess hits a mine
    (lost).

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
    flag:
        Flag each mine as soon as the sweep proves it, as a player marks what they know (the
        final :attr:`Played.view` shows them): for a game shown, not for studies, since it
        costs a scan of the board whenever a mine is proven. The moves are the same.

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
    game = Game.draw(rows, cols, mines, rules=_classic(first), seed=seed)
    return _played(game, chooser, seed, cell, record_odds=record_odds, flag=flag)


def play_board(
    board: Board,
    *,
    start: Cell,
    seed: int,
    first: FirstMove = FirstMove.SAFE,
    policy: Policy | PolicyName | str = PolicyName.BEST,
    record_odds: bool = False,
    flag: bool = False,
) -> Played:
    """Play one classic game on a given board, exactly as it is, to its end.

    As :func:`play_game`, but no mine is drawn or moved: the game is ``board`` from its first
    reveal at ``start``. The policy sees what any player sees (the clues revealed and the mine
    total), never ``board`` itself.

    Parameters
    ----------
    board:
        The mines and clues.
    start:
        The first reveal, a cell index (:func:`start_cell` makes one of ``R,C``).
    seed:
        Feeds the policy's random choices only: the same board and seed, the same game.
    first:
        What the rules promise of the first reveal, which ``board`` must already keep
        (:func:`check_board`): ``SAFE`` (or ``NONE``) or ``OPENING``.
    policy, record_odds, flag:
        As :func:`play_game`.

    Returns
    -------
    Played
        Its record names ``board``'s mines (``record.header.layout``).

    Raises
    ------
    IllegalMoveError
        The start is off the board, a mine, or (``OPENING``) not a 0.
    ValueError
        No policy has that name.

    Examples
    --------
    >>> board = Board.from_text('''
    ...     . . . .
    ...     . . * .
    ...     . . . .
    ... ''')
    >>> played = play_board(board, start=0, seed=0)
    >>> played.won, played.guesses, played.record.header.layout
    (True, (), (6,))

    Notes
    -----
    As :func:`play_game`.
    """
    chooser = policy_named(policy) if isinstance(policy, str) else policy
    check_board(board, first=first, start=start)
    game = Game.on(board, rules=_classic(first), seed=seed)
    return _played(game, chooser, seed, start, record_odds=record_odds, flag=flag)


def check_board(board: Board, *, first: FirstMove, start: Cell) -> None:
    """Refuse a given board whose first reveal ``start`` is not what ``first`` promises.

    Raises
    ------
    IllegalMoveError
        ``start`` is not a cell of ``board``, is a mine, or, under an opening first move,
        is not a 0 (a mine is beside it).

    Examples
    --------
    >>> board = Board.from_text('''
    ...     . . .
    ...     . * .
    ... ''')
    >>> check_board(board, first=FirstMove.OPENING, start=0)
    Traceback (most recent call last):
    ...
    mineshafted.errors.IllegalMoveError: the first reveal [0, 0] shows 1, not 0: an opening \
first move needs a 0
    """
    geometry = board.geometry
    if type(start) is not int or not 0 <= start < geometry.cells:
        raise IllegalMoveError(
            f"the first reveal {start!r} is not a cell of the {geometry.rows}x{geometry.cols} "
            f"board (0..{geometry.cells - 1})",
            cell=start,
        )
    row, col = geometry.coords(start)
    value = board.values[start]
    if value == MINE:
        raise IllegalMoveError(f"the first reveal [{row}, {col}] is a mine", cell=start)
    if first is FirstMove.OPENING and value != 0:
        raise IllegalMoveError(
            f"the first reveal [{row}, {col}] shows {value}, not 0: an opening first move "
            "needs a 0",
            cell=start,
        )


def _classic(first: FirstMove) -> Rules:
    """Classic rules under ``first``: zeros expand, a mine ends the game, the total shown."""
    return Rules(first, auto_expand=True, after_mine=AfterMine.END, total_known=True)


def _played(
    game: Game, policy: Policy, seed: int, start: Cell, *, record_odds: bool, flag: bool
) -> Played:
    """``game`` played from ``start`` to its end by the one game loop, timed."""
    rng = random.Random(f"policy:{seed}")
    began = perf_counter()
    guesses = play_out(game, policy, rng, start=start, record_odds=record_odds, flag=flag)
    seconds = perf_counter() - began
    return Played(game.won, tuple(guesses), seconds, game.record, game.view(), seed)


def start_cell(start: Start | str | Cell, rows: int, cols: int) -> Cell:
    """The cell index of ``start`` on a ``rows`` x ``cols`` board.

    Raises
    ------
    IllegalMoveError
        ``start`` is not ``corner``, ``centre``, ``R,C`` or an index, or is off the board.

    Examples
    --------
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

    Examples
    --------
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


def _article(first: FirstMove) -> str:
    """``a safe`` / ``an opening`` / ``a none``: the first move named in a sentence."""
    return f"an {first.value}" if first.value[0] in "aeiou" else f"a {first.value}"
