"""Grading's exceptions: a submission that cannot be graded, a puzzle that cannot be graded on."""

from __future__ import annotations

from pathlib import Path

from ..errors import MineshaftedError

__all__ = ["GradingError", "PuzzleStartError", "SubmissionError"]


class GradingError(MineshaftedError):
    """Base class of grading's errors; raised as is when grading itself cannot go on.

    For example, no grading process can be started, or the shipped puzzles are missing.
    """


class SubmissionError(GradingError):
    """The submission cannot be graded: it does not exist, does not import, or has no
    ``sweep_mines``.

    Attributes
    ----------
    submission:
        The submission's path.
    reason:
        Why it cannot be graded, e.g. ``"cannot be imported: SyntaxError: ..."``.
    """

    def __init__(self, submission: Path, reason: str) -> None:
        self.submission = submission
        self.reason = reason
        super().__init__(f"{submission}: {reason}")


class PuzzleStartError(GradingError):
    """A puzzle starts elsewhere than index 0, where every graded ``sweep_mines`` starts.

    Attributes
    ----------
    label:
        The puzzle's label in the grade.
    row, col:
        Where the puzzle starts.
    """

    def __init__(self, label: str, row: int, col: int) -> None:
        self.label = label
        self.row = row
        self.col = col
        super().__init__(f"{label}: starts at [{row}, {col}], but sweep_mines starts at index 0")
