"""The mine total in deduction: the cells it decides, and a sweep that plays them.

Local deduction first, the global count last (Tatham's order): the sweep's own stages run
until they stall, and only then are placements counted under the mine total to find cells
that are safe, or mined, in every one of them.
"""

from __future__ import annotations

import logging

from ..solver import Fact, Position, Sweep, SweepReport
from .odds import odds

__all__ = ["certain", "sweep_with_total"]

log = logging.getLogger(__name__)


def certain(stall: Sweep | Position, mines: int) -> list[Fact]:
    """The unknown cells the mine total decides: safe, or mined, in every placement.

    Parameters
    ----------
    stall:
        A stalled :class:`~mineshafted.solver.Sweep` (its :meth:`~Sweep.position` is used)
        or the position itself.
    mines:
        The board's mine total.

    Returns
    -------
    list of (cell, is_mine)
        Ascending by cell; empty when the total decides nothing.

    Raises
    ------
    NoPlacementError
        No placement of the mines left fits the position.

    Examples
    --------
    ``0 1 * ?`` with one mine in all: the mine is found, so the last cell is safe.

    >>> from mineshafted import BoardManager, Sweep
    >>> sweep = Sweep(BoardManager([[0, 1, -1, 1]]))
    >>> sweep.run().undetermined
    [3]
    >>> certain(sweep, 1)
    [(3, False)]

    Notes
    -----
    The exact odds of the position (:func:`~.odds.odds`), kept where the count is 0 or all
    the placements: the same cost.
    """
    position = stall.position() if isinstance(stall, Sweep) else stall
    return odds(position, mines).certain()


def sweep_with_total(sweep: Sweep, mines: int) -> SweepReport:
    """Play ``sweep`` as far as logic and the mine total go, never guessing.

    Advance the sweep to a stall; tell it the cells the total decides; advance again; until
    it is solved or the total decides nothing more.

    Parameters
    ----------
    sweep:
        A sweep, run or not; it is advanced in place and can be advanced again afterwards.
    mines:
        The board's mine total.

    Returns
    -------
    SweepReport
        The sweep's report: solved, or stalled where even the total decides nothing. The
        cells the total decided are counted under ``proven_by["told"]``.

    Raises
    ------
    NoPlacementError
        The mine total does not fit the clues.
    ContradictionError
        The manager's clues contradict each other.

    Examples
    --------
    Four cells walled off by mines, seen by no clue: the sweep alone stalls; with both mines
    found, the total says they are safe.

    >>> from mineshafted import Board, BoardManager, Sweep
    >>> board = Board.from_text('''
    ...     . . * . .
    ...     . . * . .
    ... ''')
    >>> Sweep(BoardManager(board.to_grid())).run().undetermined
    [3, 4, 8, 9]
    >>> report = sweep_with_total(Sweep(BoardManager(board.to_grid())), board.mine_count)
    >>> report.solved, report.proven_by["told"]
    (True, 4)

    Notes
    -----
    Each round costs one advance and one count of the stalled position
    (:func:`~.odds.odds`); every round but the last decides at least one cell.
    """
    report = sweep.advance()
    while not report.solved:
        facts = certain(sweep, mines)
        if not facts:
            break
        log.info("the mine total decides %d cell(s)", len(facts))
        for cell, mine in facts:
            sweep.tell(cell, mine=mine)
        report = sweep.advance()
    return report
