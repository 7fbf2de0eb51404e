"""A class run: every student of a folder graded on one board set, resumable, into a folder.

:func:`grade_class` is the whole run, start to end: the roster (:mod:`.roster`), the run
folder opened new or resumed (:mod:`.runfolder`), the students left to grade, each graded on
the run's boards through a zygote of their own (:func:`~.grade.grade`), each grade and its
feedback kept the moment the student is finished, then the similar pairs (``--similarity``)
and the gradebook. The command line gives it the options and prints what it returns.

An interrupted run (Ctrl-C, a kill, a crash) goes on where it stopped when run again: a
student whose kept grade is there and whose file has not changed is never graded again; one
whose file changed is; one whose kept grade is damaged is graded again (and said so). A
finished run's feedback shows its boards, so a finished run is never extended: a changed
or a new submission is refused (grade it into a new folder: new boards), and a finished run
run again only writes its gradebook again (``--similarity`` added, say).

Kept over 450 lines: the run from start to end (:func:`grade_class`) and the object it drives
(:class:`ClassRun`) are one noun, and its parts with nouns of their own are already apart
(:mod:`.roster`, :mod:`.runfolder`, :mod:`.student`, :mod:`.gradebook`, :mod:`.feedback`).

Glossary
--------
class run
    One grading of a folder of submissions, on one board set, into one folder.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..formats import Puzzle
from .errors import GradingError, SubmissionError
from .files import write_atomically
from .grade import grade
from .options import GradeOptions
from .roster import Student, read_submission, roster
from .runfolder import FEEDBACK, KEY_FILE, RUN_FILE, ClassRunError, Damaged, RunFolder, file_stem
from .student import StudentGrade
from .zygote import Zygote

if TYPE_CHECKING:
    from .feedback import ReplayDrawer
    from .similarity import Pair

__all__ = [
    "CLASS_JOBS",
    "KEY_FILE",
    "RUN_FILE",
    "ClassProgress",
    "ClassResult",
    "ClassRun",
    "ClassRunError",
    "ClassRunStopped",
    "StudentGrade",
    "default_out",
    "file_stem",
    "grade_class",
    "write_atomically",
]

logger = logging.getLogger(__name__)

CLASS_JOBS = max(1, min(4, 2 * (os.cpu_count() or 1)))
"""Students graded at once by default: two per core, up to four. Each board's moves are
round trips between two processes, so a student's boards leave a core idle part of the time
(``scripts/bench_class.py``, 300 students on two busy cores: 154 s at four, 297 s at two)."""

_BROKEN_AFTER = 3
"""Students the grader fails on (its own error, twice each) before any succeeds, after which
the run stops: the grader, not the students, is broken."""


class ClassRunStopped(GradingError):
    """The run was interrupted (Ctrl-C): the students finished so far are kept.

    Attributes
    ----------
    folder:
        The run's folder.
    kept, total:
        Students whose grade is kept, and students in all.
    """

    def __init__(self, folder: Path, kept: int, total: int) -> None:
        self.folder = folder
        self.kept = kept
        self.total = total
        super().__init__(
            f"interrupted: {kept} of {total} students graded and kept in {folder}; run the "
            "same command again to go on"
        )


class ClassProgress(Protocol):
    """What a class run tells as it goes (the command line's progress line)."""

    def started(self, run: ClassRun, done: int, todo: int) -> None:
        """The run is open: ``done`` students need no grading, ``todo`` are to be graded."""

    def graded(self, grade: StudentGrade) -> None:
        """A student has been graded (kept, unless the grader failed on them)."""


@dataclass
class ClassResult:
    """A finished class run: the gradebook's rows, in the roster's order, and the rest."""

    run: ClassRun
    grades: list[StudentGrade]
    pairs: list[Pair] | None = None
    """The similar pairs (``None`` without ``--similarity``)."""
    failed: int = 0
    """Students the grader itself failed on (not kept: the next run grades them)."""

    @property
    def board_set(self) -> str:
        """The run's board set's name."""
        return self.run.board_set.name

    def gradebook_json(self) -> dict[str, object]:
        """``grades.json``'s object."""
        from .gradebook import json_data

        return json_data(self.grades, self.board_set, self.run.options.to_json(), self.pairs)

    def gradebook_csv(self) -> str:
        """``grades.csv``'s text."""
        from .gradebook import csv_text

        return csv_text(self.grades, self.board_set)


def default_out(folder: Path) -> Path:
    """The run folder of a class folder when ``--out`` is not given: ``NAME-grades`` beside it."""
    resolved = folder.resolve()
    return resolved.parent / f"{resolved.name}-grades"


def grade_class(
    folder: Path,
    options: GradeOptions,
    *,
    out: Path | None = None,
    key: Path | None = None,
    jobs: int = CLASS_JOBS,
    similarity: bool = False,
    starter: bytes | None = None,
    replay: ReplayDrawer | None = None,
    progress: ClassProgress | None = None,
) -> ClassResult:
    """Grade every student in ``folder`` into the run folder ``out``, start to end.

    Parameters
    ----------
    options:
        The grading options (a resumed run must be given those it started with).
    out:
        The run folder; by default :func:`default_out`.
    key:
        A key file to grade on (``--key``), else the run's own.
    jobs:
        Students graded at once.
    similarity:
        Compare the submissions (copydetect: checked before anything is graded).
    starter:
        The starter code, left out of the comparison.
    replay:
        Draws the replay page each student's HTML feedback embeds.
    progress:
        Told when the run is open and as each student is graded.

    Raises
    ------
    RosterError, ClassRunError
        The folder holds no class, or the run folder cannot be used (one line).
    SimilarityUnavailable
        ``similarity`` without copydetect.
    ClassRunStopped
        Interrupted (Ctrl-C): the students finished are kept.

    Notes
    -----
    Students are graded ``jobs`` at a time, each on a zygote of their own; a student's
    hanging boards cost at most ``options.max_timeouts`` board timeouts
    (:mod:`.options`).
    """
    if similarity:
        from .similarity import require

        require()
    students = roster(folder, options.file)
    run = ClassRun(out if out is not None else default_out(folder), options, key=key)
    run.replay = replay
    done, todo = run.plan(students)
    if progress is not None:
        progress.started(run, len(done), len(todo))
    grades = {g.name: g for g in done}
    failed = 0
    try:
        for result in run.grade_students(todo, jobs=jobs):
            grades[result.name] = result
            failed += not result.stored
            if progress is not None:
                progress.graded(result)
    except KeyboardInterrupt:
        kept = sum(1 for g in grades.values() if g.stored)
        raise ClassRunStopped(run.out, kept, len(students)) from None
    ordered = [grades[s.name] for s in students]
    return run.finish(ordered, students, similarity=similarity, starter=starter, failed=failed)


class ClassRun:
    """One class run in its folder: opened (new or resumed), then graded student by student.

    Parameters
    ----------
    out, options, key:
        The run's folder, its grading options and the key file to grade on, as
        :class:`~.runfolder.RunFolder` takes them (``out`` is its ``path``).

    Raises
    ------
    ClassRunError, TargetError
        As :class:`~.runfolder.RunFolder` raises them.
    """

    def __init__(self, out: Path, options: GradeOptions, *, key: Path | None = None) -> None:
        self.out = out
        self.options = options
        self.folder = RunFolder(out, options, key=key)
        self.board_set = self.folder.board_set
        self.key_origin = self.folder.key_origin
        self.resumed = self.folder.resumed
        self.replay: ReplayDrawer | None = None
        """Draws the replay page of each student's HTML feedback (``None``: no replay)."""
        self.damaged: list[Damaged] = []
        """The kept grades found damaged by :meth:`plan` (their students are graded again)."""
        self._boards: list[tuple[str, Puzzle]] | None = None
        self._stop = threading.Event()
        self._live: set[Zygote] = set()

    @property
    def finished(self) -> bool:
        """Whether every student has been graded (the run is never extended)."""
        return self.folder.finished

    def boards(self) -> list[tuple[str, Puzzle]]:
        """The run's boards (made once, from its key)."""
        if self._boards is None:
            self._boards = self.board_set.boards()
        return self._boards

    def stored(self) -> dict[str, StudentGrade]:
        """The grades kept in the run's folder, by student name (damaged ones left out)."""
        return self.folder.stored()[0]

    def plan(self, students: Sequence[Student]) -> tuple[list[StudentGrade], list[Student]]:
        """The grades already done (or that need no grading) and the students to grade.

        Raises
        ------
        ClassRunError
            The run has finished and a submission is new or has changed since.
        """
        done: list[StudentGrade] = []
        todo: list[Student] = []
        changed: list[Student] = []
        kept, self.damaged = self.folder.stored()
        lost = {d.path for d in self.damaged}
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
                if self.folder.result_path(student.name) not in lost:
                    changed.append(student)
        if self.finished and changed:
            names = ", ".join(s.name for s in changed[:5]) + (", ..." if len(changed) > 5 else "")
            raise ClassRunError(
                f"{self.out}: this run has finished and its feedback shows its boards, but "
                f"{len(changed)} submission(s) are new or changed since ({names}): grade them "
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

        Each grade and its feedback are written to the run's folder before it is yielded;
        ``finished`` is called with it first. A student the grader itself fails on (twice)
        is yielded with the reason and not kept, so a later run grades them again.

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
                            self.write_feedback(result)
                            self.folder.keep(result)
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
        imports = self.options.findings(data)
        problem, report = "", None
        for attempt in (1, 2):
            if self._stop.is_set():
                raise GradingError("stopped")
            try:
                report = grade(
                    student.path,
                    boards,
                    self.options,
                    board_set=self.board_set.name,
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

    def write_feedback(self, grade_: StudentGrade) -> None:
        """Write a student's feedback, as Markdown and as HTML (with the replay), atomically.

        Raises
        ------
        OSError
            It cannot be written.
        """
        from .feedback import blocks, html_text, markdown_text  # feedback reads StudentGrade

        puzzles = dict(self.boards())
        stem = file_stem(grade_.name)
        parts = blocks(grade_, self.board_set.name, puzzles, self.replay)
        markdown = markdown_text(parts, replay_file=f"{stem}.html")
        page = html_text(parts, f"Feedback for {grade_.name}")
        self.folder.write(f"{FEEDBACK}/{stem}.md", markdown.encode("utf-8", "replace"))
        self.folder.write(f"{FEEDBACK}/{stem}.html", page.encode("utf-8", "replace"))

    def finish(
        self,
        grades: list[StudentGrade],
        students: Sequence[Student],
        *,
        similarity: bool = False,
        starter: bytes | None = None,
        failed: int = 0,
    ) -> ClassResult:
        """Write the feedback of the students not kept, find the similar pairs, mark the run
        finished if no student is left to grade, and write the gradebook.

        Raises
        ------
        OSError
            A file cannot be written.
        """
        for grade_ in grades:
            if not grade_.stored:
                self.write_feedback(grade_)
        pairs = _similar(grades, students, starter) if similarity else None
        if not failed:
            self.folder.mark_finished()
        result = ClassResult(self, grades, pairs, failed)
        self.folder.write("grades.csv", result.gradebook_csv().encode("utf-8"))
        data = json.dumps(result.gradebook_json(), indent=1) + "\n"
        self.folder.write("grades.json", data.encode("utf-8"))
        return result

    def stop(self) -> None:
        """Stop the students being graded at once (their grades are not kept)."""
        self._stop.set()
        for zygote in list(self._live):
            zygote.kill()


def _similar(
    grades: list[StudentGrade], students: Sequence[Student], starter: bytes | None
) -> list[Pair]:
    """Compare the graded submissions; note each student's most similar peer on their grade."""
    from .similarity import compare

    sources = {}
    for student in students:
        if student.path is not None and not student.problem:
            try:
                sources[student.name] = read_submission(student.path)[0]
            except (OSError, ValueError):
                continue
    pairs, best = compare(sources, starter)
    for grade_ in grades:
        grade_.similar = best.get(grade_.name)
    return pairs
