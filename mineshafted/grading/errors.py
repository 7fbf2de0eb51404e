"""Grading's exceptions: a submission that cannot be graded, a puzzle that cannot be graded on,
a key or log file that cannot be read or written."""

from __future__ import annotations

from pathlib import Path

from ..errors import MineshaftedError

__all__ = [
    "GraderFileError",
    "GradingError",
    "PuzzleStartError",
    "SubmissionError",
    "os_reason",
]


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


class GraderFileError(GradingError):
    """A file the grader reads or writes for the instructor cannot be used: a board key
    (:mod:`.key`) or a log (:mod:`.log`).

    Attributes
    ----------
    path:
        The file.
    reason:
        Why, e.g. ``"no such key file"``.
    """

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


def os_reason(error: OSError) -> str:
    """An operating system's error as a phrase to follow a colon.

    Examples
    --------
    >>> import errno, os
    >>> os_reason(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    'no space left on device'
    """
    reason = error.strerror or str(error)
    return reason[:1].lower() + reason[1:]
