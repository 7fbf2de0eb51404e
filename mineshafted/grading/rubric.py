"""The Mine Shafted rubric: tiers of boards by their number of mines, and what each is worth."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["RUBRIC", "Achievement", "Tier", "achievements"]


@dataclass(frozen=True)
class Tier:
    """One line of the rubric: the boards it covers, by mines, and the percent it is worth.

    Examples
    --------
    >>> Tier("Sweeps 5+ Mines", 5, None, 30).covers(7)
    True
    """

    name: str
    min_mines: int
    max_mines: int | None
    """The most mines a covered board has; ``None``: no upper bound."""
    weight: int
    """Percent of the score."""

    def covers(self, mines: int) -> bool:
        """Whether a board with ``mines`` mines counts toward this tier."""
        return self.min_mines <= mines and (self.max_mines is None or mines <= self.max_mines)


RUBRIC: tuple[Tier, ...] = (
    Tier("Sweeps 1 Mine", 1, 1, 10),
    Tier("Sweeps 2 Mines", 2, 2, 15),
    Tier("Sweeps 3 Mines", 3, 3, 20),
    Tier("Sweeps 4 Mines", 4, 4, 25),
    Tier("Sweeps 5+ Mines", 5, None, 30),
)
"""The Mine Shafted achievements; each number of mines from 1 up is in exactly one tier."""


@dataclass(frozen=True)
class Achievement:
    """One tier of the rubric, scored: how many of its boards were graded and solved."""

    tier: Tier
    graded: int
    solved: int

    @property
    def name(self) -> str:
        """The tier's name."""
        return self.tier.name

    @property
    def weight(self) -> int:
        """The tier's percent of the score."""
        return self.tier.weight

    @property
    def earned(self) -> bool:
        """Every graded board of the tier was solved (and there was one)."""
        return self.graded > 0 and self.solved == self.graded


def achievements(
    boards: Iterable[tuple[int, bool]], rubric: Sequence[Tier] = RUBRIC
) -> list[Achievement]:
    """Score each tier of ``rubric`` on ``boards``, given as ``(mines, solved)`` pairs.

    Examples
    --------
    >>> scored = achievements([(1, True), (6, True), (7, False)])
    >>> [(a.name, a.graded, a.solved, a.earned) for a in scored if a.graded]
    [('Sweeps 1 Mine', 1, 1, True), ('Sweeps 5+ Mines', 2, 1, False)]

    Notes
    -----
    O(boards x tiers).
    """
    boards = list(boards)
    scored = []
    for tier in rubric:
        covered = [solved for mines, solved in boards if tier.covers(mines)]
        scored.append(Achievement(tier, len(covered), sum(covered)))
    return scored
