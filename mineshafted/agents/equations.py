"""Clue equations: the CS440 project's basic agent and its subset-solving improvement.

Glossary
--------
equation
    One revealed clue boiled down by what is known: its unknown neighbours hold
    ``remaining`` mines (the clue less the mines known around it).
all-mines check
    An equation with as many cells as ``remaining``: they are all mines.
no-mines check
    An equation with ``remaining`` 0: its cells are all safe.
subset rule
    From two equations where one's cells are a subset of the other's, the difference: from
    A+B+C = 2 and B+C = 1 follows A = 1. The derived equation is only put to the two checks,
    never kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..board import Cell
from ..errors import ContradictionError
from .agent import Reasoner, ReasoningAgent, Selection

__all__ = [
    "BasicAgent",
    "BasicV2Agent",
    "ClueEquations",
    "ImprovedAgent",
    "ImprovedV2Agent",
]


@dataclass
class ClueEquations(Reasoner):
    """One equation per revealed clue, kept boiled down as cells become known.

    Examples
    --------
    A 2x3 board, the top row hidden, the bottom row showing 1 2 1: no clue alone decides a
    cell; the subset rule takes {0, 1} = 1 from {0, 1, 2} = 2 and finds cell 2 a mine, and the
    checks do the rest.

    >>> from mineshafted.board import Geometry
    >>> eq = ClueEquations(subsets=True, neighbours=Geometry(2, 3).neighbour_table())
    >>> for cell, value in ((3, 1), (4, 2), (5, 1)):
    ...     eq.learn_clue(cell, value)
    >>> eq.infer()
    >>> sorted(eq.mines), sorted(eq.safe)
    ([0, 2], [1, 3, 4, 5])

    Notes
    -----
    A cell becoming known updates the equations of the clues around it, ``O(8)``; the checks
    visit only the equations changed since they last ran. The subset rule compares each
    changed equation with the equations of the clues within two cells of it, ``O(24)`` pairs.
    """

    subsets: bool = False
    """Whether to apply the subset rule (the ``improved`` agent) once the checks stall."""
    neighbours: Sequence[Sequence[Cell]] = ()
    equations: dict[Cell, tuple[set[Cell], int]] = field(default_factory=dict)
    """Clue cell -> (its unknown hidden neighbours, the mines among them)."""
    safe: set[Cell] = field(default_factory=set)
    mines: set[Cell] = field(default_factory=set)
    _changed: set[Cell] = field(default_factory=set, repr=False)
    _unpaired: set[Cell] = field(default_factory=set, repr=False)
    _seen_by: dict[Cell, set[Cell]] = field(default_factory=dict, repr=False)
    """Unknown cell -> the clues whose equations hold it."""

    def learn_clue(self, cell: Cell, value: int) -> None:
        """``cell`` shows ``value``: it is safe and gets its equation."""
        self._settle(cell, mine=False)
        around = self.neighbours[cell]
        scope = {n for n in around if n not in self.safe and n not in self.mines}
        remaining = value - sum(n in self.mines for n in around)
        self._set(cell, scope, remaining)

    def learn_mine(self, cell: Cell) -> None:
        """``cell`` was revealed as a mine: the equations around it use that."""
        self._settle(cell, mine=True)

    def mentioned(self) -> set[Cell]:
        """The unknown cells some equation holds."""
        return {cell for cell, clues in self._seen_by.items() if clues}

    def infer(self) -> None:
        """The all-mines and no-mines checks to a fixed point; then, with ``subsets``, the
        subset rule, and the checks again, until neither finds anything."""
        for cell in list(self.equations):
            self._changed.add(cell)
            self._unpaired.add(cell)
        while True:
            while self._changed:
                clue = self._changed.pop()
                if clue in self.equations:
                    self._check(*self.equations[clue])
            if not (self.subsets and self._subset_rule()):
                return

    # -- helpers --------------------------------------------------------------------------

    def _check(self, scope: set[Cell], remaining: int) -> bool:
        """The all-mines and no-mines checks on one equation; whether they decided cells."""
        if not scope:
            return False
        if remaining == len(scope):
            for cell in list(scope):
                self._settle(cell, mine=True)
            return True
        if remaining == 0:
            for cell in list(scope):
                self._settle(cell, mine=False)
            return True
        return False

    def _subset_rule(self) -> bool:
        """Compare each changed equation with its neighbours' equations; whether any derived
        equation decided cells."""
        progress = False
        pending, self._unpaired = self._unpaired, set()
        for clue in pending:
            if clue not in self.equations:
                continue
            scope, remaining = self.equations[clue]
            if not scope:
                continue
            others: set[Cell] = set()
            for cell in scope:
                others.update(self._seen_by.get(cell, ()))
            others.discard(clue)
            for other in others:
                other_scope, other_remaining = self.equations[other]
                if other_scope < scope:
                    progress |= self._check(scope - other_scope, remaining - other_remaining)
                elif scope < other_scope:
                    progress |= self._check(other_scope - scope, other_remaining - remaining)
                scope, remaining = self.equations[clue]
        return progress

    def _set(self, clue: Cell, scope: set[Cell], remaining: int) -> None:
        """Store ``clue``'s equation and index its cells."""
        if not 0 <= remaining <= len(scope):
            raise ContradictionError(
                f"clue at {clue} needs {remaining} mine(s) among {len(scope)} cell(s)",
                cells=[clue],
            )
        self.equations[clue] = (scope, remaining)
        for cell in scope:
            self._seen_by.setdefault(cell, set()).add(clue)
        self._changed.add(clue)
        self._unpaired.add(clue)

    def _settle(self, cell: Cell, *, mine: bool) -> None:
        """Record ``cell`` as a mine or safe and boil down the equations that hold it."""
        known, other = (self.mines, self.safe) if mine else (self.safe, self.mines)
        if cell in other:
            raise ContradictionError(f"cell {cell} is known the other way", cells=[cell])
        if cell in known:
            return
        known.add(cell)
        for clue in self._seen_by.pop(cell, ()):
            scope, remaining = self.equations[clue]
            scope.discard(cell)
            self._set(clue, scope, remaining - mine)


class BasicAgent(ReasoningAgent):
    """The CS440 basic agent: each clue's equation, the all-mines and no-mines checks."""

    name = "basic"
    subsets = False

    def reasoner(self, neighbours: Sequence[Sequence[Cell]]) -> ClueEquations:
        """Clue equations for a board with this neighbour table."""
        return ClueEquations(subsets=self.subsets, neighbours=neighbours)


class ImprovedAgent(BasicAgent):
    """The CS440 improved agent: :class:`BasicAgent` plus the subset rule (the write-up's ICE)."""

    name = "improved"
    subsets = True


class BasicV2Agent(BasicAgent):
    """:class:`BasicAgent` guessing a random cell its equations hold, when there is one."""

    name = "basic-v2"
    selection = Selection.KNOWLEDGE


class ImprovedV2Agent(ImprovedAgent):
    """:class:`ImprovedAgent` guessing a random cell its equations hold, when there is one."""

    name = "improved-v2"
    selection = Selection.KNOWLEDGE
