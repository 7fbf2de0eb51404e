"""sweep_mines: play a hidden board to the end without a guess.

The solve is a pipeline of three named stages, repeated until none of them makes progress:

1. **explore** every cell proven safe: ``move`` it, record its clue, and let each clue's
   count decide what it can on its own (a clue whose mines are all placed, or that needs
   every unknown neighbour); the clues left open become CSP variables;
2. **propagate**: hand the CSP the cells decided since the last round, then AC-3 over the
   arcs they and the new variables touched, until it decides a cell that is safe (or mined)
   in all remaining placements of some clue; exploring takes over from there;
3. **search**: when AC-3 reaches a fixed point with nothing decided, search each changed
   connected component for the cells that take one value in every consistent joint
   placement.

When all three stall with cells still undetermined, the position needs a guess: the sweep
raises :class:`~mineshafted.errors.NeedsGuess` rather than take one.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from time import perf_counter
from typing import Protocol

from ..board import Cell, Grid
from ..errors import NeedsGuess, PartialGrid
from .csp import ClueCSP
from .knowledge import Knowledge
from .search import BacktrackingSearch, ComponentSearch

__all__ = ["Manager", "Status", "Sweep", "SweepReport", "sweep_mines"]

log = logging.getLogger(__name__)


class Manager(Protocol):
    """The Mine Shafted interface: all a sweep may use of a board manager."""

    size: tuple[int, int]

    def move(self, index: int) -> int: ...  # pragma: no cover - protocol

    def get_adjacent(self, index: int) -> list[int]: ...  # pragma: no cover - protocol


class Status(Enum):
    """How a sweep ended."""

    SOLVED = "solved"
    """Every safe cell explored: the board is complete."""
    NEEDS_GUESS = "needs-guess"
    """Stalled: no unexplored cell is provably safe."""


@dataclass
class SweepReport:
    """How a sweep ended, what it found, and what it took."""

    status: Status
    board: PartialGrid
    """The board as found: every clue, ``-1`` for proven mines, ``None`` where undetermined
    (only when the sweep stalled)."""
    undetermined: list[Cell]
    """Cells still undetermined, ascending (empty when solved)."""
    frontier: list[Cell]
    """The undetermined cells beside an explored clue."""
    moves: int
    """How many times ``move`` was called (once per explored cell)."""
    seconds: float
    """Wall-clock time of the sweep."""
    proven_by: Counter[str] = field(default_factory=Counter)
    """How many cells each stage proved: ``start``, ``clue`` (one clue's count alone),
    ``propagation`` (AC-3) and ``search``."""
    searches: int = 0
    """How many connected components were searched."""
    largest_component: int = 0
    """The most clue variables in one searched component."""

    @property
    def solved(self) -> bool:
        """Whether every safe cell was explored."""
        return self.status is Status.SOLVED

    def needs_guess(self) -> NeedsGuess:
        """The exception that tells a caller of :func:`sweep_mines` this sweep stalled."""
        return NeedsGuess(self.board, self.undetermined, self.frontier, self.moves)


def sweep_mines(bm: Manager, *, search: ComponentSearch | None = None) -> Grid:
    """Return the solved board of ``bm``, exploring from index 0 and never guessing.

    Uses only ``bm.size``, ``bm.move`` and ``bm.get_adjacent``, so any manager with the
    Mine Shafted interface works, the course's generator-based one included.

    Parameters
    ----------
    bm:
        The board manager.
    search:
        The component-search engine (default :class:`~mineshafted.solver.search.BacktrackingSearch`;
        :class:`~mineshafted.solver.search.ConstraintSearch` uses python-constraint instead).

    Returns
    -------
    list of list of int
        Every clue, and ``-1`` for every mine.

    Raises
    ------
    NeedsGuess
        No unexplored cell is provably safe; carries the partial board.
    ContradictionError
        The manager's clues contradict each other.
    RuntimeError
        From ``bm.move``, only if index 0 holds a mine (the assignment rules that out).

    Examples
    --------
    >>> from mineshafted import BoardManager
    >>> sweep_mines(BoardManager([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]))
    [[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]
    """
    report = Sweep(bm, search=search).run()
    if not report.solved:
        raise report.needs_guess()
    return report.board  # type: ignore[return-value]  # solved: no None left


class Sweep:
    """One game on one manager: the facts, the CSP, and the stages that grow them.

    >>> from mineshafted import BoardManager
    >>> report = Sweep(BoardManager([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]])).run()
    >>> report.moves, dict(report.proven_by)
    (10, {'start': 1, 'propagation': 1, 'clue': 10})
    """

    def __init__(self, bm: Manager, *, search: ComponentSearch | None = None, start: Cell = 0):
        rows, cols = bm.size
        self.bm = bm
        self.start = start
        self.csp = ClueCSP()
        self.knowledge = Knowledge(rows, cols)
        self.search = search if search is not None else BacktrackingSearch()
        self.report = SweepReport(Status.SOLVED, [], [], [], moves=0, seconds=0.0)

    def run(self) -> SweepReport:
        """Play until every safe cell is explored, or until no cell is provably safe.

        Raises
        ------
        ContradictionError
            The manager's clues contradict each other.
        """
        began = perf_counter()
        self._prove(self.start, mine=False, stage="start")
        while True:
            self._explore()
            if self._propagate() or self._search_components():
                continue
            break
        report = self.report
        report.seconds = perf_counter() - began
        report.board = self.knowledge.partial_grid()
        report.undetermined = self.knowledge.undetermined()
        decided = len(self.knowledge.state) - len(report.undetermined)
        others = sum(n for stage, n in report.proven_by.items() if stage != "clue")
        report.proven_by["clue"] = decided - others
        if not report.undetermined:
            log.info(
                "solved: %d move(s), cells proven by stage %s", report.moves, dict(report.proven_by)
            )
        else:
            report.status = Status.NEEDS_GUESS
            report.frontier = self.knowledge.frontier()
            log.info(
                "stalled after %d move(s): %d undetermined cell(s), %d beside a clue",
                report.moves,
                len(report.undetermined),
                len(report.frontier),
            )
        return report

    # -- the stages -----------------------------------------------------------------------

    def _explore(self) -> None:
        """Stage 1: move onto every proven-safe cell and apply each clue on its own.

        A clue whose count alone decides its unknown neighbours (a zero, say) settles them.
        The others become CSP variables only when no safe cell and no such clue is left: by
        then most have been settled by their neighbours and need no variable.
        """
        knowledge = self.knowledge
        before = knowledge.explored
        fresh = knowledge.explore(self.bm.move, self.bm.get_adjacent)
        for cell in fresh:
            unknown, mines = knowledge.open_neighbours(cell)
            self.csp.add(cell, unknown, mines)
        explored = knowledge.explored - before
        self.report.moves += explored
        log.debug("explore: %d cell(s) explored, %d clue(s) became variables", explored, len(fresh))

    def _propagate(self) -> bool:
        """Stage 2: tell the CSP the new facts, AC-3 until it decides something; ``True`` then.

        ``False`` means AC-3 reached a fixed point without deciding anything.
        """
        self.csp.learn(self.knowledge.take_news())
        decisions = self.csp.propagate(until_news=True)
        for cell, mine in decisions:
            self._prove(cell, mine=mine, stage="propagation")
        log.debug("propagate: AC-3 decided %d cell(s)", len(decisions))
        return bool(decisions)

    def _search_components(self) -> bool:
        """Stage 3: search each component changed since the last search; ``True`` on news."""
        csp = self.csp
        components = list(csp.components(csp.take_touched()))
        progress = False
        for component in components:
            self.report.searches += 1
            self.report.largest_component = max(self.report.largest_component, len(component))
            for cell, mine in self.search(component, csp.graph).items():
                progress |= self._prove(cell, mine=mine, stage="search")
        log.debug("search: %d component(s) searched, news: %s", len(components), progress)
        return progress

    # -- helpers --------------------------------------------------------------------------

    def _prove(self, cell: Cell, *, mine: bool, stage: str) -> bool:
        """Record a fact (the knowledge tells the CSP); ``True`` if it was news."""
        knowledge = self.knowledge
        news = knowledge.prove_mine(cell) if mine else knowledge.prove_safe(cell)
        if news:
            self.report.proven_by[stage] += 1
        return news
