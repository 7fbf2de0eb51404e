"""Grade a submission's ``sweep_mines``: the rubric, one isolated child process per board.

Modules: :mod:`.grade` (the entry points), :mod:`.session` (one child, refereed, and how it
ended), :mod:`.process` (starting the child and sweeping up after it), :mod:`.sandbox`
(bubblewrap, or none), :mod:`.cgroup` (a board's processes bounded together), :mod:`.child`
(the script it runs),
:mod:`.protocol` (the messages), :mod:`.referee` (the hidden board), :mod:`.capture` (its
output), :mod:`.limits`, :mod:`.rubric`, :mod:`.result` and :mod:`.errors`.
"""

from __future__ import annotations

from .errors import GradingError, PuzzleStartError, SubmissionError
from .grade import check_submission, grade, grade_board, shipped_puzzles, shipped_puzzles_root
from .limits import Limits, board_timeout
from .result import BoardResult, GradeReport, Outcome
from .rubric import RUBRIC, Achievement, Tier
from .sandbox import Sandbox

__all__ = [
    "RUBRIC",
    "Achievement",
    "BoardResult",
    "GradeReport",
    "GradingError",
    "Limits",
    "Outcome",
    "PuzzleStartError",
    "Sandbox",
    "SubmissionError",
    "Tier",
    "board_timeout",
    "check_submission",
    "grade",
    "grade_board",
    "shipped_puzzles",
    "shipped_puzzles_root",
]
