"""A class run: every student of a folder graded on one board set, resumable, into a folder.

The run's folder (``--out``) holds everything it knows, so an interrupted run (Ctrl-C, a
kill, a crash) goes on where it stopped when the same command is run again:

- ``run.json``: the board set's name, where its key is, the options that change a grade
  (``--allow``, ``--timeout``, ``--memory``, ``--file``, ``--sandbox``), and whether the run
  has finished;
- ``board.key``: the run's fresh key (mode 0600), unless ``--key`` gave one (then the run
  records that file's path and never copies it);
- ``results/NAME.json``: each student's grade, written atomically the moment the student is
  finished (with the SHA-256 of the file graded): a student whose result is there and whose
  file has not changed is never graded again; one whose file changed is graded again;
- ``feedback/NAME.md`` and ``.html``, also as each student finishes;
- ``grades.csv`` and ``grades.json``, the gradebook, once every student is graded.

A finished run's feedback shows its boards, so a finished run is never extended: a changed
or a new submission is refused (grade it into a new folder: new boards), and a finished run
run again only writes its gradebook again (``--similarity`` added, say).

Glossary
--------
class run
    One grading of a folder of submissions, on one board set, into one folder.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..formats import Puzzle
from .errors import GradingError, SubmissionError, os_reason
from .grade import grade
from .imports import Finding, blocked, disallowed
from .key import BoardKey, BoardSet
from .result import BoardResult, GradeReport, Verdict
from .roster import Student, read_submission
from .rubric import achievements
from .sandbox import Sandbox
from .zygote import Zygote

__all__ = [
    "KEY_FILE",
    "RUN_FILE",
    "ClassOptions",
    "ClassRun",
    "ClassRunError",
    "StudentGrade",
    "file_stem",
    "write_atomically",
]

logger = logging.getLogger(__name__)

RUN_FILE = "run.json"
KEY_FILE = "board.key"
RESULTS = "results"
FEEDBACK = "feedback"

_FORMAT = "mineshafted-class-run"
_STUDENT_FORMAT = "mineshafted-student"
_VERSION = 1

_BROKEN_AFTER = 3
"""Students the grader fails on (its own error, twice each) before any succeeds, after which
the run stops: the grader, not the students, is broken."""


class ClassRunError(GradingError):
    """The run cannot go on: its folder, key or options do not fit (a run-level problem)."""


@dataclass(frozen=True)
class ClassOptions:
    """What changes a grade, recorded in ``run.json``: a resumed run must use the same."""

    file: str | None = None
    allow: frozenset[str] | None = None
    timeout: float | None = None
    memory_mb: int = 1024
    sandbox: str | None = None
    """``"bwrap"``, ``"none"``, or ``None`` for the default (bubblewrap where it runs)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "allow": sorted(self.allow) if self.allow is not None else None,
            "timeout": self.timeout,
            "memory_mb": self.memory_mb,
            "sandbox": self.sandbox,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClassOptions:
        allow = data.get("allow")
        return cls(
            file=data.get("file"),
            allow=frozenset(allow) if allow is not None else None,
            timeout=data.get("timeout"),
            memory_mb=int(data.get("memory_mb", 1024)),
            sandbox=data.get("sandbox"),
        )

    def differences(self, other: ClassOptions) -> list[str]:
        """The options ``other`` gives differently, as ``--name VALUE`` (this run's)."""
        names = {"file": "--file", "allow": "--allow", "timeout": "--timeout"}
        names |= {"memory_mb": "--memory", "sandbox": "--sandbox"}
        mine, theirs = self.to_json(), other.to_json()
        found = []
        for key, option in names.items():
            if mine[key] != theirs[key]:
                value = mine[key]
                shown = ",".join(value) if isinstance(value, list) else value
                found.append(f"{option} {shown if value is not None else '(not given)'}")
        return found


