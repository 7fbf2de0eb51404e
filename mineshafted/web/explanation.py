"""Explanation: why a position decides a cell, as the ladder proves it.

The proof is the ladder's (:func:`mineshafted.solver.proof.prove`): the first rung that
decides the cell from the position's clues, and a minimal set of clues enough for that rung
alone; the argument a player can check is the solver's too
(:func:`mineshafted.solver.argument.argument`: a chain of steps over those clues, directly or
from the cell supposed the other way; the mine total's count against the groups of clues;
else the placements counted). This module keeps the web's part: it checks the request (the
cell on the board, unknown, and decided by the position's odds), asks for the proof and its
argument, and words it (:mod:`.wording`) for the API.

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
argument
    The steps from those clues to the cell, one line each: every clue of the proof is named,
    and no other (for ``total``, up to :data:`NAMED`; beyond, the border as a whole).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..board import MINE, PartialGrid
from ..errors import NoPlacementError, Why
from ..probability import odds, position_of
from ..solver import Technique
from ..solver.argument import NAMED, Step, argument
from ..solver.clues import clues_of
from ..solver.proof import prove
from .errors import NotDecidedError
from .wording import Words

__all__ = ["NAMED", "Explanation", "explain"]


@dataclass(frozen=True)
class Explanation:
    """Why a position decides a cell: the clues that prove it, how, and the argument in
    words."""

    cell: tuple[int, int]
    """The cell explained, ``(row, column)``."""
    mine: bool
    """Whether the cell holds a mine (else it is safe)."""
    clues: tuple[tuple[int, int], ...]
    """The revealed clues the argument names, ``(row, column)``, nearest first: for every
    technique but ``total``, enough for :attr:`technique` to decide the cell, and minimal; for
    ``total``, the same when at most :data:`NAMED` are, else the clues of the cell's own group
    (none when no clue sees it) and the argument speaks of the rest of the border as a whole."""
    uses_total: bool
    """Whether the mine total is needed besides the clues (the technique is ``total``)."""
    technique: Technique
    """The first rung of the ladder that decides the cell from the position."""
    mines: int
    """The board's mine total."""
    mines_left: int
    """The mine total less the known mines."""
    steps: tuple[str, ...] = ()
    """The argument, one step a line, in a player's words (:mod:`.wording`)."""
    argument: tuple[Step, ...] = ()
    """The argument's steps (:mod:`.argument`), which :attr:`steps` words."""
    border: bool = False
    """Whether the argument rests on the border as a whole besides :attr:`clues` (a ``total``
    argument that would need more than :data:`NAMED` clues)."""
    cells: tuple[tuple[int, int], ...] = ()
    """The unknown cells :attr:`steps` name besides :attr:`cell`, ``(row, column)``, in
    order: with the cell and the clues, every cell the words name (the page marks them while
    it shows them)."""

    @property
    def verdict(self) -> str:
        """The cell and what it holds: ``Row 2, column 3 is safe.``"""
        row, col = self.cell
        return f"Row {row + 1}, column {col + 1} is {'a mine' if self.mine else 'safe'}."

    @property
    def text(self) -> str:
        """The verdict and the argument in one paragraph.

        Examples
        --------
        >>> why = explain([[None, None, None], [1, 1, 1]], 1, (0, 2))
        >>> print(why.text)
        Row 1, column 3 is safe. The 1 at row 2, column 1 needs 1 mine among row 1, columns 1 \
and 2. The 1 at row 2, column 2 needs 1 mine among row 1, columns 1 to 3, so row 1, column 3 \
is safe.
        >>> len(why.steps), why.steps[0]
        (2, 'The 1 at row 2, column 1 needs 1 mine among row 1, columns 1 and 2.')
        """
        return " ".join((self.verdict, *self.steps))

    def to_json(self) -> dict[str, object]:
        """The answer of ``POST /api/explain``: ``cell``, ``value`` (``"safe"`` or
        ``"mine"``), ``clues`` (``[row, column]`` each), ``uses_total``, ``technique``,
        ``text``, ``steps`` (the argument's lines, after the verdict) and ``cells`` (the
        unknown cells they name besides the cell, ``[row, column]`` each)."""
        return {
            "cell": list(self.cell),
            "value": "mine" if self.mine else "safe",
            "clues": [list(clue) for clue in self.clues],
            "uses_total": self.uses_total,
            "technique": self.technique.value,
            "text": self.text,
            "steps": list(self.steps),
            "cells": [list(cell) for cell in self.cells],
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
    NotDecidedError
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
    mineshafted.web.errors.NotDecidedError: (0, 1) is not decided by the position: its mine \
probability is 1/3

    Notes
    -----
    One count of the position for the odds; then the ladder's proof
    (:func:`~mineshafted.solver.proof.prove`): the rungs over the cell's component until one
    decides it, and that rung once per ring of clues and per clue dropped; then its argument
    (:func:`~mineshafted.solver.argument.argument`).
    """
    position = position_of(grid)
    rows, cols = len(grid), len(grid[0])
    row, col = cell
    if not (0 <= row < rows and 0 <= col < cols):
        raise NotDecidedError(f"{_at(cell)} is off the {rows}x{cols} board")
    shown = grid[row][col]
    if shown is not None:
        what = "a known mine" if shown == MINE else f"a revealed clue ({shown})"
        raise NotDecidedError(f"{_at(cell)} is {what}, not an unknown cell")
    if mines < position.mines_found:
        raise NoPlacementError(
            f"{mines} mine(s) in all, but {position.mines_found} are known", why=Why.TOO_FEW
        )
    result = odds(position, mines)
    target = row * cols + col
    mined = result.mined[target]
    if 0 < mined < result.placements:
        chance = Fraction(mined, result.placements)
        raise NotDecidedError(
            f"{_at(cell)} is not decided by the position: its mine probability is {chance}"
            + (f" ({float(chance):.1%})" if chance.denominator > 12 else "")
        )
    clues = clues_of(grid, mines)
    proof = prove(clues, target)
    argued = argument(clues, proof)
    steps, ringed = argued.steps, set(argued.clues)
    words = Words([value for line in grid for value in line], cols)
    lines = tuple(words.lines(steps))
    others = sorted(words.named - ringed - {target})
    order = [clue.cell for clue in proof.clues if clue.cell in ringed]
    order += sorted(ringed - set(order))
    return Explanation(
        cell=(row, col),
        mine=proof.mine,
        clues=tuple(divmod(clue, cols) for clue in order),
        uses_total=proof.technique is Technique.TOTAL,
        technique=proof.technique,
        mines=mines,
        mines_left=mines - position.mines_found,
        steps=lines,
        argument=steps,
        border=argued.border,
        cells=tuple(divmod(other, cols) for other in others),
    )


def _at(cell: tuple[int, int]) -> str:
    """``(row, column)`` as text."""
    return f"({cell[0]}, {cell[1]})"
