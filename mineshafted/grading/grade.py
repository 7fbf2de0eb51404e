"""Grade any ``sweep_mines`` against no-guess boards, one isolated child process per board.

Each board is played by a fresh interpreter running ``child.py``, which imports the submission
and hands its ``sweep_mines`` a manager whose ``move`` asks this process over a pipe
(:mod:`.session`). The hidden board stays here with the :class:`~.referee.Referee`, so nothing
the submission does to its manager can reveal more than the clues it moves onto. The child
sets limits on its memory, CPU time and file size before it imports the submission, and runs
in an empty temporary folder with a fixed, minimal environment (:mod:`.process`); this process
enforces a wall-clock limit and caps what it reads (:mod:`.limits`). Where it can make one,
each board also runs in a control group of its own that bounds the memory and the number of
all its processes together (:mod:`.cgroup`); where it cannot, the report's warnings say what
is not enforced. The submission's prints
are captured, capped, and kept out of the report.

Where bubblewrap runs, each child is also in a sandbox (:mod:`.sandbox`): its own
namespaces, a read-only system, a private size-limited ``/tmp``, no network, and of the
caller's files only the submission; every process it starts ends with its board. Without
it the isolation is by process and pipe only (a warning says so, once): code running as the
grader's user can still read files (the puzzle files included) or, where the system allows
it, other processes; what it leaves running is still killed after each board. A grader
running as root runs each such board as a fresh unprivileged user of its own
(:mod:`.users`), never as root.

The default boards are made from a secret key (:mod:`.key`): a report names their set, and
nothing in it rebuilds them.

The default wall-clock limit of a board grows with its size: :func:`~.limits.board_timeout`.
"""

from __future__ import annotations

import contextlib
import os
import stat
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from ..formats import Puzzle
from . import wording
from .cgroup import unenforced
from .errors import GradingError, PuzzleStartError, SubmissionError, os_reason
from .limits import Limits, board_timeout
from .options import GradeOptions
from .referee import Referee
from .result import WRONG_CELLS, BoardResult, GradeReport, Verdict
from .rubric import achievements
from .sandbox import Sandbox, choose_sandbox
from .session import Ending, Session, SessionEnd
from .zygote import Zygote

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


def check_submission(
    submission: Path,
    *,
    timeout: float | None = None,
    memory_mb: int = 1024,
    sandbox: Sandbox | None = None,
    allow: frozenset[str] | None = None,
    zygote: Zygote | None = None,
) -> None:
    """Import the submission in a child and check that it defines ``sweep_mines``.

    Parameters
    ----------
    timeout:
        Wall-clock seconds for the import; by default ``board_timeout(1)`` (30 s).
    sandbox:
        What isolates the child; by default bubblewrap where it runs (see
        :func:`~.sandbox.choose_sandbox`).
    allow:
        The modules the submission may import (``None``: no check).
    zygote:
        The submission's zygote to fork the child from (:mod:`.zygote`), if it has one.

    Raises
    ------
    SubmissionError
        It is missing, a directory or another kind of file than a regular one, unreadable,
        does not import in time, or has no callable ``sweep_mines``.
    GradingError
        No grading process can be started, or the sandbox asked for cannot run.
    """
    problem = _unreadable(submission)
    if problem:
        raise SubmissionError(submission, problem)
    limits = Limits(timeout=timeout or board_timeout(1), memory_mb=memory_mb)
    chosen = choose_sandbox(sandbox)
    end = Session(submission, limits, None, chosen, zygote=zygote, allow=allow).run()
    if end.ending is Ending.UNIMPORTABLE:
        reason = wording.unimportable(end.detail)
        raise SubmissionError(submission, reason + _hidden_package(end.detail, chosen))
    if end.ending is Ending.TIMED_OUT:
        raise SubmissionError(submission, f"timed out while being imported: {end.detail}")
    if end.ending is not Ending.READY:
        raise SubmissionError(submission, f"cannot be imported: {end.detail}")


def grade_board(
    submission: Path,
    puzzle: Puzzle,
    label: str,
    *,
    timeout: float | None = None,
    memory_mb: int = 1024,
    sandbox: Sandbox | None = None,
    allow: frozenset[str] | None = None,
    zygote: Zygote | None = None,
) -> BoardResult:
    """Play one board with the submission in a child process and judge the outcome.

    Parameters
    ----------
    timeout:
        Wall-clock seconds for the board; by default :func:`~.limits.board_timeout` of its
        cells: ``max(30 s, cells x 100 µs)``.
    sandbox:
        What isolates the child; by default bubblewrap where it runs.
    allow:
        The modules the submission may import (``None``: no check).
    zygote:
        The submission's zygote to fork the child from (:mod:`.zygote`), if it has one.

    Raises
    ------
    PuzzleStartError
        The puzzle does not start at index 0 (checked before the child is started).
    GradingError
        No grading process can be started, or the sandbox asked for cannot run.
    """
    _check_start(label, puzzle)
    referee = Referee(puzzle.board)
    cells = puzzle.board.geometry.rows * puzzle.board.geometry.cols
    limits = Limits(timeout=timeout or board_timeout(cells), memory_mb=memory_mb)
    chosen = zygote.sandbox if zygote is not None else choose_sandbox(sandbox)
    end = Session(submission, limits, referee, chosen, zygote=zygote, allow=allow).run()
    return _judged(label, puzzle, referee, end)


