"""Hints: the cell to reveal next in a live game, a safe one with its proof if there is one.

Glossary
--------
hint
    A safe cell (the first in row-major order) with its explanation; when no cell is safe,
    the ``best`` policy's guess with its exact mine probability; before the first reveal,
    which the rules make safe, the corner.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import PartialGrid
from .analysis import analyze
from .explanation import Explanation, explain

__all__ = ["Hint", "first_hint", "hint"]


@dataclass(frozen=True)
class Hint:
    """The cell a hint points at, and why."""

    cell: tuple[int, int]
    safe: bool
    """Whether the cell is certainly safe."""
    probability: float
    """Its chance of a mine."""
    lowest: float
    """The lowest chance of a mine of any unknown cell."""
    explanation: Explanation | None = None
    """The proof that it is safe, when it is (and a clue proves it)."""
    first: bool = False
    """Whether this is the first move, which the rules keep safe."""

    @property
    def text(self) -> str:
        """The hint in a sentence or two: for a safe cell with its proof, the explanation's
        own words (what Why? says of the cell).

        Examples
        --------
        >>> print(hint([[0, 1, None], [0, 1, None], [0, 1, None]], 1).text)
        Row 1, column 3 is safe. The 1 at row 3, column 2 needs 1 mine among column 3, rows 2 \
and 3. The 1 at row 2, column 2 needs 1 mine among column 3, rows 1 to 3, so row 1, column 3 \
is safe.
        >>> print(hint([[1, None], [None, None]], 1).text)
        No cell is certainly safe. The best guess is row 1, column 2: a mine with probability \
33.3% (the lowest anywhere).
        """
        row, col = self.cell
        where = f"row {row + 1}, column {col + 1}"
        if self.first:
            return (
                f"Start at {where}: the first move is always safe under these rules, "
                "and a corner opens a region most often."
            )
        if self.safe and self.explanation is not None:
            return self.explanation.text
        if self.safe:
            return f"{where[0].upper()}{where[1:]} is safe."
        lowest = (
            "the lowest anywhere"
            if self.probability == self.lowest
            else f"the lowest anywhere is {self.lowest:.1%}, but this cell tells more"
        )
        return (
            f"No cell is certainly safe. The best guess is {where}: a mine with "
            f"probability {self.probability:.1%} ({lowest})."
        )

    def to_json(self) -> dict[str, object]:
        """``cell``, ``safe``, ``probability``, ``text`` and ``explanation`` (the answer of
        ``POST /api/explain`` for the cell, or ``None``)."""
        return {
            "cell": list(self.cell),
            "safe": self.safe,
            "probability": self.probability,
            "text": self.text,
            "explanation": None if self.explanation is None else self.explanation.to_json(),
        }


def hint(grid: PartialGrid, mines: int) -> Hint:
    """The hint for a player's view ``grid`` of a board with ``mines`` mines.

    Raises
    ------
    ValueError
        No unknown cell is left that is not a mine (the game is won).
    InvalidBoardError, NoPlacementError
        As :func:`~.analysis.analyze`.

    Examples
    --------
    >>> found = hint([[0, 1, None], [0, 1, None], [0, 1, None]], 1)
    >>> found.cell, found.safe, found.explanation.clues
    ((0, 2), True, ((1, 1), (2, 1)))
    """
    analysis = analyze(grid, mines)
    best = analysis.best
    if best is None:
        raise ValueError("no unknown cell is left but mines")
    result = analysis.result
    cols = len(grid[0])
    cell = divmod(best, cols)
    total = result.placements
    probability = result.mined[best] / total
    lowest = min(result.mined.values()) / total
    if result.mined[best] == 0:
        return Hint(cell, True, 0.0, 0.0, explain(grid, mines, cell))
    return Hint(cell, False, probability, lowest)


def first_hint() -> Hint:
    """The hint before the first reveal: the corner, which the rules keep safe.

    Examples
    --------
    >>> first_hint().cell
    (0, 0)
    """
    return Hint((0, 0), True, 0.0, 0.0, first=True)
