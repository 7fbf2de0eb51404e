"""Agent: one interface for every player, and the loop that plays a logical agent's reasoning.

Glossary
--------
agent
    A player: it sees only what a player sees (:meth:`mineshafted.game.Game.view` and the cells
    each reveal opens) and acts only through the engine (reveal, flag).
reasoner
    The knowledge of a logical agent: it learns revealed cells and infers safe cells and mines.
inference
    What an agent concludes from a position without guessing: cells safe, cells mined.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from ..board import MINE, Cell, Geometry
from ..game import Game, View

__all__ = ["Agent", "Inference", "Reasoner", "ReasoningAgent", "Selection", "revealed_cells"]


@dataclass(frozen=True, slots=True)
class Inference:
    """What an agent concludes from a position: hidden cells it knows safe, and mines."""

    safe: frozenset[Cell]
    """Hidden cells proven safe."""
    mines: frozenset[Cell]
    """Hidden cells proven to hold a mine."""


class Selection(StrEnum):
    """Where a logical agent guesses when it knows no safe cell."""

    RANDOM = "random"
    """A random unknown cell (the labs' agents, ``basic`` and ``improved``)."""
    KNOWLEDGE = "knowledge"
    """A random unknown cell that the knowledge mentions; any unknown cell when it mentions
    none (the write-up's "better selection", the ``-v2`` agents)."""


class Agent(ABC):
    """A player behind one small interface: it plays a game to the end, or says what it infers.

    A new agent is one subclass with a ``name`` and one registration in
    :mod:`mineshafted.agents.registry`.
    """

    name: ClassVar[str]
    """The registry name, e.g. ``"kb"``."""

    @abstractmethod
    def play(self, game: Game, rng: random.Random) -> None:
        """Play ``game`` until it is over, drawing every random choice from ``rng``.

        The game may already be under way (a study makes the first reveal itself, so that every
        agent plays the same board); with nothing revealed the agent guesses a first cell.
        Guesses are revealed with ``guess=True``; inferred mines are flagged.
        """

    @abstractmethod
    def infer(self, view: View) -> Inference:
        """What this agent's reasoning concludes from ``view`` alone, without guessing."""


class Reasoner(ABC):
    """The knowledge of a logical agent: learn cells, infer to a fixed point, report facts.

    ``safe`` and ``mines`` hold every cell known (revealed cells included); they only grow.
    """

    safe: set[Cell]
    mines: set[Cell]

    @abstractmethod
    def learn_clue(self, cell: Cell, value: int) -> None:
        """``cell`` was revealed showing ``value``."""

    @abstractmethod
    def learn_mine(self, cell: Cell) -> None:
        """``cell`` was revealed as a mine (play continues after a mine)."""

    @abstractmethod
    def infer(self) -> None:
        """Apply the inference rules until nothing changes."""

    @abstractmethod
    def mentioned(self) -> set[Cell]:
        """The cells that some piece of knowledge (a sentence, an equation) is about."""


class ReasoningAgent(Agent):
    """An agent that plays a :class:`Reasoner`: attack a known-safe cell, else guess.

    Each turn: infer to a fixed point, flag every new mine, then reveal the oldest known-safe
    hidden cell, or guess by :attr:`selection`. Subclasses say which reasoner they play.

    Notes
    -----
    A turn costs the reasoner's inference plus ``O(cells revealed)``; a guess scans the
    ``O(cells)`` hidden cells.
    """

    selection: ClassVar[Selection] = Selection.RANDOM

    @abstractmethod
    def reasoner(self, neighbours: Sequence[Sequence[Cell]]) -> Reasoner:
        """A fresh reasoner for a board whose neighbour table is ``neighbours``."""

    def play(self, game: Game, rng: random.Random) -> None:
        """Play ``game`` to the end (see :meth:`Agent.play`)."""
        reasoner = self.reasoner(game.geometry.neighbour_table())
        hidden = set(range(game.geometry.cells))
        _learn(reasoner, hidden, revealed_cells(game.view()))
        queue: list[Cell] = []
        flagged = set(game.flags)
        while not game.over:
            reasoner.infer()
            for cell in sorted((reasoner.mines & hidden) - flagged):
                game.flag(cell, reason="inferred mine")
                flagged.add(cell)
            queue.extend(sorted((reasoner.safe & hidden) - set(queue)))
            while queue and queue[0] not in hidden:
                queue.pop(0)
            if queue:
                event = game.reveal(queue.pop(0), reason="inferred safe")
            else:
                cell = self.guess(reasoner, hidden, rng)
                event = game.reveal(cell, guess=True, reason=f"{self.selection} guess")
            _learn(reasoner, hidden, event.revealed)

    def infer(self, view: View) -> Inference:
        """The reasoner's conclusions from ``view``'s revealed cells (flags are ignored)."""
        cols = len(view.grid[0])
        reasoner = self.reasoner(Geometry(len(view.grid), cols).neighbour_table())
        hidden = set(range(len(view.grid) * cols))
        _learn(reasoner, hidden, revealed_cells(view))
        reasoner.infer()
        return Inference(frozenset(reasoner.safe & hidden), frozenset(reasoner.mines & hidden))

    def guess(self, reasoner: Reasoner, hidden: set[Cell], rng: random.Random) -> Cell:
        """A random unknown hidden cell, chosen by :attr:`selection`."""
        unknown = hidden - reasoner.mines - reasoner.safe
        if self.selection is Selection.KNOWLEDGE:
            known = unknown & reasoner.mentioned()
            if known:
                unknown = known
        return rng.choice(sorted(unknown))


def revealed_cells(view: View) -> list[tuple[Cell, int]]:
    """Every revealed cell of ``view`` with what it shows (``MINE`` for a revealed mine).

    Examples
    --------
    >>> from mineshafted.game import GameStatus
    >>> revealed_cells(View([[0, None], [1, -1]], frozenset(), 1, GameStatus.PLAYING))
    [(0, 0), (2, 1), (3, -1)]
    """
    cols = len(view.grid[0])
    return [
        (r * cols + c, value)
        for r, row in enumerate(view.grid)
        for c, value in enumerate(row)
        if value is not None
    ]


def _learn(reasoner: Reasoner, hidden: set[Cell], cells: Sequence[tuple[Cell, int]]) -> None:
    """Tell ``reasoner`` about revealed ``cells`` and strike them from ``hidden``."""
    for cell, value in cells:
        hidden.discard(cell)
        if value == MINE:
            reasoner.learn_mine(cell)
        else:
            reasoner.learn_clue(cell, value)