def _judged(label: str, puzzle: Puzzle, referee: Referee, end: SessionEnd) -> BoardResult:
    """A board's result from its session's end and its referee, worded by :mod:`.wording`."""
    geometry = puzzle.board.geometry
    outcome, detail = _OUTCOMES[end.ending], end.detail
    wrong: tuple[tuple[int, int, str, int], ...] = ()
    count = 0
    if end.ending is Ending.RESULT:
        detail = referee.judge(end.answer)
        outcome = Verdict.WRONG if detail else Verdict.SOLVED
        wrong = tuple(referee.differences(end.answer, WRONG_CELLS))
        if wrong:
            count = referee.wrong_count(end.answer)
            detail = wording.wrong_board(detail, count, referee.unexplored)
        if outcome is Verdict.SOLVED and referee.unexplored:
            outcome = Verdict.NOT_EXPLORED
            detail = wording.never_explored(referee.unexplored_cells(), geometry.cols)
    elif end.ending is Ending.EXPLODED and referee.exploded is not None:
        detail = wording.exploded(referee.exploded, geometry.cols)
    result = BoardResult(
        puzzle=label,
        rows=geometry.rows,
        cols=geometry.cols,
        mines=len(puzzle.board.mines),
        outcome=outcome,
        moves=end.moves,
        seconds=end.seconds,
        detail=detail,
        output=end.output.decode("utf-8", "replace"),
        output_bytes=end.output_bytes,
        output_kept=len(end.output),
        unexplored=referee.unexplored,
        opened=tuple(referee.opened),
        wrong=wrong,
        wrong_count=count,
        loop=referee.loop,
    )
    if result.loop is not None and wording.loop_matters(result):
        result = replace(result, detail=f"{detail}; {wording.loop(result.loop, geometry.cols)}")
    return result


def grade(
    submission: Path,
    puzzles: Sequence[tuple[str, Puzzle]],
    options: GradeOptions | None = None,
    *,
    jobs: int = 1,
    progress: Callable[[BoardResult], None] | None = None,
    board_set: str | None = None,
    zygote: bool = False,
    cancel: threading.Event | None = None,
    live: set[Zygote] | None = None,
    timeout: float | None = None,
    memory_mb: int | None = None,
    sandbox: Sandbox | None = None,
    allow: frozenset[str] | None = None,
) -> GradeReport:
    """Grade ``submission`` on each ``(label, puzzle)``, then score the rubric.

    Parameters
    ----------
    options:
        The grading options (:class:`~.options.GradeOptions`: the limits, the sandbox, the
        import rule, the time budget); by default every default.
    board_set:
        The name of the board set the puzzles come from (:class:`~.key.BoardSet`), kept in
        the report; ``None`` for puzzles from files.
    zygote:
        Under bubblewrap, fork each board's process from one zygote for the submission
        (:mod:`.zygote`: the boards are then played one at a time, and ``jobs`` is not
        used) instead of starting a sandbox and an interpreter for each.
    cancel:
        Once set, no further board is started (:class:`~.errors.GradingError` is raised).
    live:
        Where the zygote is kept while it runs, so that another thread can end it at once
        (:meth:`~.zygote.Zygote.kill`).
    timeout, memory_mb, sandbox, allow:
        Shorthands: given, each replaces the option of its name (``allow``: the modules
        ``--allow`` names).

    Raises
    ------
    PuzzleStartError
        A puzzle does not start at index 0 (checked first, before any child is started).
    SubmissionError
        The submission cannot be imported (checked once, before any board).
    GradingError
        No grading process can be started, or the sandbox asked for cannot run.
    GradeOptionsError
        A shorthand is out of its option's range.

    Notes
    -----
    Once ``options.max_timeouts`` boards have timed out, the boards not yet started are
    not run: each is recorded as :attr:`~.result.Verdict.OUT_OF_TIME`. With ``jobs``
    boards at once, up to ``jobs - 1`` more may time out meanwhile.
    """
    options = _with_shorthands(options, timeout, memory_mb, sandbox, allow)
    for label, puzzle in puzzles:
        _check_start(label, puzzle)
    chosen = choose_sandbox(options.sandbox)
    problem = _unreadable(submission)
    if problem:
        raise SubmissionError(submission, problem)
    run_time_allow = options.run_time_allow
    with contextlib.ExitStack() as stack:
        forks = None
        if zygote and chosen is Sandbox.BWRAP:
            limits = Limits(
                timeout=options.timeout or board_timeout(1), memory_mb=options.memory_mb
            )
            forks = stack.enter_context(Zygote(submission, limits, allow=run_time_allow))
            if live is not None:
                live.add(forks)
                stack.callback(live.discard, forks)
        check_submission(
            submission,
            timeout=options.timeout,
            memory_mb=options.memory_mb,
            sandbox=chosen,
            allow=run_time_allow,
            zygote=forks,
        )
        budget = _Budget(options.max_timeouts)

        def one(item: tuple[str, Puzzle]) -> BoardResult:
            label, puzzle = item
            if cancel is not None and cancel.is_set():
                raise GradingError("grading was stopped")
            if budget.spent():
                result = budget.not_run(label, puzzle)
            else:
                result = grade_board(
                    submission,
                    puzzle,
                    label,
                    timeout=options.timeout,
                    memory_mb=options.memory_mb,
                    sandbox=chosen,
                    allow=run_time_allow,
                    zygote=forks,
                )
                budget.count(result)
            if progress is not None:
                progress(result)
            return result

        if forks is not None:
            results = [one(item) for item in puzzles]
        else:
            with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                results = list(pool.map(one, puzzles))
    scored = achievements((r.mines, r.outcome is Verdict.SOLVED) for r in results)
    own_user = chosen is Sandbox.NONE and os.geteuid() == 0  # see process.py and users.py
    warnings = unenforced(own_user=own_user)
    return GradeReport(str(submission), results, scored, warnings, board_set)


