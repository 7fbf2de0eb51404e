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
from .conditions import holds
from .patterns import Fail, Pattern, Square, match
from .syntax import DefaultAction, Rule, Ruleset, SystemVariable

__all__ = ["DEFAULT_TIME_LIMIT", "Finish", "Play", "play"]

log = logging.getLogger(__name__)

DEFAULT_TIME_LIMIT: Final = 30.0
"""Seconds allowed per board, as in PatternEval."""

Echo = Callable[[str], None]
"""Where debug lines go (the command line passes its ``echo``)."""


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
    deadline = _Deadline(clock, started + time_limit)
    game = Game.on(
        board,
        rules=Rules(FirstMove.NONE, auto_expand=auto_expand, after_mine=AfterMine.END),
        seed=seed,
    )
    rng = random.Random(seed)
    finish: Finish | None = None
    scan = naive or debug >= 6
    try:
        state = _State(ruleset.rules, board, game, say, debug, deadline)
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
    except _OutOfTime:
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


class _OutOfTime(Exception):
    """The board's time limit passed: raised from inside matching, caught by :func:`play`."""


class _Deadline:
    """The moment a board's time is up, looked at every few matches (a clock read costs)."""

    EVERY: Final = 64
    """Matches between looks at the clock."""

    def __init__(self, clock: Callable[[], float], at: float) -> None:
        self.clock = clock
        self.at = at
        self.calls = 0

    def check(self) -> None:
        """Raise :class:`_OutOfTime` if the time is up."""
        if self.clock() > self.at:
            raise _OutOfTime

    def tick(self) -> None:
        """Count one match; look at the clock every :attr:`EVERY` of them."""
        self.calls += 1
        if self.calls % self.EVERY == 0:
            self.check()


