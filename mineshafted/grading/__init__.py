"""Grade a submission's ``sweep_mines``: the rubric, one isolated child process per board.

Modules: :mod:`.grade` (the entry points), :mod:`.key` (the secret the default boards are
made from, and the board sets it names), :mod:`.boards` (the default boards from a seed),
:mod:`.session` (one child, refereed, and how it ended), :mod:`.process` (starting the child
and sweeping up after it), :mod:`.sandbox` (bubblewrap, or none), :mod:`.users` (the fresh
unprivileged user of each board, when a root grader has no sandbox), :mod:`.cgroup` (a
board's processes bounded together), :mod:`.child` (the script it runs), :mod:`.protocol`
(the messages), :mod:`.referee` (the hidden board), :mod:`.capture` (its output), :mod:`.log`
(what it printed, board by board, and the file that keeps it), :mod:`.limits`,
:mod:`.rubric`, :mod:`.result` and :mod:`.errors`; :mod:`.options` (what changes a grade: one
validated model for every way of grading) and :mod:`.files` (the instructor's files, read
only when regular, written only where allowed).

A class: :mod:`.zygote` (one sandbox per submission forking each board's process),
:mod:`.roster` (the students of a folder), :mod:`.classrun` (the run from start to end),
:mod:`.runfolder` (its resumable folder), :mod:`.student` (a student's grade),
:mod:`.imports` (``--allow``), :mod:`.feedback`, :mod:`.gradebook` (CSV and JSON),
:mod:`.similarity` (copydetect); for course platforms, :mod:`.platforms` (their
``results.json``), :mod:`.autograder` (Gradescope's zip, PrairieLearn's files) and
:mod:`.wheel` (the installed package as a wheel).
"""

from __future__ import annotations

from .errors import GraderFileError, GradingError, PuzzleStartError, SubmissionError
from .grade import check_submission, grade, grade_board, shipped_puzzles, shipped_puzzles_root
from .key import BoardKey, BoardSet
from .limits import Limits, board_timeout
from .options import GradeOptions
from .result import BoardResult, GradeReport, Verdict
from .rubric import RUBRIC, Achievement, Tier
from .sandbox import Sandbox

__all__ = [
    "RUBRIC",
    "Achievement",
    "BoardKey",
    "BoardResult",
    "BoardSet",
    "GradeOptions",
    "GradeReport",
    "GraderFileError",
    "GradingError",
    "Limits",
    "PuzzleStartError",
    "Sandbox",
    "SubmissionError",
    "Tier",
    "Verdict",
    "board_timeout",
    "check_submission",
    "grade",
    "grade_board",
    "shipped_puzzles",
    "shipped_puzzles_root",
]
