"""Ratings: the weakest technique that solves a board, found in one sweep up the ladder.

Glossary
--------
rating
    The first :class:`~mineshafted.solver.technique.Technique`, weakest first, whose loop
    decides every cell of a board from its start cell (see :mod:`.solver.technique`).

One sweep climbing every rung of the ladder (:mod:`.solver.ladder`) is enough: it uses a rung
only when every weaker one has reached its own fixed point without solving the board, so the
strongest rung that decided a cell is the rating (:meth:`~.solver.sweep.Sweep.rating`, the
same answer the generator certifies by), and a board the sweep does not solve is rated
``guess``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from time import perf_counter

from .board import Board, Cell
from .errors import InvalidBoardError, StartError
from .game.manager import BoardManager
from .solver.sweep import Sweep
from .solver.technique import Stage, Technique

__all__ = ["Rating", "rate"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rating:
    """A board's rating and what each technique decided on the way."""

    technique: Technique
    """The weakest technique that solves the board; ``guess`` when none does."""
    decided: dict[Technique, int]
    """Cells decided by each solving technique in the ladder sweep, weakest first (the
    start cell counts for ``count``); every solving technique is a key."""
    unknown: int
    """Cells no technique decided: still unknown (0 unless the rating is ``guess``)."""
    moves: int
    """Cells moved onto."""
    seconds: float

    def to_json(self) -> dict[str, object]:
        """The rating as a JSON-ready object."""
        return {
            "technique": self.technique.value,
            "decided": {t.value: n for t, n in self.decided.items()},
            "unknown": self.unknown,
            "moves": self.moves,
            "seconds": round(self.seconds, 6),
        }


def rate(board: Board, *, start: Cell = 0) -> Rating:
    """Rate ``board`` played from ``start``: the weakest technique that solves it.

    Parameters
    ----------
    board:
        The board (a :class:`~mineshafted.board.Board`; ``Board.from_grid`` reads a 2D list).
    start:
        The row-major index of the first move; it must be safe.

    Raises
    ------
    StartError
        ``start`` is not a cell of the board.
    InvalidBoardError
        ``start`` holds a mine.

    Examples
    --------
    The assignment's 4x3 sample is solved by ``subset`` already:

    >>> sample = Board.from_grid([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]])
    >>> rating = rate(sample)
    >>> rating.technique.value, {t.value: n for t, n in rating.decided.items()}
    ('subset', {'count': 11, 'subset': 1, 'ac3': 0, 'complete': 0, 'total': 0})

    A mine walled in by mines needs the total; three cells for one mine need a guess:

    >>> rate(Board.from_grid([[0, 1, -1, -1]])).technique.value
    'total'
    >>> rate(Board.from_grid([[0, 2, -1], [0, 2, -1], [0, 1, 1]]), start=0).technique.value
    'count'
    >>> rate(Board.from_grid([[1, -1], [1, 1]]), start=2).technique.value
    'guess'

    Notes
    -----
    One sweep up every rung: the sweep's cost (see :mod:`.solver.sweep`) plus the subset
    closure at each stall of the count.
    """
    geometry = board.geometry
    if type(start) is not int or not 0 <= start < geometry.cells:
        raise StartError(start, rows=geometry.rows, cols=geometry.cols)
    if start in board.mines:
        row, col = geometry.coords(start)
        raise InvalidBoardError("the start cell holds a mine", row=row, col=col)
    began = perf_counter()
    sweep = Sweep(
        BoardManager(board),
        start=start,
        mines=board.mine_total,
        technique=Technique.TOTAL,
    )
    report = sweep.run()
    decided = dict.fromkeys(Technique.solving(), 0)
    for stage, n in report.proven_by.items():
        decided[Stage(stage).technique] += n
    technique = sweep.rating()
    assert technique is not None, "a sweep up every rung tells every rating"
    seconds = perf_counter() - began
    log.info("rated %s in %.1f ms: %s", technique.value, seconds * 1000, decided)
    return Rating(technique, decided, len(report.undetermined), report.moves, seconds)
