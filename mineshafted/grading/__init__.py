"""Grade a submission's ``sweep_mines``: the rubric, one isolated child process per board."""

from __future__ import annotations

from .grade import (
    RUBRIC,
    Achievement,
    BoardResult,
    GradeReport,
    Outcome,
    SubmissionError,
    check_submission,
    grade,
    grade_board,
    shipped_puzzles,
    shipped_puzzles_root,
)

__all__ = [
    "RUBRIC",
    "Achievement",
    "BoardResult",
    "GradeReport",
    "Outcome",
    "SubmissionError",
    "check_submission",
    "grade",
    "grade_board",
    "shipped_puzzles",
    "shipped_puzzles_root",
]