@dataclass
class StudentGrade:
    """One student's row: their grade, or why they have none."""

    name: str
    source: str
    sha256: str | None = None
    problem: str = ""
    """Why there is no grade (``""``: graded). A submission that cannot be imported is graded
    (0 %), with ``not gradable: ...`` here."""
    report: GradeReport | None = None
    imports: list[str] = field(default_factory=list)
    """The imports ``--allow`` does not allow, found statically (``line 3: imports numpy``)."""
    seconds: float = 0.0
    """Wall-clock time the student took to grade."""
    stored: bool = False
    """Whether this grade is kept in the run's folder (a grader's failure is not)."""
    similar: tuple[str, float] | None = None
    """The most similar peer and the share of this student's code found in theirs."""

    @property
    def score(self) -> int:
        """Percent (0 without a report)."""
        return self.report.score if self.report is not None else 0

    @property
    def blocked_at_run_time(self) -> int:
        """Boards that ended on an import the assignment does not allow, at run time."""
        boards = self.report.boards if self.report is not None else []
        return sum(blocked(b.detail) for b in boards)

    def notes(self) -> list[str]:
        """What the gradebook says of this student beyond the numbers, one phrase each."""
        found = [self.problem] if self.problem else []
        if self.imports:
            found.append("imports not allowed: " + "; ".join(self.imports))
        if self.blocked_at_run_time:
            count = self.blocked_at_run_time
            found.append(f"an import not allowed was refused at run time on {count} board(s)")
        if self.report is not None:
            found += self.report.warnings
        return found

    def to_json(self) -> dict[str, Any]:
        """Everything kept of the student (their boards' moves included, for feedback)."""
        report = self.report
        return {
            "format": _STUDENT_FORMAT,
            "version": _VERSION,
            "name": self.name,
            "source": self.source,
            "sha256": self.sha256,
            "problem": self.problem,
            "imports": self.imports,
            "seconds": round(self.seconds, 3),
            "report": None
            if report is None
            else {
                "board_set": report.board_set,
                "warnings": report.warnings,
                "boards": [_board_json(b) for b in report.boards],
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StudentGrade:
        """A grade written by :meth:`to_json`.

        Raises
        ------
        ValueError, KeyError, TypeError
            It is not one.
        """
        if data.get("format") != _STUDENT_FORMAT or data.get("version") != _VERSION:
            raise ValueError("not a student's grade")
        report = None
        if data["report"] is not None:
            boards = [_board_from_json(b) for b in data["report"]["boards"]]
            scored = achievements((b.mines, b.outcome is Verdict.SOLVED) for b in boards)
            report = GradeReport(
                data["source"],
                boards,
                scored,
                list(data["report"]["warnings"]),
                data["report"]["board_set"],
            )
        return cls(
            name=str(data["name"]),
            source=str(data["source"]),
            sha256=data["sha256"],
            problem=str(data["problem"]),
            report=report,
            imports=[str(i) for i in data["imports"]],
            seconds=float(data["seconds"]),
            stored=True,
        )


def _board_json(b: BoardResult) -> dict[str, Any]:
    return {
        "puzzle": b.puzzle,
        "rows": b.rows,
        "cols": b.cols,
        "mines": b.mines,
        "outcome": b.outcome.value,
        "moves": b.moves,
        "seconds": round(b.seconds, 6),
        "detail": b.detail,
        "output_bytes": b.output_bytes,
        "unexplored": b.unexplored,
        "opened": list(b.opened),
        "wrong": [list(cell) for cell in b.wrong],
    }


def _board_from_json(data: dict[str, Any]) -> BoardResult:
    return BoardResult(
        puzzle=str(data["puzzle"]),
        rows=int(data["rows"]),
        cols=int(data["cols"]),
        mines=int(data["mines"]),
        outcome=Verdict(data["outcome"]),
        moves=int(data["moves"]),
        seconds=float(data["seconds"]),
        detail=str(data["detail"]),
        output_bytes=int(data["output_bytes"]),
        unexplored=int(data["unexplored"]),
        opened=tuple(int(c) for c in data["opened"]),
        wrong=tuple((int(r), int(c), str(got), int(want)) for r, c, got, want in data["wrong"]),
    )


_ORDINARY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}")


def file_stem(name: str) -> str:
    """The stem of a student's files in the run's folder: the name, if it is an ordinary one
    (letters, digits, ``._@+-``, up to 100), else a safe form of it and a hash of it.

    Examples
    --------
    >>> file_stem("ann.lee"), file_stem("Ann Lee/../x")
    ('ann.lee', 'Ann_Lee_.._x-de1be29b')
    """
    if _ORDINARY.fullmatch(name):
        return name
    import hashlib

    safe = re.sub(r"[^A-Za-z0-9._@+-]", "_", name)[:60].lstrip(".") or "student"
    return f"{safe}-{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def write_atomically(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write ``path`` whole or not at all: a file beside it, flushed to disk, then renamed.

    Raises
    ------
    OSError
        It could not be written (what was written beside it is removed).
    """
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with open(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


class ClassRun:
    """One class run in its folder: opened (new or resumed), then graded student by student.

    Parameters
    ----------
    out:
        The run's folder (made if missing).
    options:
        What changes a grade; a resumed run must be given the same.
    key:
        A key file to grade on (``--key``), else the run's own (a fresh one for a new run).

    Raises
    ------
    ClassRunError
        ``out`` is not a run's folder (and not empty), or a resumed run's options or key
        differ from those it was started with, or the key cannot be read or saved.
    """

    def __init__(self, out: Path, options: ClassOptions, *, key: Path | None = None) -> None:
        self.out = out
        self.options = options
        self.resumed = False
        self.finished = False
        self.board_set, self.key_origin = self._open(key)
        self._boards: list[tuple[str, Puzzle]] | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._live: set[Zygote] = set()

    # The folder.

    def _open(self, key: Path | None) -> tuple[BoardSet, str]:
        run_file = self.out / RUN_FILE
        if run_file.exists():
            return self._resume(run_file, key)
        if self.out.exists():
            if not self.out.is_dir():
                raise ClassRunError(f"{self.out}: not a folder")
            if any(self.out.iterdir()):
                raise ClassRunError(
                    f"{self.out}: not a class run's folder ({RUN_FILE} is missing) and not "
                    "empty: name a new or empty folder with --out"
                )
        try:
            (self.out / RESULTS).mkdir(parents=True, exist_ok=True)
            (self.out / FEEDBACK).mkdir(exist_ok=True)
        except OSError as error:
            raise ClassRunError(f"{self.out}: cannot be made: {os_reason(error)}") from None
        if key is not None:
            chosen = _read_key(key).board_set()
            origin, key_path = f"from the key in {key}", str(key.resolve())
        else:
            fresh = BoardKey.new()
            _save_key(fresh, self.out / KEY_FILE)
            chosen = fresh.board_set()
            origin, key_path = f"from a fresh key saved in {self.out / KEY_FILE}", None
        self._write_run(chosen.name, key_path, finished=False)
        return chosen, origin

    def _resume(self, run_file: Path, key: Path | None) -> tuple[BoardSet, str]:
        try:
            state = json.loads(run_file.read_text(encoding="utf-8"))
            if state.get("format") != _FORMAT or state.get("version") != _VERSION:
                raise ValueError
            recorded = ClassOptions.from_json(state["options"])
            name, key_path = str(state["board_set"]), state["key"]
        except (OSError, ValueError, KeyError, TypeError):
            raise ClassRunError(
                f"{run_file}: not a class run's state: name another --out"
            ) from None
        differing = recorded.differences(self.options)
        if differing:
            raise ClassRunError(
                f"{self.out} was graded with {', '.join(differing)}: resume it with the same "
                "options, or grade into a new --out (new boards)"
            )
        if key is not None:
            given = _read_key(key).board_set()
            if given.name != name:
                raise ClassRunError(
                    f"{key}: not the key of the run in {self.out} (its board set is {name})"
                )
            chosen, origin = given, f"from the key in {key}"
        elif key_path is not None:
            chosen = _read_key(Path(key_path)).board_set()
            origin = f"from the key in {key_path}"
        else:
            chosen = _read_key(self.out / KEY_FILE).board_set()
            origin = f"from the key saved in {self.out / KEY_FILE}"
        if chosen.name != name:
            raise ClassRunError(f"{self.out}: its key does not make its board set {name}")
        self.resumed = True
        self.finished = bool(state.get("finished"))
        self._key_path = key_path
        return chosen, origin

    def _write_run(self, name: str, key_path: str | None, *, finished: bool) -> None:
        self._key_path = key_path
        state = {
            "format": _FORMAT,
            "version": _VERSION,
            "board_set": name,
            "key": key_path,
            "options": self.options.to_json(),
            "finished": finished,
        }
        try:
            write_atomically(self.out / RUN_FILE, (json.dumps(state, indent=2) + "\n").encode())
        except OSError as error:
            raise ClassRunError(
                f"{self.out / RUN_FILE}: cannot be written: {os_reason(error)}"
            ) from None

    def mark_finished(self) -> None:
        """Record that every student is graded (the feedback may go out: no more grading)."""
        self._write_run(self.board_set.name, self._key_path, finished=True)
        self.finished = True

    def boards(self) -> list[tuple[str, Puzzle]]:
        """The run's boards (made once, from its key)."""
        if self._boards is None:
            self._boards = self.board_set.boards()
        return self._boards

    # Students.

    def stored(self) -> dict[str, StudentGrade]:
        """The grades kept in the run's folder, by student name (unreadable ones skipped)."""
        found: dict[str, StudentGrade] = {}
        try:
            paths = sorted((self.out / RESULTS).glob("*.json"))
        except OSError:
            return found
        for path in paths:
            try:
                grade_ = StudentGrade.from_json(json.loads(path.read_text(encoding="utf-8")))
            except (OSError, ValueError, KeyError, TypeError) as error:
                logger.warning("%s: not a student's grade (%s): graded again", path, error)
                continue
            found[grade_.name] = grade_
        return found

    def plan(self, students: Sequence[Student]) -> tuple[list[StudentGrade], list[Student]]:
        """The grades already done (or that need no grading) and the students to grade.

        Raises
        ------
        ClassRunError
            The run has finished and a submission is new or has changed since.
        """
        done: list[StudentGrade] = []
        todo: list[Student] = []
        kept = self.stored()
        for student in students:
            if student.problem or student.path is None:
                done.append(StudentGrade(student.name, student.source, problem=student.problem))
                continue
            try:
                _, digest = read_submission(student.path)
            except (OSError, ValueError) as error:
                problem = f"{student.source} cannot be read: {error}"
                done.append(StudentGrade(student.name, student.source, problem=problem))
                continue
            previous = kept.get(student.name)
            if previous is not None and (previous.sha256, previous.source) == (
                digest,
                student.source,
            ):
                done.append(previous)
            else:
                todo.append(student)
        if self.finished and todo:
            names = ", ".join(s.name for s in todo[:5]) + (", ..." if len(todo) > 5 else "")
            raise ClassRunError(
                f"{self.out}: this run has finished and its feedback shows its boards, but "
                f"{len(todo)} submission(s) are new or changed since ({names}): grade them "
                "into a new --out (new boards), or with --key on these boards on purpose"
            )
        return done, todo

    def grade_students(
        self,
        todo: Sequence[Student],
        *,
        jobs: int = 1,
        finished: Callable[[StudentGrade], None] | None = None,
    ) -> Iterator[StudentGrade]:
        """Grade ``todo`` (``jobs`` students at once), yielding each grade as it is kept.

        Each grade is written to the run's folder before it is yielded; ``finished`` is
        called with it first (to write its feedback). A student the grader itself fails on
        (twice) is yielded with the reason and not kept, so a later run grades them again.

        Raises
        ------
        ClassRunError
            The grader failed on the first students it tried, every one: it is broken here.
        KeyboardInterrupt
            Passed on once the students being graded are stopped (none of them is kept).
        """
        boards = self.boards()
        self._stop.clear()
        failures = successes = 0
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            waiting: dict[Future[StudentGrade], Student] = {}
            queue = list(todo)
            try:
                while queue or waiting:
                    while queue and len(waiting) < max(1, jobs):
                        student = queue.pop(0)
                        waiting[pool.submit(self._grade_one, student, boards)] = student
                    done, _ = wait(waiting, return_when=FIRST_COMPLETED)
                    for future in done:
                        del waiting[future]
                        result = future.result()
                        if result.stored:
                            successes += 1
                            if finished is not None:
                                finished(result)
                            self._keep(result)
                        else:
                            failures += 1
                            if not successes and failures >= _BROKEN_AFTER:
                                raise ClassRunError(
                                    f"the grader failed on each of the first {failures} "
                                    f"students: {result.problem}"
                                )
                        yield result
            except BaseException:
                self.stop()
                for future in waiting:
                    future.cancel()
                raise

    def _grade_one(self, student: Student, boards: list[tuple[str, Puzzle]]) -> StudentGrade:
        """Grade one student (again once if the grader itself fails)."""
        assert student.path is not None
        began = time.perf_counter()
        data, digest = read_submission(student.path)
        imports: list[str] = []
        if self.options.allow is not None:
            imports = _static_imports(data, self.options.allow)
        problem, report = "", None
        for attempt in (1, 2):
            if self._stop.is_set():
                raise GradingError("stopped")
            try:
                report = grade(
                    student.path,
                    boards,
                    timeout=self.options.timeout,
                    memory_mb=self.options.memory_mb,
                    sandbox=Sandbox(self.options.sandbox) if self.options.sandbox else None,
                    board_set=self.board_set.name,
                    allow=self.options.allow,
                    zygote=True,
                    cancel=self._stop,
                    live=self._live,
                )
                report = replace(report, submission=student.source)
                problem = ""
                break
            except SubmissionError as error:
                problem, report = f"not gradable: {error.reason}", None
                break
            except GradingError as error:
                if self._stop.is_set():
                    raise
                logger.warning("%s: the grader failed (try %d): %s", student.name, attempt, error)
                problem = f"not graded: the grader failed: {error}"
        stored = not problem.startswith("not graded")
        return StudentGrade(
            student.name,
            student.source,
            sha256=digest,
            problem=problem,
            report=report,
            imports=imports,
            seconds=time.perf_counter() - began,
            stored=stored,
        )

    def _keep(self, result: StudentGrade) -> None:
        """Write a student's grade to the run's folder, whole or not at all."""
        path = self.out / RESULTS / f"{file_stem(result.name)}.json"
        data = (json.dumps(result.to_json()) + "\n").encode("utf-8", "surrogatepass")
        with self._lock:
            write_atomically(path, data)

    def stop(self) -> None:
        """Stop the students being graded at once (their grades are not kept)."""
        self._stop.set()
        for zygote in list(self._live):
            zygote.kill()


def _static_imports(data: bytes, allowed: frozenset[str]) -> list[str]:
    """The imports ``allowed`` does not allow, as phrases (none for a source that does not
    parse: it cannot be imported either, and the grade says so)."""
    try:
        findings: list[Finding] = disallowed(data, allowed)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []  # it does not import either: the grade says why
    return [str(finding) for finding in findings]


def _read_key(path: Path) -> BoardKey:
    try:
        return BoardKey.read(path)
    except GradingError as error:
        raise ClassRunError(str(error)) from None


def _save_key(key: BoardKey, path: Path) -> None:
    try:
        key.write(path)
    except GradingError as error:
        raise ClassRunError(str(error)) from None
