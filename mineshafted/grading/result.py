"""The results of grading: each board's verdict, and the report with its score and JSON form."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..text import visible
from .rubric import Achievement

__all__ = ["WRONG_CELLS", "BoardResult", "GradeReport", "Loop", "Verdict"]

WRONG_CELLS = 20
"""Wrong cells of a wrong board kept for feedback."""


class Verdict(Enum):
    """How one board went."""

    SOLVED = "solved"
    WRONG = "wrong board"
    NOT_EXPLORED = "not explored"
    """The right board, returned before every safe cell was moved onto: not solved (the
    assignment asks for a sweep, not a board known some other way)."""
    EXPLODED = "exploded"
    CRASHED = "crashed"
    """The submission raised, did not import, exited, or broke the grading protocol."""
    TIMED_OUT = "timed out"
    OUT_OF_TIME = "out of time"
    """Not run: the submission had already let as many boards time out as it may
    (:attr:`~.options.GradeOptions.max_timeouts`), so its remaining boards were not played."""


@dataclass(frozen=True)
class Loop:
    """The moves a sweep made after its last move onto a new cell: each onto a cell it had
    already moved onto (:attr:`~.referee.Referee.loop`).

    Examples
    --------
    >>> loop = Loop(first=15, moves=71_011, cells=(3, 4), periodic=True, distinct=2)
    >>> loop.last, loop.repeats
    (71025, 35505)
    """

    first: int
    """The number of the first of these moves (moves onto safe cells counted from 1)."""
    moves: int
    """How many there were (at least 1)."""
    cells: tuple[int, ...]
    """The cells they repeat, one cycle of them, when :attr:`periodic`; else the first of
    them, in order (at most :data:`~.referee.LOOP_KEPT`)."""
    periodic: bool
    """Whether every one of these moves follows the cycle :attr:`cells` (the cycle gone through at
    least twice)."""
    distinct: int
    """How many different cells they went to."""

    @property
    def last(self) -> int:
        """The number of the last of these moves."""
        return self.first + self.moves - 1

    @property
    def repeats(self) -> int:
        """Whole times :attr:`cells` were gone through (for a periodic loop)."""
        return self.moves // len(self.cells) if self.cells else 0


@dataclass(frozen=True)
class BoardResult:
    """One board's grade."""

    puzzle: str
    rows: int
    cols: int
    mines: int
    outcome: Verdict
    moves: int
    """Moves onto safe cells (a move onto a mine, or after the game ended, is not counted)."""
    seconds: float
    """Wall-clock time of ``sweep_mines`` (from just before the call to its return)."""
    detail: str = ""
    """What went wrong: the exception, the first wrong cell, the exit status, the protocol
    break."""
    output: str = ""
    """What the submission printed (the first 64 KiB by default)."""
    output_bytes: int = 0
    """How many bytes it printed in all."""
    output_kept: int = 0
    """How many of them were kept (the first ones, up to the output cap)."""
    unexplored: int = 0
    """Safe cells never moved onto (for every outcome; 0 for a board solved)."""
    opened: tuple[int, ...] = ()
    """Each safe cell in the order it was first moved onto, then the mine moved onto, if
    one was (:attr:`~.referee.Referee.opened`): what a replay of the sweep shows."""
    wrong: tuple[tuple[int, int, str, int], ...] = ()
    """For a wrong board, its first wrong cells (at most :data:`WRONG_CELLS`): ``(row, col,
    what was returned there, what the cell is)``."""
    wrong_count: int = 0
    """For a wrong board of the right shape, how many of its cells are wrong in all (0 when
    not counted: :attr:`wrong` is then all that is known)."""
    loop: Loop | None = None
    """The moves after the sweep's last move onto a new cell, if it made any."""

    def summary(self, shown: Callable[[str], str] = str) -> dict[str, Any]:
        """The board's grade in JSON, without what only feedback needs (its output, cells,
        loop): the part a report and a stored grade share.

        ``shown`` is applied to the strings a submission may have put there (the puzzle's
        label, the detail): :func:`mineshafted.text.visible` for a report.
        """
        return {
            "puzzle": shown(self.puzzle),
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "outcome": self.outcome.value,
            "moves": self.moves,
            "seconds": round(self.seconds, 6),
            "detail": shown(self.detail),
            "output_bytes": self.output_bytes,
            "unexplored": self.unexplored,
        }


@dataclass(frozen=True)
class GradeReport:
    """The whole grade of one submission."""

    submission: str
    boards: list[BoardResult]
    achievements: list[Achievement] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """What the grader could not enforce here (:func:`~.cgroup.unenforced`), one phrase
    each: empty where every limit held."""
    board_set: str | None = None
    """The name of the board set graded on (:class:`~.key.BoardSet`), or ``None`` for boards
    from puzzle files. It reveals nothing that rebuilds the boards."""

    @property
    def score(self) -> int:
        """Percent: the sum of the weights of the achievements earned."""
        return sum(a.weight for a in self.achievements if a.earned)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (the submission's output left out).

        Every string in it that did not come from the grader alone (the submission's path,
        the puzzles' labels, the details, the warnings) has passed through
        :func:`mineshafted.text.visible`: it holds no control character and no surrogate.
        """
        return {
            "submission": visible(self.submission),
            "board_set": self.board_set,
            "score": self.score,
            "achievements": [
                {
                    "name": a.name,
                    "weight": a.weight,
                    "graded": a.graded,
                    "solved": a.solved,
                    "earned": a.earned,
                }
                for a in self.achievements
            ],
            "boards": [b.summary(visible) for b in self.boards],
            "warnings": [visible(warning) for warning in self.warnings],
        }