def _with_shorthands(
    options: GradeOptions | None,
    timeout: float | None,
    memory_mb: int | None,
    sandbox: Sandbox | None,
    allow: frozenset[str] | None,
) -> GradeOptions:
    """``options`` (or the defaults) with each shorthand given put in its place."""
    chosen = options or GradeOptions()
    given: dict[str, object] = {}
    if timeout is not None:
        given["timeout"] = timeout
    if memory_mb is not None:
        given["memory_mb"] = memory_mb
    if sandbox is not None:
        given["sandbox"] = sandbox
    if allow is not None:
        given |= {"allow": allow, "permitted": None}
    return replace(chosen, **given) if given else chosen  # type: ignore[arg-type]


class _Budget:
    """A submission's time budget: how many of its boards have timed out, and whether it may
    start another (:attr:`~.options.GradeOptions.max_timeouts`); safe across threads."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.timed_out = 0
        self._lock = threading.Lock()

    def spent(self) -> bool:
        with self._lock:
            return bool(self.most) and self.timed_out >= self.most

    def count(self, result: BoardResult) -> None:
        if result.outcome is Verdict.TIMED_OUT:
            with self._lock:
                self.timed_out += 1

    def not_run(self, label: str, puzzle: Puzzle) -> BoardResult:
        """The result of a board not run: out of time."""
        geometry = puzzle.board.geometry
        cells = geometry.rows * geometry.cols
        return BoardResult(
            puzzle=label,
            rows=geometry.rows,
            cols=geometry.cols,
            mines=len(puzzle.board.mines),
            outcome=Verdict.OUT_OF_TIME,
            moves=0,
            seconds=0.0,
            detail=(
                f"{wording.NOT_RUN} ({self.timed_out} timed out, the most a submission may: "
                f"--max-timeouts {self.most})"
            ),
            unexplored=cells - len(puzzle.board.mines),
        )


_OUTCOMES: dict[Ending, Verdict] = {
    Ending.RESULT: Verdict.SOLVED,  # judged by the referee
    Ending.EXPLODED: Verdict.EXPLODED,
    Ending.TIMED_OUT: Verdict.TIMED_OUT,
    Ending.ERROR: Verdict.CRASHED,
    Ending.UNIMPORTABLE: Verdict.CRASHED,
    Ending.EXITED: Verdict.CRASHED,
    Ending.PROTOCOL: Verdict.CRASHED,
    Ending.READY: Verdict.CRASHED,  # a board session never ends ready
}
"""A board's outcome from its session's ending."""


def _check_start(label: str, puzzle: Puzzle) -> None:
    """Refuse a puzzle that starts elsewhere than index 0, where ``sweep_mines`` starts."""
    if puzzle.start != 0:
        row, col = puzzle.board.geometry.coords(puzzle.start)
        raise PuzzleStartError(label, row, col)


def _unreadable(submission: Path) -> str:
    """What keeps the grader from reading ``submission`` as a file (``""``: nothing).

    Examples
    --------
    >>> _unreadable(Path("/")), _unreadable(Path("/dev/null")), _unreadable(Path("/nowhere"))
    ('is a directory, not a Python file', 'is not a regular file', 'no such file')
    """
    try:
        found = submission.stat()
    except (FileNotFoundError, NotADirectoryError):
        return "no such file"
    except OSError as error:
        return f"cannot be read: {os_reason(error)}"
    if stat.S_ISDIR(found.st_mode):
        return "is a directory, not a Python file"
    if not stat.S_ISREG(found.st_mode):
        return "is not a regular file"
    try:
        submission.open("rb").close()
    except OSError as error:
        return f"cannot be read: {os_reason(error)}"
    return ""


def _hidden_package(detail: str, sandbox: Sandbox) -> str:
    """What to add to an import error that the sandbox caused by hiding ``mineshafted``."""
    if sandbox is Sandbox.BWRAP and "mineshafted" in detail:
        return (
            "; the bwrap sandbox hides the mineshafted package from every submission: grade "
            "a file that imports it (like examples/mineshafted_submission.py) with "
            "--sandbox none"
        )
    return ""