class _State:
    """The view padded with off-board squares, each rule's matches, and the bookkeeping."""

    def __init__(
        self,
        rules: tuple[Rule, ...],
        board: Board,
        game: Game,
        say: Echo,
        debug: int,
        deadline: _Deadline,
    ) -> None:
        g = board.geometry
        self.deadline = deadline
        self.board = board
        self.game = game
        self.say = say
        self.debug = debug
        self.pad = max((r.radius for r in rules), default=0)
        self.stride = g.cols + 2 * self.pad
        p, s = self.pad, self.stride
        # The view holds plain ints (the codes' values): an enum member costs more to compare.
        self.view: list[int] = [int(Square.OFF_BOARD)] * (s * (g.rows + 2 * p))
        self.index = [(r + p) * s + (c + p) for r in range(g.rows) for c in range(g.cols)]
        hidden = int(Square.HIDDEN)
        for at in self.index:
            self.view[at] = hidden
        self.cell_at = {at: cell for cell, at in enumerate(self.index)}
        self.mines = board.mines
        self.safe_total = g.cells - board.mine_total
        self.marked = 0
        self.unknown = g.cells
        self.clicked = 0
        self.guesses = 0
        self.lost = False
        self.lost_to: str | None = None
        self.fired: Counter[str] = Counter()
        self.stuck_log: list[tuple[str, Cell]] = []
        self.rules = [Pattern(r, s) for r in rules]
        self.stuck: list[set[int]] = [set() for _ in rules]
        self.envs: list[dict[int, dict[str, int]]] = [{} for _ in rules]
        self.firing: list[set[int]] = [set() for _ in rules]
        for number, rule in enumerate(self.rules):
            first, accepts = rule.first
            for at in self.index:
                if self.view[at + first] in accepts:
                    self._update(number, at)

    # -- matching -------------------------------------------------------------------------

    def match(self, rule: Pattern, at: int) -> dict[str, int] | Fail:
        """The pattern's variables at ``at`` (a padded index), or why it does not match.

        Raises
        ------
        _OutOfTime
            The board's time is up (looked at every :attr:`_Deadline.EVERY` matches).
        """
        self.deadline.tick()
        return match(rule, self.view, at)

    def conditions(self, rule: Pattern, env: dict[str, int]) -> bool:
        """Whether the rule's conditions hold, the totals as they stand.

        Raises
        ------
        _OutOfTime
            The board's time is up (looked at before every evaluation: a condition may cost
            far more than a clock read).
        """
        if not rule.rule.conditions:
            return True
        self.deadline.check()
        if rule.uses_totals:
            mines_left = self.board.mine_total - self.marked
            env = {
                **env,
                SystemVariable.MINES_REMAINING: mines_left,
                SystemVariable.SAFE_REMAINING: self.unknown - mines_left,
            }
        return holds(rule.rule.conditions, env)

    def _update(self, number: int, at: int) -> None:
        """Match rule ``number`` again at ``at`` after its window changed."""
        rule = self.rules[number]
        env = self.match(rule, at)
        if isinstance(env, tuple):
            self.envs[number].pop(at, None)
            self.firing[number].discard(at)
            return
        self.envs[number][at] = env
        if at not in self.stuck[number] and self.conditions(rule, env):
            self.firing[number].add(at)
        else:
            self.firing[number].discard(at)

    def first(self) -> tuple[int, int] | None:
        """The first rule, and its first square, that applies (the bookkept way)."""
        for number, positions in enumerate(self.firing):
            if positions:
                return number, min(positions)
        return None

    def first_naive(self) -> tuple[int, int] | None:
        """The same, found by trying every rule at every square (level 6 tells each try)."""
        tell = self.debug >= 6
        for number, rule in enumerate(self.rules):
            for at in self.index:
                if at in self.stuck[number]:
                    if tell:
                        self.say(f"try {rule.rule.name} at {self._where(at)}: stuck there")
                    continue
                env = self.match(rule, at)
                if isinstance(env, tuple):
                    if tell:
                        why = rule.why(self.view, at, env)
                        self.say(f"try {rule.rule.name} at {self._where(at)}: {why}")
                    continue
                if not self.conditions(rule, env):
                    if tell:
                        self.say(f"try {rule.rule.name} at {self._where(at)}: a condition fails")
                    continue
                if tell:
                    self.say(f"try {rule.rule.name} at {self._where(at)}: matches")
                return number, at
        return None

    # -- moves ----------------------------------------------------------------------------

    def fire(self, number: int, at: int) -> None:
        """Apply rule ``number`` at ``at``: its pattern's actions, then its default action."""
        rule = self.rules[number]
        env = self.match(rule, at)
        assert not isinstance(env, tuple)
        name = rule.rule.name
        targets = list(rule.actions)
        if rule.rule.default is not DefaultAction.NONE:
            act = "M" if rule.rule.default is DefaultAction.MARK else "X"
            targets += [(off, act) for off in rule.stars]
        changed: list[int] = []
        hidden = int(Square.HIDDEN)
        for off, act in targets:
            target = at + off
            if self.view[target] != hidden:
                continue
            if act == "M":
                changed += self._mark(target, name)
            else:
                changed += self._click(target, name, guess=False)
            if self.lost:
                break
        if not changed:
            self.stuck[number].add(at)
            self.firing[number].discard(at)
            self.stuck_log.append((name, self.cell_at[at]))
            message = f"loop: {name} at {self._where(at)} changes nothing; skipped there"
            (self.say if self.debug >= 2 else log.info)(message)
            return
        self.fired[name] += 1
        if self.debug >= 4:
            self.say(f"fire {name} at {self._where(at)}")
        if self.debug >= 5:
            self.say(self.render())
        self._changed(changed)

    def guess(self, rng: random.Random) -> None:
        """Click a random unknown square that is not a mine, and count it."""
        hidden, view = int(Square.HIDDEN), self.view
        safe = [
            cell
            for cell, at in enumerate(self.index)
            if view[at] == hidden and cell not in self.mines
        ]
        cell = rng.choice(safe)
        self.guesses += 1
        if self.debug >= 3:
            self.say(f"no rule applies; free guess at {self._where(self.index[cell])}")
            self.say(self.render())
        self._changed(self._click(self.index[cell], "free guess", guess=True))

    def _click(self, at: int, name: str, *, guess: bool) -> list[int]:
        cell = self.cell_at[at]
        event = self.game.reveal(cell, guess=guess, reason=name)
        if event.hit:
            self.lost = True
            self.lost_to = name
            message = f"{name} clicked a mine at {self._where(at)}: lost"
            (self.say if self.debug >= 1 else log.info)(message)
            return []
        changed = []
        for shown, value in event.revealed:
            spot = self.index[shown]
            self.view[spot] = value
            changed.append(spot)
        self.clicked += len(changed)
        self.unknown -= len(changed)
        return changed

    def _mark(self, at: int, name: str) -> list[int]:
        cell = self.cell_at[at]
        if cell not in self.mines:
            self.lost = True
            self.lost_to = name
            message = f"{name} marked a square that is not a mine at {self._where(at)}: lost"
            (self.say if self.debug >= 1 else log.info)(message)
            return []
        self.game.flag(cell, reason=name)
        self.view[at] = int(Square.MARKED)
        self.marked += 1
        self.unknown -= 1
        return [at]

    def _changed(self, spots: list[int]) -> None:
        """Bring every rule's matches up to date after ``spots`` changed."""
        if not spots:
            return
        cell_at = self.cell_at
        view = self.view
        near: dict[tuple[int, ...], set[int]] = {}
        for number, rule in enumerate(self.rules):
            key = tuple(rule.relevant)
            affected = near.get(key)
            if affected is None:
                affected = near[key] = {
                    spot - off for spot in spots for off in key if spot - off in cell_at
                }
            envs, firing = self.envs[number], self.firing[number]
            first, accepts = rule.first
            for at in affected:
                if view[at + first] in accepts:
                    self._update(number, at)
                elif at in envs:
                    del envs[at]
                    firing.discard(at)
            if rule.uses_totals:
                for at, env in self.envs[number].items():
                    if at in affected:
                        continue
                    self.deadline.tick()
                    if self.conditions(rule, env) and at not in self.stuck[number]:
                        self.firing[number].add(at)
                    else:
                        self.firing[number].discard(at)

    # -- text -----------------------------------------------------------------------------

    def render(self) -> str:
        """The board as the rules see it: ``?`` unknown, ``M`` marked, digits."""
        g = self.board.geometry
        glyph: dict[int, str] = {Square.HIDDEN: "?", Square.MARKED: "M"}
        return "\n".join(
            "".join(
                glyph.get(v, str(v))
                for v in (self.view[self.index[r * g.cols + c]] for c in range(g.cols))
            )
            for r in range(g.rows)
        )

    def _where(self, at: int) -> str:
        row, col = self.board.geometry.coords(self.cell_at[at])
        return f"({row}, {col})"
