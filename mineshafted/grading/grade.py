"""Grade any ``sweep_mines`` against no-guess boards, one isolated child process per board.

Each board is played by a fresh interpreter running :mod:`mineshafted.grading.child`, which
imports the submission and hands its ``sweep_mines`` a manager whose ``move`` asks this
process over a pipe. The hidden board stays here, so nothing the submission does to its
manager can reveal more than the clues it moves onto. The child runs with a wall-clock
limit (enforced here), limits on memory, CPU time and file size, an empty working
directory and a minimal environment. Its prints are captured, capped, and kept out of the
report.

The isolation is by process and pipe; it is not an operating-system sandbox. Code that
runs as the same user can still read files (the puzzle files included) or, where the
system allows it, other processes. Grade untrusted code as an unprivileged user, in a
container.
"""

from __future__ import annotations

import json
import os
import resource
import selectors
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from ..errors import MineshaftedError
from ..formats import Puzzle

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

CHILD = Path(__file__).with_name("child.py")
OUTPUT_CAP = 64 * 1024
"""Bytes of a submission's output kept per board; the rest is counted, not kept."""
MESSAGE_CAP = 64 * 1024 * 1024
"""Longest protocol message accepted from a child."""
GRACE = 2.0
"""Seconds a child may take to exit after its answer before it is killed."""

RUBRIC: tuple[tuple[str, int, int], ...] = (
    ("Sweeps 1 Mine", 1, 10),
    ("Sweeps 2 Mines", 2, 15),
    ("Sweeps 3 Mines", 3, 20),
    ("Sweeps 4 Mines", 4, 25),
    ("Sweeps 5+ Mines", 5, 30),
)
"""The Mine Shafted achievements: name, mines on the board (5 means 5 or more), percent."""


class SubmissionError(MineshaftedError):
    """The submission cannot be graded: it does not import, or defines no ``sweep_mines``."""


class Outcome(Enum):
    """How one board went."""

    SOLVED = "solved"
    WRONG = "wrong board"
    EXPLODED = "exploded"
    CRASHED = "crashed"
    TIMED_OUT = "timed out"


@dataclass
class BoardResult:
    """One board's grade."""

    puzzle: str
    rows: int
    cols: int
    mines: int
    outcome: Outcome
    moves: int
    """Moves onto safe cells (a move onto a mine, or after the game ended, is not counted)."""
    seconds: float
    """Wall-clock time of ``sweep_mines`` (from just before the call to its return)."""
    detail: str = ""
    """What went wrong: the exception, the first wrong cell, the exit status."""
    output: str = ""
    """What the submission printed (the first 64 KiB)."""
    output_bytes: int = 0


@dataclass
class Achievement:
    """One line of the rubric."""

    name: str
    mines: int
    weight: int
    graded: int
    solved: int

    @property
    def earned(self) -> bool:
        """Every graded board with this many mines was solved (and there was one)."""
        return self.graded > 0 and self.solved == self.graded


