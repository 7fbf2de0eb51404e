"""Steps: the lines of an argument a player can check, and the bounds they read.

An argument (:mod:`.argument`) retraces a proof (:mod:`.proof`) in steps, each reading one
clue (or a bound a step before it found) and saying what follows; :mod:`.chain` searches for
them. This module is their vocabulary.

Glossary
--------
bound
    At least ``lo`` and at most ``hi`` mines among some unknown cells. A clue is the bound
    ``lo == hi`` on its unknown neighbours (:attr:`Bound.clue` names it).
step
    One line of an argument (:class:`Step`), of one kind:

    ``read``
        a clue's bound, and what it says of some of its cells (at most so many lie among them);
    ``count``
        a bound, less the cells known, with no mine left or as many as cells: it decides them;
    ``difference``
        a bound with another within it (or around it): the cells between hold the difference;
    ``given``
        a bound from outside the clues: the mine total's (:mod:`mineshafted.web.wording` says why);
    ``suppose``
        the cell supposed the other way, to reach a bound that cannot hold;
    ``together``, ``total``, ``placements``
        a total argument's lines (:mod:`.argument`): a group of clues' bound on their cells
        between them, the cells no clue touches decided by the total, the placements counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..board import Cell

__all__ = ["Bound", "Step", "Total", "named"]


@dataclass(frozen=True)
class Bound:
    """At least :attr:`lo` and at most :attr:`hi` mines among :attr:`cells`.

    A bound read off what is known may not hold (``lo`` above the cells, ``hi`` below 0): a
    supposition reaching one is refuted.

    Examples
    --------
    >>> Bound((3, 4), 1, 1, clue=0).decides, Bound((3, 4), 0, 0).decides
    (False, True)
    """

    cells: tuple[Cell, ...]
    """Unknown cells, ascending."""
    lo: int
    hi: int
    clue: Cell | None = None
    """The clue this bound is (its cells the clue's unknown neighbours), if it is one."""

    @property
    def possible(self) -> bool:
        """Whether some number of mines meets it."""
        return max(self.lo, 0) <= min(self.hi, len(self.cells))

    @property
    def decides(self) -> bool:
        """Whether it leaves every cell one way: no mine, or as many as cells."""
        n = len(self.cells)
        return self.possible and n > 0 and (self.hi <= 0 or self.lo >= n)

    def clipped(self) -> Bound:
        """The same, ``lo`` and ``hi`` within ``0..cells``."""
        return Bound(self.cells, max(self.lo, 0), min(self.hi, len(self.cells)), self.clue)


@dataclass(frozen=True)
class Total:
    """What the mine total says, beside the clues at hand."""

    left: int
    """The mines left (the total less the known mines)."""
    least: int
    """The mines the other clues need at least, between them."""
    most: int
    """The mines the other clues hold at most, between them."""
    away: int
    """The unknown cells no clue touches (of those at hand and the others)."""
    others: int
    """How many groups of other clues the lines above name (none: the rest of the border, when
    ``named`` is false)."""
    named: bool = True
    """Whether the argument names its clues (else it speaks of the border as a whole)."""


@dataclass(frozen=True)
class Step:
    """One line of an argument."""

    kind: str
    """``read``, ``count``, ``difference``, ``given``, ``suppose``, ``together``, ``total`` or
    ``placements`` (the glossary's)."""
    bound: Bound
    """What the step reads, less the cells known before it (``suppose``: the cell, as the
    bound it is supposed to meet)."""
    narrowed: bool = False
    """Whether cells of :attr:`bound` were known before the step (it is read "now")."""
    given: Bound | None = None
    """``difference``: the bound within (or around) :attr:`bound`."""
    result: Bound | None = None
    """``read``: the bound on some of its cells; ``difference``: the bound on the cells between,
    when it decides nothing (it may not hold: then the supposition is refuted); ``given``: the
    bound given."""
    found: dict[Cell, bool] = field(default_factory=dict)
    """The cells this step decides: cell -> whether a mine."""
    clues: tuple[Cell, ...] = ()
    """``together``, ``placements``: the clues it names."""
    total: Total | None = None
    """``given``, ``total``, ``placements``: what the mine total says."""
    placements: int = 0
    """``placements``: how many placements were counted."""


def named(steps: Sequence[Step]) -> set[Cell]:
    """The clues ``steps`` name."""
    return {s.bound.clue for s in steps if s.bound.clue is not None} | {
        clue for s in steps for clue in s.clues
    }
