"""Techniques: the kinds of reasoning a board can need, weakest first.

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

The ladder, each rung knowing all the rungs below it know (see the docs' techniques page for
the proof that ``subset`` is contained in ``ac3``):

======== ====================================================================== ===========
name     what it deduces                                                        sweep stage
======== ====================================================================== ===========
count    one clue on its own: no mine left to place, or as many as unknowns    clue
subset   constraints and their differences (A within B gives B - A), counted    subset
ac3      AC-3 over the clue variables' domains of arrangements                 propagation
complete one value in every placement of mines that meets all the clues         search
total    the same, with the mine total                                          total
guess    nothing: ``total`` does not solve the board                            --
======== ====================================================================== ===========
"""

from __future__ import annotations

from enum import Enum
from functools import total_ordering

__all__ = ["Technique"]


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
