"""Explanation: why a position decides a cell, as the ladder proves it.

The proof is the ladder's (:func:`mineshafted.solver.ladder.prove`): the first rung that
decides the cell from the position's clues, and a minimal set of clues enough for that rung
alone. This module checks the request and words the answer.

Glossary
--------
technique
    The first rung of the ladder (:class:`~mineshafted.solver.Technique`) whose reasoning, run
    to its fixed point on the position's clues (nothing is revealed meanwhile), decides the
    cell: ``count`` (one clue at a time), ``subset`` (and differences of constraints),
    ``ac3`` (arc consistency over each clue's arrangements), ``complete`` (all the clues of the
    cell's component together), ``total`` (with the mine total).
enough
    A set of clues is enough for a rung when the rung, given those clues alone (and, for
    ``total``, the unknown cells and the mines left), decides the cell. Enough clues force
    the cell: no placement fits them with the cell the other way.
minimal
    Enough, and not once any one of them is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..board import MINE, PartialGrid
from ..errors import NoPlacementError, Why
from ..probability import odds, position_of
from ..solver import Technique
from ..solver.clues import clues_of
from ..solver.ladder import prove
from .errors import UndecidedError

__all__ = ["Explanation", "explain"]


@dataclass(frozen=True)
class Explanation:
    """Why a position decides a cell: the clues that prove it, and how."""

    cell: tuple[int, int]
    """The cell explained, ``(row, column)``."""
    mine: bool
    """Whether the cell holds a mine (else it is safe)."""
    clues: tuple[tuple[int, int], ...]
    """The revealed clues that prove it, ``(row, column)``, nearest first: enough for
    :attr:`technique` to decide the cell, and minimal."""
    uses_total: bool
    """Whether the mine total is needed besides the clues (the technique is ``total``)."""
    technique: Technique
    """The first rung of the ladder that decides the cell from the position."""
    mines: int
    """The board's mine total."""
    mines_left: int
    """The mine total less the known mines."""

    @property
    def text(self) -> str:
        """The explanation in a sentence.

        Examples
        --------
        >>> print(explain([[1, None], [1, None], [0, 0]], 1, (1, 1)).text)
        The clue at (2, 0) leaves no placement with a mine at (1, 1): found by count (one \
clue on its own (all its mines placed, or all its unknowns mines)).
        """
        n = len(self.clues)
        if n == 1:
            who = f"The clue at {_at(self.clues[0])}"
        elif n:
            who = f"These {n} clues"
        else:
            who = ""
        if self.uses_total:
            total = f"the mine total ({self.mines} in all, {self.mines_left} not yet known)"
            who = f"{who} and {total}" if who else total[0].upper() + total[1:]
        verb = "leaves" if n + self.uses_total == 1 else "leave"
        how = "with" if not self.mine else "without"
        technique = self.technique
        return (
            f"{who} {verb} no placement {how} a mine at {_at(self.cell)}: found by "
            f"{technique.value} ({technique.summary})."
        )

    def to_json(self) -> dict[str, object]:
        """The answer of ``POST /api/explain``: ``cell``, ``value`` (``"safe"`` or
        ``"mine"``), ``clues`` (``[row, column]`` each), ``uses_total``, ``technique`` and
        ``text``."""
        return {
            "cell": list(self.cell),
            "value": "mine" if self.mine else "safe",
            "clues": [list(clue) for clue in self.clues],
            "uses_total": self.uses_total,
            "technique": self.technique.value,
            "text": self.text,
        }


def explain(grid: PartialGrid, mines: int, cell: tuple[int, int]) -> Explanation:
    """Why the position ``grid`` with ``mines`` in all decides ``cell``.

    Parameters
    ----------
    grid:
        Rows of clues 0-8, ``-1`` (known mines) and ``None`` (unknown), checked.
    mines:
        The board's mine total.
    cell:
        ``(row, column)`` of an unknown cell.

    Returns
    -------
    Explanation
        The first rung that decides the cell, a minimal set of clues enough for it, and
        whether that needs the total.

    Raises
    ------
    UndecidedError
        ``cell`` is off the board, not unknown, or not decided by the position (its mine
        probability is neither 0 nor 1).
    InvalidBoardError
        The grid is malformed.
    NoPlacementError
        No placement fits the position.

    Examples
    --------
    ``1 ? ?`` over ``1 1 ?`` with one mine: the clues at (0, 0) and (1, 0) each see one
    unknown cell, (0, 1), which is therefore a mine; (0, 2) is safe because the clue at
    (1, 1) has its mine at (0, 1) already, which either of the other two proves.

    >>> why = explain([[1, None, None], [1, 1, None]], 1, (0, 1))
    >>> why.mine, why.clues, why.uses_total, why.technique.value
    (True, ((0, 0),), False, 'count')
    >>> explain([[1, None, None], [1, 1, None]], 1, (0, 2)).clues
    ((1, 1), (0, 0))
    >>> explain([[1, None], [None, None]], 1, (0, 1))
    Traceback (most recent call last):
    ...
    mineshafted.web.errors.UndecidedError: (0, 1) is not decided by the position: its mine \
probability is 1/3

    Notes
    -----
    One count of the position for the odds; then the ladder's proof
    (:func:`~mineshafted.solver.ladder.prove`): the rungs over the cell's component until one
    decides it, and that rung once per ring of clues and per clue dropped.
    """
    position = position_of(grid)
    rows, cols = len(grid), len(grid[0])
    row, col = cell
    if not (0 <= row < rows and 0 <= col < cols):
        raise UndecidedError(f"{_at(cell)} is off the {rows}x{cols} board")
    shown = grid[row][col]
    if shown is not None:
        what = "a known mine" if shown == MINE else f"a revealed clue ({shown})"
        raise UndecidedError(f"{_at(cell)} is {what}, not an unknown cell")
    if mines < position.mines_found:
        raise NoPlacementError(
            f"{mines} mine(s) in all, but {position.mines_found} are known", why=Why.TOO_FEW
        )
    result = odds(position, mines)
    target = row * cols + col
    mined = result.mined[target]
    if 0 < mined < result.placements:
        chance = Fraction(mined, result.placements)
        raise UndecidedError(
            f"{_at(cell)} is not decided by the position: its mine probability is {chance}"
            + (f" ({float(chance):.1%})" if chance.denominator > 12 else "")
        )
    proof = prove(clues_of(grid, mines), target)
    return Explanation(
        cell=(row, col),
        mine=proof.mine,
        clues=tuple(divmod(clue.cell, cols) for clue in proof.clues),
        uses_total=proof.technique is Technique.TOTAL,
        technique=proof.technique,
        mines=mines,
        mines_left=mines - position.mines_found,
    )


def _at(cell: tuple[int, int]) -> str:
    """``(row, column)`` as text."""
    return f"({cell[0]}, {cell[1]})"
