"""State: the board as the interpreter keeps it while it plays (see :mod:`.interpreter`).

The view of squares padded with off-board ones, each rule's matches kept up to date as squares
change, the first firing found as a rescan from the top would find it, and the bookkeeping of
a play: squares clicked and marked, free guesses, stuck rules.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Callable

from ..board import Board, Cell
from ..game import Game
from .conditions import holds
from .deadline import Deadline
from .patterns import Fail, Pattern, Square, match
from .syntax import DefaultAction, Rule, SystemVariable

__all__ = ["Echo", "State"]

log = logging.getLogger("mineshafted.rules.interpreter")
"""The play's messages keep the interpreter's logger, whichever module of the play says them."""

Echo = Callable[[str], None]
"""Where debug lines go (the command line passes its ``echo``)."""


class State:
    """The view padded with off-board squares, each rule's matches, and the bookkeeping."""

    def __init__(
        self,
        rules: tuple[Rule, ...],
        board: Board,
        game: Game,
        deadline: Deadline,
        *,
        say: Echo,
        debug: int,
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
        OutOfTime
            The board's time is up (looked at every :attr:`Deadline.EVERY` matches).
        """
        self.deadline.tick()
        return match(rule, self.view, at)

    def conditions(self, rule: Pattern, env: dict[str, int]) -> bool:
        """Whether the rule's conditions hold, the totals as they stand.

        Raises
        ------
        OutOfTime
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
