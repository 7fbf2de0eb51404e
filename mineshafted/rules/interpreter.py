"""SmartSweeper: playing a board by a rule file, with the original's restart-from-the-top order.

The patterns themselves (laid out for the board, matched on the view of squares) are
:mod:`mineshafted.rules.patterns`; this module plays: it keeps every rule's matches up to date
as squares change, fires the first, guesses when none applies, and keeps the score.

Glossary
--------
centre
    The square a pattern is centred on; squares are tried top to bottom, then left to
    right, rules in file order, and after every rule that fires the search starts again from
    the first rule and the upper-left corner.
free guess
    When no rule applies, the interpreter (which knows the board) clicks an unknown square
    that is not a mine, chosen at random (seeded), and counts it.
stuck
    A rule whose action changes nothing at a square: reported once and skipped there from
    then on (the original would loop forever). Its action can never change anything there
    again: the squares it acts on are no longer unknown, and a square never becomes unknown.
"""

from __future__ import annotations

import logging
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from ..board import Board, Cell
from ..game import AfterMine, FirstMove, Game, GameRecord, GameStatus, Rules
from .deadline import Deadline, OutOfTime
from .state import Echo, State
from .syntax import Ruleset

__all__ = ["DEFAULT_TIME_LIMIT", "Finish", "Play", "play"]

log = logging.getLogger(__name__)

DEFAULT_TIME_LIMIT: Final = 30.0
"""Seconds allowed per board, as in PatternEval."""


class Finish(StrEnum):
    """How a board's play ended."""

    WON = "won"
    LOST = "lost"
    TIMEOUT = "timeout"


@dataclass
class Play:
    """One board played by a ruleset: how it ended and what it took.

    ``clicked`` counts the non-mine squares revealed (by rules, expansion and guesses);
    ``remaining`` the non-mine squares still hidden at the end.
    """

    finish: Finish
    clicked: int
    guesses: int
    remaining: int
    seconds: float
    time_limit: float
    fired: Counter[str] = field(default_factory=Counter)
    """How many times each rule fired (changed the board)."""
    stuck: list[tuple[str, Cell]] = field(default_factory=list)
    """Each rule and square found to change nothing."""
    lost_to: str | None = None
    """The rule (or "free guess") whose move lost the game."""
    record: GameRecord | None = None
    """The game's record: each click and mark with the rule (or free guess) that made it."""

    @property
    def score(self) -> float:
        """PatternEval's score: ``C - G + T`` when won in time, otherwise ``-R - G``.

        ``T`` is the fraction of the time limit left.

        Examples
        --------
        >>> Play(Finish.WON, 10, 2, 0, 3.0, 30.0).score
        8.9
        >>> Play(Finish.LOST, 10, 2, 5, 3.0, 30.0).score
        -7
        """
        if self.finish is Finish.WON:
            spare = max(0.0, 1.0 - self.seconds / self.time_limit) if self.time_limit else 0.0
            return self.clicked - self.guesses + spare
        return -self.remaining - self.guesses


def play(
    ruleset: Ruleset,
    board: Board,
    *,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
    auto_expand: bool = True,
    debug: int = 0,
    echo: Echo | None = None,
    naive: bool = False,
    clock: Callable[[], float] = time.perf_counter,
) -> Play:
    """Play ``board`` with ``ruleset`` until it is won, lost or out of time.

    Parameters
    ----------
    ruleset : Ruleset
        The rules, tried in order.
    board : Board
        The hidden board; play starts with nothing revealed.
    seed : int
        Seeds the free guesses: the same seed gives the same game.
    time_limit : float
        Seconds before the board counts as timed out.
    auto_expand : bool
        Reveal the neighbours of a revealed zero, as Windows Minesweeper does.
    debug : int
        PatternEval's level: 3 prints the board whenever no rule applies, 4 each rule that
        fires, 5 the board after each, 6 each rule tried at each square and why it failed.
    echo : callable, optional
        Receives the debug lines; they go to the log when omitted.
    naive : bool
        Rescan every rule at every square after each move, as the original did, instead of
        only what can have changed. Same moves; level 6 always scans this way.
    clock : callable
        Seconds, for the time limit (tests pass a fake one). The clock starts before the
        board is laid out and is looked at inside matching (every few matches), so the limit
        bounds the whole play, the first scan of every rule at every square included, and
        ``seconds`` is the time the play actually took.

    Returns
    -------
    Play
        How the game ended, squares clicked and remaining, guesses, seconds, rule usage.

    Examples
    --------
    >>> from mineshafted.rules.parser import parse_rules
    >>> board = Board.from_text('''
    ...     . . . .
    ...     . . . .
    ...     * . . *
    ... ''')
    >>> result = play(Ruleset(()), board, seed=1)
    >>> result.finish.value, result.clicked, result.remaining
    ('won', 10, 0)

    Notes
    -----
    A first scan tries every rule at every square: ``O(rules * cells * n^2)``. After a move
    only squares whose window holds a changed square are matched again, and conditions that
    read a board-wide total are re-checked wherever their pattern matches; the first firing is
    the smallest square in the first rule with one, exactly the rule and square a full
    rescan from the top would find.
    """
    say: Echo = echo if echo is not None else log.debug
    started = clock()
    deadline = Deadline(clock, started + time_limit)
    game = Game.on(
        board,
        rules=Rules(FirstMove.NONE, auto_expand=auto_expand, after_mine=AfterMine.END),
        seed=seed,
    )
    rng = random.Random(seed)
    finish: Finish | None = None
    scan = naive or debug >= 6
    try:
        state = State(ruleset.rules, board, game, deadline, say=say, debug=debug)
        while finish is None:
            if game.status is GameStatus.WON:
                finish = Finish.WON
                break
            deadline.check()
            found = state.first_naive() if scan else state.first()
            if found is None:
                state.guess(rng)
            else:
                state.fire(*found)
            if state.lost:
                finish = Finish.LOST
    except OutOfTime:
        finish = Finish.TIMEOUT
    seconds = clock() - started
    safe = board.geometry.cells - board.mine_total
    if "state" not in locals():  # the first scan itself ran out of time: nothing was played
        return Play(finish, 0, 0, safe, seconds, time_limit, record=game.record)
    return Play(
        finish,
        state.clicked,
        state.guesses,
        safe - state.clicked,
        seconds,
        time_limit,
        state.fired,
        state.stuck_log,
        state.lost_to,
        game.record,
    )
