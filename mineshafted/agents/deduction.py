"""The project's complete deduction as an agent: the sweep, with a guess when it stalls.

Glossary
--------
policy
    How an agent picks the cell to guess when nothing is provably safe: ``csp`` picks a random
    undetermined cell; ``best`` will use the ``best`` policy of classic play.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..board import MINE, Cell
from ..game import Game, View
from ..probability import PolicyName, odds, policy_named, position_of
from ..solver import (
    Knowledge,
    Sweep,
    count_component,
    tally,
)
from .agent import Agent, Inference, revealed_cells

__all__ = [
    "BestAgent",
    "CSPAgent",
    "GuessPolicy",
    "best_policy",
    "random_policy",
]

GuessPolicy = Callable[[Sweep, int | None, random.Random], Cell]
"""Picks the cell to guess at a stall, from the stalled sweep (its ``report`` and its
``position()``), the mine total when known, and the rng."""


_BEST = policy_named(PolicyName.BEST)


def random_policy(sweep: Sweep, mines: int | None, rng: random.Random) -> Cell:
    """A random undetermined cell."""
    return rng.choice(sweep.report.undetermined)


class CSPAgent(Agent):
    """The complete deduction (:class:`~mineshafted.solver.Sweep`, with the mine total when the
    rules show it) and a random guess when it stalls.

    A guess is revealed through the engine: a mine (play continues after a mine) is told to the
    sweep as a mine, a safe cell as a guess survived; then the sweep advances. Every cell the
    sweep proves mined is flagged.

    The mine total, when the rules show it, is the sweep's own last stage
    (``Sweep(..., mines=N)``).

    Notes
    -----
    The sweep's cost per advance (see :mod:`mineshafted.solver.sweep`), plus ``O(cells)`` per
    turn for the flags.
    """

    name = "csp"

    def policy(self) -> GuessPolicy:
        """The guessing policy: random here; :class:`BestAgent` plugs in its own."""
        return random_policy

    def play(self, game: Game, rng: random.Random) -> None:
        """Play ``game`` to the end (see :meth:`Agent.play`)."""
        view = game.view()
        shown = revealed_cells(view)
        if not any(value != MINE for _, value in shown):
            first = rng.randrange(game.geometry.cells)
            game.reveal(first, guess=True, reason="first move")
            if game.over:
                return
            shown = revealed_cells(game.view())
        start = next(cell for cell, value in shown if value != MINE)
        manager = _FlagFirst(game)
        sweep = Sweep(manager, start=start, mines=view.mines)
        manager.knowledge = sweep.knowledge
        for cell, value in shown:
            if value == MINE:
                sweep.tell(cell, mine=True)
        policy = self.policy()
        while not game.over:
            report = sweep.advance()
            manager.flag_known()
            if game.over or report.solved:
                break
            cell = policy(sweep, view.mines, rng)
            if game.reveal(cell, guess=True, reason="guess").hit:
                sweep.tell(cell, mine=True)
            else:
                sweep.guess(cell)

    def infer(self, view: View) -> Inference:
        """Every hidden cell safe, or mined, in all placements that agree with the clues (and
        with the mine total, when ``view`` shows it)."""
        position = position_of(view.grid)
        facts: list[tuple[Cell, bool]] = []
        if view.mines is not None:
            facts = tally(position, view.mines).certain()
        else:
            for component in position.components:
                count = count_component(component)
                total = sum(count.placements)
                for group, mined in zip(count.classes, count.mined, strict=True):
                    if sum(mined) in (0, total):
                        facts.extend((cell, sum(mined) == total) for cell in group)
        return Inference(
            frozenset(c for c, m in facts if not m), frozenset(c for c, m in facts if m)
        )


def best_policy(sweep: Sweep, mines: int | None, rng: random.Random) -> Cell:
    """Classic play's ``best`` policy (:class:`mineshafted.probability.policy.Best`) at a stall:
    the exact odds under the mine total, then the safest cell most likely to make progress.

    Without the mine total there are no exact odds to go on: a random undetermined cell.
    """
    if mines is None:
        return random_policy(sweep, mines, rng)
    position = sweep.position()
    return _BEST.choose(position, odds(position, mines), sweep.report.board, rng)


class BestAgent(CSPAgent):
    """The complete deduction with the ``best`` guessing policy of classic play."""

    name = "best"

    def policy(self) -> GuessPolicy:
        """:func:`best_policy`."""
        return best_policy


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
