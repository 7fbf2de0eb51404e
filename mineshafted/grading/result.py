"""The results of grading: each board's verdict, and the report with its score and JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..text import visible
from .rubric import Achievement

__all__ = ["WRONG_CELLS", "BoardResult", "GradeReport", "Verdict"]

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
            "boards": [
                {
                    "puzzle": visible(b.puzzle),
                    "rows": b.rows,
                    "cols": b.cols,
                    "mines": b.mines,
                    "outcome": b.outcome.value,
                    "moves": b.moves,
                    "seconds": round(b.seconds, 6),
                    "detail": visible(b.detail),
                    "output_bytes": b.output_bytes,
                    "unexplored": b.unexplored,
                }
                for b in self.boards
            ],
            "warnings": [visible(warning) for warning in self.warnings],
        }
