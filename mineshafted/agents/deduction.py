"""The project's complete deduction as an agent: the sweep, with a guess when it stalls.

Glossary
--------
policy
    How an agent picks the cell to guess when nothing is provably safe: a
    :class:`~mineshafted.probability.Policy`, the same protocol classic play uses. ``csp``
    guesses at random (:class:`~mineshafted.probability.RandomGuess`); ``best`` uses classic
    play's :class:`~mineshafted.probability.Best`.
"""

from __future__ import annotations

import random
from typing import ClassVar

from ..board import MINE, Cell
from ..game import Game, View
from ..probability import Best, Policy, RandomGuess, position_of
from ..probability.loop import play_out
from ..solver import count_component, tally
from .agent import Agent, Inference, revealed_cells

__all__ = ["BestAgent", "CSPAgent"]


class CSPAgent(Agent):
    """The complete deduction (:class:`~mineshafted.solver.Sweep`, with the mine total when the
    rules show it) and a random guess when it stalls.

    The game is played by the package's one game loop
    (:func:`~mineshafted.probability.loop.play_out`): a guess is revealed through the engine;
    a mine (play continues after a mine) is told to the sweep as a mine, a safe cell as a
    guess survived; then the sweep advances. Every cell the sweep proves mined is flagged.
    Without the mine total there are no odds to go on, and every agent of this kind guesses
    at random.

    Notes
    -----
    The sweep's cost per advance (see :mod:`mineshafted.solver.sweep`), plus ``O(cells)`` per
    turn for the flags, plus the policy's cost at each stall (none for ``random``).
    """

    name = "csp"
    policy: ClassVar[Policy] = RandomGuess()
    """How this agent guesses at a stall when the rules show the mine total."""

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
        policy = self.policy if view.mines is not None else RandomGuess()
        play_out(game, policy, rng, start=start, flag=True, probabilities=False, reason="guess")

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


class BestAgent(CSPAgent):
    """The complete deduction with the ``best`` guessing policy of classic play."""

    name = "best"
    policy: ClassVar[Policy] = Best()