@dataclass
class GradeReport:
    """The whole grade of one submission."""

    submission: str
    boards: list[BoardResult]
    achievements: list[Achievement] = field(default_factory=list)

    @property
    def score(self) -> int:
        """Percent: the sum of the weights of the achievements earned."""
        return sum(a.weight for a in self.achievements if a.earned)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (the submission's output left out)."""
        return {
            "submission": self.submission,
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
                    "puzzle": b.puzzle,
                    "rows": b.rows,
                    "cols": b.cols,
                    "mines": b.mines,
                    "outcome": b.outcome.value,
                    "moves": b.moves,
                    "seconds": round(b.seconds, 6),
                    "detail": b.detail,
                    "output_bytes": b.output_bytes,
                }
                for b in self.boards
            ],
        }


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
    SubmissionError
        The package was installed without them.
    """
    root = shipped_puzzles_root()
    if root is None:
        raise SubmissionError("the shipped puzzles are not installed: name puzzle files to grade")
    return root / "no-guess"


def check_submission(submission: Path, *, timeout: float = 30.0, memory_mb: int = 1024) -> None:
    """Import the submission in a child and check that it defines ``sweep_mines``.

    Raises
    ------
    SubmissionError
        It is not a readable file, does not import, or has no callable ``sweep_mines``.
    """
    if not submission.is_file():
        raise SubmissionError(f"{submission}: no such file")
    session = _Session(submission, 1, 1, timeout, memory_mb, check=True)
    session.run(board=None)
    if session.error is not None:
        kind, message = session.error.get("type", "?"), session.error.get("message", "")
        raise SubmissionError(f"{submission}: cannot be imported: {kind}: {message}".rstrip(": "))
    if not session.ready:
        raise SubmissionError(f"{submission}: cannot be imported: {session.ending}")


def grade_board(
    submission: Path, puzzle: Puzzle, label: str, *, timeout: float = 30.0, memory_mb: int = 1024
) -> BoardResult:
    """Play one board with the submission in a child process and judge the outcome."""
    geometry, board = puzzle.board.geometry, puzzle.board
    session = _Session(submission, geometry.rows, geometry.cols, timeout, memory_mb)
    session.run(board=board.values)
    result = BoardResult(
        puzzle=label,
        rows=geometry.rows,
        cols=geometry.cols,
        mines=board.mine_count,
        outcome=Outcome.CRASHED,
        moves=session.moves,
        seconds=session.seconds,
        output=session.output.decode("utf-8", "replace"),
        output_bytes=session.output_bytes,
    )
    if session.exploded is not None:
        row, col = geometry.coords(session.exploded)
        result.outcome, result.detail = Outcome.EXPLODED, f"moved onto the mine at ({row}, {col})"
    elif session.timed_out:
        result.outcome, result.detail = Outcome.TIMED_OUT, f"no answer within {timeout:g} s"
    elif session.error is not None:
        result.detail = f"{session.error.get('type', '?')}: {session.error.get('message', '')}"
    elif not session.has_result:
        result.detail = session.ending
    else:
        wrong = _first_difference(session.result, board.to_grid())
        if wrong:
            result.outcome, result.detail = Outcome.WRONG, wrong
        else:
            result.outcome = Outcome.SOLVED
    return result


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
    SubmissionError
        The submission cannot be imported (checked once, before any board).
    """
    check_submission(submission, timeout=timeout, memory_mb=memory_mb)

    def one(item: tuple[str, Puzzle]) -> BoardResult:
        label, puzzle = item
        result = grade_board(submission, puzzle, label, timeout=timeout, memory_mb=memory_mb)
        if progress is not None:
            progress(result)
        return result

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, puzzles))
    return GradeReport(str(submission), results, _achievements(results))


def _achievements(results: Iterable[BoardResult]) -> list[Achievement]:
    results = list(results)
    achievements = []
    for name, mines, weight in RUBRIC:
        tier = [r for r in results if (r.mines >= mines if mines == 5 else r.mines == mines)]
        solved = sum(r.outcome is Outcome.SOLVED for r in tier)
        achievements.append(Achievement(name, mines, weight, len(tier), solved))
    return achievements


def _first_difference(result: Any, truth: list[list[int]]) -> str:
    """Why ``result`` is not ``truth``; ``""`` when it is."""
    if not isinstance(result, list) or not all(isinstance(row, list) for row in result):
        return f"returned {type(result).__name__}, not a list of rows"
    if len(result) != len(truth) or any(
        len(a) != len(b) for a, b in zip(result, truth, strict=False)
    ):
        shape = f"{len(result)}x{len(result[0]) if result else 0}"
        return f"returned a {shape} board for a {len(truth)}x{len(truth[0])} one"
    for r, (got, want) in enumerate(zip(result, truth, strict=True)):
        for c, (a, b) in enumerate(zip(got, want, strict=True)):
            if a != b or type(a) is not int:
                return f"({r}, {c}) is {a!r}, not {b}"
    return ""


