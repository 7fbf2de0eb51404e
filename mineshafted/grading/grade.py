"""Grade any ``sweep_mines`` against no-guess boards, one isolated child process per board.

Each board is played by a fresh interpreter running ``child.py``, which imports the submission
and hands its ``sweep_mines`` a manager whose ``move`` asks this process over a pipe
(:mod:`.session`). The hidden board stays here with the :class:`~.referee.Referee`, so nothing
the submission does to its manager can reveal more than the clues it moves onto. The child
sets limits on its memory, CPU time and file size before it imports the submission, and runs
in an empty temporary folder with a fixed, minimal environment (:mod:`.process`); this process
enforces a wall-clock limit and caps what it reads (:mod:`.limits`). The submission's prints
are captured, capped, and kept out of the report.

The isolation is by process and pipe; it is not an operating-system sandbox. Code that
runs as the same user can still read files (the puzzle files included) or, where the
system allows it, other processes. Grade untrusted code as an unprivileged user, in a
container.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..formats import Puzzle
from .errors import GradingError, PuzzleStartError, SubmissionError
from .limits import Limits
from .referee import Referee
from .result import BoardResult, GradeReport, Outcome
from .rubric import achievements
from .session import Ending, Session

__all__ = [
    "check_submission",
    "grade",
    "grade_board",
    "shipped_puzzles",
    "shipped_puzzles_root",
]


def shipped_puzzles_root() -> Path | None:
    """The shipped ``puzzles/`` folder: inside an installed wheel, or beside a source checkout."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "puzzles", here.parent / "puzzles"):
        if (candidate / "no-guess").is_dir():
            return candidate
    return None


def shipped_puzzles() -> Path:
    """The shipped no-guess sets, the default boards to grade on.

    Raises
    ------
    GradingError
        The package was installed without them.
    """
    root = shipped_puzzles_root()
    if root is None:
        raise GradingError("the shipped puzzles are not installed: name puzzle files to grade")
    return root / "no-guess"


def check_submission(submission: Path, *, timeout: float = 30.0, memory_mb: int = 1024) -> None:
    """Import the submission in a child and check that it defines ``sweep_mines``.

    Raises
    ------
    SubmissionError
        It is not a readable file, does not import, or has no callable ``sweep_mines``.
    GradingError
        No grading process can be started.
    """
    if not submission.is_file():
        raise SubmissionError(submission, "no such file")
    end = Session(submission, Limits(timeout=timeout, memory_mb=memory_mb), None).run()
    if end.ending is Ending.UNIMPORTABLE:
        raise SubmissionError(submission, end.detail)
    if end.ending is not Ending.READY:
        raise SubmissionError(submission, f"cannot be imported: {end.detail}")


def grade_board(
    submission: Path, puzzle: Puzzle, label: str, *, timeout: float = 30.0, memory_mb: int = 1024
) -> BoardResult:
    """Play one board with the submission in a child process and judge the outcome.

    Raises
    ------
    PuzzleStartError
        The puzzle does not start at index 0 (checked before the child is started).
    GradingError
        No grading process can be started.
    """
    _check_start(label, puzzle)
    referee = Referee(puzzle.board)
    end = Session(submission, Limits(timeout=timeout, memory_mb=memory_mb), referee).run()
    outcome, detail = _OUTCOMES[end.ending], end.detail
    if end.ending is Ending.RESULT:
        detail = referee.judge(end.answer)
        outcome = Outcome.WRONG if detail else Outcome.SOLVED
    geometry = puzzle.board.geometry
    return BoardResult(
        puzzle=label,
        rows=geometry.rows,
        cols=geometry.cols,
        mines=puzzle.board.mine_count,
        outcome=outcome,
        moves=end.moves,
        seconds=end.seconds,
        detail=detail,
        output=end.output.decode("utf-8", "replace"),
        output_bytes=end.output_bytes,
    )


def grade(
    submission: Path,
    puzzles: Sequence[tuple[str, Puzzle]],
    *,
    timeout: float = 30.0,
    memory_mb: int = 1024,
    jobs: int = 1,
    progress: Callable[[BoardResult], None] | None = None,
) -> GradeReport:
    """Grade ``submission`` on each ``(label, puzzle)``, then score the rubric.

    Raises
    ------
    PuzzleStartError
        A puzzle does not start at index 0 (checked first, before any child is started).
    SubmissionError
        The submission cannot be imported (checked once, before any board).
    GradingError
        No grading process can be started.
    """
    for label, puzzle in puzzles:
        _check_start(label, puzzle)
    check_submission(submission, timeout=timeout, memory_mb=memory_mb)

    def one(item: tuple[str, Puzzle]) -> BoardResult:
        label, puzzle = item
        result = grade_board(submission, puzzle, label, timeout=timeout, memory_mb=memory_mb)
        if progress is not None:
            progress(result)
        return result

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, puzzles))
    scored = achievements((r.mines, r.outcome is Outcome.SOLVED) for r in results)
    return GradeReport(str(submission), results, scored)


_OUTCOMES: dict[Ending, Outcome] = {
    Ending.RESULT: Outcome.SOLVED,  # judged by the referee
    Ending.EXPLODED: Outcome.EXPLODED,
    Ending.TIMED_OUT: Outcome.TIMED_OUT,
    Ending.ERROR: Outcome.CRASHED,
    Ending.UNIMPORTABLE: Outcome.CRASHED,
    Ending.EXITED: Outcome.CRASHED,
    Ending.PROTOCOL: Outcome.CRASHED,
    Ending.READY: Outcome.CRASHED,  # a board session never ends ready
}
"""A board's outcome from its session's ending."""


def _check_start(label: str, puzzle: Puzzle) -> None:
    """Refuse a puzzle that starts elsewhere than index 0, where ``sweep_mines`` starts."""
    if puzzle.start != 0:
        row, col = puzzle.board.geometry.coords(puzzle.start)
        raise PuzzleStartError(label, row, col)
