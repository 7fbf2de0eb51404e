"""Techniques: the kinds of reasoning a board can need, weakest first; and the stages of a
sweep, which name who decided a cell in the techniques' own words.

Glossary
--------
technique
    A complete solver loop: from the start cell, deduce what the technique can from what is
    revealed, move onto every cell it proves safe, repeat until nothing new is deduced.
solved by
    A technique solves a board when its loop decides every cell: every safe cell moved onto
    and every mine known.
rating
    The first technique, in the order below, that solves a board.
stage
    Who decided a cell in a sweep: a rung, by its technique's word (``count`` ... ``total``),
    or the start cell, a guess, a fact told (:class:`Stage`).

The ladder, each rung knowing all the rungs below it know (see the docs' techniques page for
why ``subset`` lies within ``ac3``):

======== ======================================================================
name     what it deduces
======== ======================================================================
count    one clue on its own: no mine left to place, or as many as unknowns
subset   constraints and their differences (A within B gives B - A), counted
ac3      AC-3 over the clue variables' domains of arrangements
complete one value in every placement of mines that meets all the clues
total    the same, with the mine total
guess    nothing: ``total`` does not solve the board
======== ======================================================================
"""

from __future__ import annotations

from enum import Enum, StrEnum
from functools import total_ordering

__all__ = ["Stage", "Technique"]


@total_ordering
class Technique(Enum):
    """A rung of the reasoning ladder; compared by strength (``COUNT < SUBSET < ... < GUESS``).

    Examples
    --------
    >>> Technique("ac3") < Technique.COMPLETE
    True
    >>> [t.value for t in Technique]
    ['count', 'subset', 'ac3', 'complete', 'total', 'guess']
    >>> Technique.parse("AC-3")
    <Technique.AC3: 'ac3'>
    """

    COUNT = "count"
    SUBSET = "subset"
    AC3 = "ac3"
    COMPLETE = "complete"
    TOTAL = "total"
    GUESS = "guess"

    @property
    def rank(self) -> int:
        """The position on the ladder: 0 for ``count`` up to 5 for ``guess``."""
        return _RANK[self]

    @property
    def summary(self) -> str:
        """One line on what the technique deduces."""
        return _SUMMARY[self]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Technique):
            return NotImplemented
        return self.rank < other.rank

    @classmethod
    def parse(cls, text: str) -> Technique:
        """The technique named ``text`` (case and hyphens ignored: ``AC-3`` is ``ac3``).

        Raises
        ------
        ValueError
            No technique has that name; the message lists them.
        """
        key = text.strip().lower().replace("-", "").replace("_", "")
        for technique in cls:
            if technique.value == key:
                return technique
        names = ", ".join(t.value for t in cls)
        raise ValueError(f"no technique {text!r}: the techniques are {names}")

    @classmethod
    def solving(cls) -> list[Technique]:
        """Every technique that can solve a board (all but ``guess``), weakest first."""
        return [t for t in cls if t is not cls.GUESS]


_RANK = {technique: rank for rank, technique in enumerate(Technique)}
_SUMMARY = {
    Technique.COUNT: "one clue on its own (all its mines placed, or all its unknowns mines)",
    Technique.SUBSET: "differences of constraints where one's cells lie within the other's",
    Technique.AC3: "AC-3 over each clue's domain of mine arrangements",
    Technique.COMPLETE: "every placement of mines that meets all the clues together",
    Technique.TOTAL: "every placement of mines that meets the clues and the mine total",
    Technique.GUESS: "no technique decides every cell: a guess is needed",
}


class Stage(StrEnum):
    """Who decided a cell in a sweep: the keys of :attr:`~.sweep.SweepReport.proven_by` and the
    reasons of a recorded solve.

    A rung's stage is its technique's word; the start cell, a guess and a fact told are no
    rung. Until the record format's version 2 the rungs had words of their own (``clue``,
    ``propagation``, ``search``): the members :attr:`CLUE`, :attr:`PROPAGATION` and
    :attr:`SEARCH` are the same as :attr:`COUNT`, :attr:`AC3` and :attr:`COMPLETE` (a
    version 1 record is read in the new words: :mod:`mineshafted.game.record`).

    Examples
    --------
    >>> Stage.of(Technique.AC3), Stage.PROPAGATION is Stage.AC3
    (<Stage.AC3: 'ac3'>, True)
    >>> Stage.AC3.technique.value, Stage.START.technique.value, Stage.TOLD.technique.value
    ('ac3', 'count', 'guess')
    """

    START = "start"
    """The start cell, safe by the rules."""
    COUNT = "count"
    """One clue's count alone (the explore loop)."""
    SUBSET = "subset"
    """Differences of constraints (only when the sweep climbs to a :class:`Technique`)."""
    AC3 = "ac3"
    """AC-3 over the clue variables."""
    COMPLETE = "complete"
    """The component search."""
    TOTAL = "total"
    """The mine total: safe, or mined, in every placement of the remaining mines."""
    GUESS = "guess"
    """A guess the caller made and survived (:meth:`~.sweep.Sweep.guess`)."""
    TOLD = "told"
    """A fact the caller told (:meth:`~.sweep.Sweep.tell`)."""
    CLUE = "count"
    """The old name of :attr:`COUNT` (the same member)."""
    PROPAGATION = "ac3"
    """The old name of :attr:`AC3` (the same member)."""
    SEARCH = "complete"
    """The old name of :attr:`COMPLETE` (the same member)."""

    @classmethod
    def of(cls, technique: Technique) -> Stage:
        """The stage of a rung: its technique's word.

        Raises
        ------
        ValueError
            ``technique`` is ``guess``: no rung (:attr:`GUESS` is a guess the caller made).
        """
        if technique is Technique.GUESS:
            raise ValueError("'guess' is no rung of the ladder: it decides no cell")
        return cls(technique.value)

    @property
    def technique(self) -> Technique:
        """The rung of the ladder this stage stands for (the start is free to every rung; a
        guess or a fact told is no deduction: ``guess``)."""
        return _TECHNIQUE_OF[self]


_TECHNIQUE_OF = {
    stage: Technique.COUNT
    if stage is Stage.START
    else Technique.GUESS
    if stage in (Stage.GUESS, Stage.TOLD)
    else Technique(stage.value)
    for stage in Stage
}
"""The technique each stage stands for."""