class _Session:
    """One child process and the conversation with it."""

    def __init__(
        self,
        submission: Path,
        rows: int,
        cols: int,
        timeout: float,
        memory_mb: int,
        *,
        check: bool = False,
    ) -> None:
        self.submission = submission.resolve()
        self.rows, self.cols = rows, cols
        self.timeout, self.memory_mb, self.check = timeout, memory_mb, check
        self.ready = self.timed_out = self.has_result = self.finished = False
        self.exploded: int | None = None
        self.error: dict[str, Any] | None = None
        self.result: Any = None
        self.moves = 0
        self.seconds = 0.0
        self.started: float | None = None
        self.output = b""
        self.output_bytes = 0
        self.ending = ""

    def run(self, board: Sequence[int] | None) -> None:
        """Start the child, answer its moves until it finishes or runs out of time."""
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        with tempfile.TemporaryDirectory(prefix="mineshafted-grade-") as workdir:
            args = [
                sys.executable,
                "-I",
                str(CHILD),
                str(self.submission),
                str(self.rows),
                str(self.cols),
            ]
            args += [str(to_child_r), str(from_child_w)] + (["--check"] if self.check else [])
            try:
                child = subprocess.Popen(
                    args,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    pass_fds=(to_child_r, from_child_w),
                    cwd=workdir,
                    env=_child_environment(),
                    start_new_session=True,
                    preexec_fn=_limits(self.timeout, self.memory_mb),
                )
            except OSError as error:
                os.close(to_child_w)
                os.close(from_child_r)
                raise SubmissionError(f"cannot start a grading process: {error}") from None
            finally:
                os.close(to_child_r)
                os.close(from_child_w)
            with os.fdopen(to_child_w, "wb") as replies, child:
                self._converse(child, from_child_r, replies, board)
                code = child.wait()
            os.close(from_child_r)
        if not self.ending:
            self.ending = f"exited with status {code}" if code >= 0 else f"killed by signal {-code}"

    def _converse(
        self,
        child: subprocess.Popen[bytes],
        channel: int,
        replies: Any,
        board: Sequence[int] | None,
    ) -> None:
        """Answer the child until its streams close; kill it at the deadline or on abuse.

        After its result the child gets a short grace to exit, so that what it printed (and
        buffered) reaches the log.
        """
        assert child.stdout is not None
        deadline = time.monotonic() + self.timeout
        pending = b""
        with selectors.DefaultSelector() as selector:
            selector.register(channel, selectors.EVENT_READ, "channel")
            selector.register(child.stdout.fileno(), selectors.EVENT_READ, "output")
            open_streams = 2
            while open_streams:
                left = deadline - time.monotonic()
                if left <= 0:
                    self._kill(child)
                    self.timed_out = not self.finished
                    self._stop_clock()
                    return
                for key, _ in selector.select(timeout=left):
                    chunk = os.read(key.fd, 65536)
                    if not chunk:
                        selector.unregister(key.fd)
                        open_streams -= 1
                    elif key.data == "output":
                        self._keep_output(chunk)
                    elif not self.finished:
                        pending += chunk
                        if len(pending) > MESSAGE_CAP:
                            self.ending = "sent a message larger than the grader accepts"
                            self._kill(child)
                            return
                        while b"\n" in pending and not self.finished:
                            line, pending = pending.split(b"\n", 1)
                            if not self._handle(line, replies, board):
                                self._kill(child)
                                return
                        if self.finished:
                            deadline = min(deadline, time.monotonic() + GRACE)
        self._stop_clock()

    def _handle(self, line: bytes, replies: Any, board: Sequence[int] | None) -> bool:
        """Act on one message; ``False`` when the child broke the protocol."""
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            self.ending = "wrote something other than the grader's protocol to its channel"
            return False
        if "move" in message and board is not None:
            replies.write(json.dumps(self._answer(message["move"], board)).encode() + b"\n")
            replies.flush()
        elif message.get("ready"):
            self.ready = True
            self.finished = self.check
        elif message.get("start"):
            self.started = self.started or time.perf_counter()
        elif "result" in message:
            self._stop_clock()
            self.finished = self.has_result = True
            self.result = message["result"]
        elif "error" in message:
            self._stop_clock()
            self.finished = True
            error = message["error"]
            self.error = error if isinstance(error, dict) else {"type": "?", "message": str(error)}
        return True

    def _answer(self, index: Any, board: Sequence[int]) -> dict[str, Any]:
        if self.exploded is not None:
            return {"over": True}
        if type(index) is not int or not 0 <= index < len(board):
            last = len(board) - 1
            return {
                "bad": f"cell index {index!r} is outside the board: valid indices are 0..{last}"
            }
        if board[index] < 0:
            self.exploded = index
            return {"mine": True}
        self.moves += 1
        return {"clue": board[index]}

    def _keep_output(self, chunk: bytes) -> None:
        self.output_bytes += len(chunk)
        room = OUTPUT_CAP - len(self.output)
        if room > 0:
            self.output += chunk[:room]

    def _stop_clock(self) -> None:
        if self.started is not None and not self.seconds:
            self.seconds = time.perf_counter() - self.started

    @staticmethod
    def _kill(child: subprocess.Popen[bytes]) -> None:
        try:
            os.killpg(child.pid, 9)
        except (ProcessLookupError, PermissionError):
            child.kill()


def _child_environment() -> dict[str, str]:
    """Just enough environment for an interpreter: no secrets of the grader's."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "HOME": "/nonexistent",
    }


def _limits(timeout: float, memory_mb: int) -> Callable[[], None]:
    """Resource limits for the child, set between fork and exec."""
    cpu = int(timeout) + 2

    def apply() -> None:
        memory = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024 * 1024, 64 * 1024 * 1024))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply
