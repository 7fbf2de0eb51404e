"""``mineshafted grade class``: a whole class graded into a run folder, the gradebook printed.

The run is :func:`mineshafted.grading.classrun.grade_class`'s, start to end; this command
reads the flags, tells the progress on stderr and prints the gradebook.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .gradeflags import (
    Allow,
    DisallowedOption,
    MaxTimeouts,
    Memory,
    SandboxOption,
    Timeout,
    grading_options,
    warn_without_sandbox,
)
from .output import emit, fail, fail_on_error, note
from .status import EXIT_INTERRUPTED

if TYPE_CHECKING:
    from ..formats import Puzzle
    from ..grading import BoardResult
    from ..grading.classrun import ClassResult, ClassRun
    from ..grading.student import StudentGrade

__all__ = ["CLASS_HELP", "FormatChoice", "class_command"]

_UNWRAPPED = 1000
"""The width the gradebook is laid out at when it goes to a pipe or a file."""


CLASS_HELP = (
    "Grade a whole class: a folder with one .py file per student (the file's stem is the\n"
    "student) or one folder per student, every student on the same fresh boards, into --out:\n"
    "grades.csv, grades.json, feedback/STUDENT.md and .html (with a replay of the student's\n"
    "first failed board), the board key and each student's kept grade. An interrupted run\n"
    "goes on when the same command is run again; a finished one is never extended. Each\n"
    "student's boards are forked from a sandboxed zygote, a namespace each; a student whose\n"
    "boards hang costs the class at most --max-timeouts board timeouts.\n\n"
    "Exit status: 0 graded; 2 unusable arguments, a folder of submissions or a run folder\n"
    "that cannot be used; 130 interrupted (run the same command again to go on)."
)
"""``grade class --help``."""


class FormatChoice(StrEnum):
    """``--format``: what the command prints."""

    TEXT = "text"
    JSON = "json"
    CSV = "csv"


def class_command(
    folder: Annotated[
        Path,
        typer.Argument(
            metavar="SUBMISSIONS",
            help="The folder of submissions: one .py file or one folder per student.",
            show_default=False,
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            metavar="FOLDER",
            help="The run's folder (grades.csv, grades.json, feedback/, the key). Default: "
            "SUBMISSIONS-grades beside the folder.",
            show_default=False,
        ),
    ] = None,
    file_name: Annotated[
        str | None,
        typer.Option(
            "--file",
            metavar="NAME",
            help="The file to grade in each student's folder. Default: the folder's only .py file.",
            show_default=False,
        ),
    ] = None,
    key: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Grade on the boards of this key file instead of a fresh key's (the run "
            "records its path and never copies it).",
            show_default=False,
        ),
    ] = None,
    allow: Allow = None,
    starter: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="The starter code every student was given: its imports are permitted under "
            "--allow, and --similarity leaves it out of every comparison.",
            show_default=False,
        ),
    ] = None,
    disallowed: DisallowedOption = None,
    similarity: Annotated[
        bool,
        typer.Option(
            "--similarity",
            help="Report pairs of submissions whose code is alike (copydetect, winnowing as "
            "MOSS does; pip install 'mineshafted[similarity]'), and each student's most "
            "similar peer.",
        ),
    ] = False,
    timeout: Timeout = None,
    memory: Memory = 1024,
    sandbox: SandboxOption = None,
    max_timeouts: MaxTimeouts = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            max=64,
            help="Students graded at once. Default: two per core, up to four (a board spends "
            "much of its time waiting on the other end of its pipe).",
            show_default=False,
        ),
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the gradebook as grades.json's object.")
    ] = False,
    output_format: Annotated[
        FormatChoice | None,
        typer.Option(
            "--format",
            case_sensitive=False,
            help="What to print: text (a table; default), json (grades.json) or csv (grades.csv).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Grade every student in ``folder`` into the run's folder, then print the gradebook."""
    from ..grading.classrun import CLASS_JOBS, ClassRunStopped, grade_class

    if starter is not None and allow is None and not similarity:
        fail(
            "--starter is the starter code of --allow (its imports are permitted) and "
            "--similarity (left out): give one of them"
        )
    options, code = grading_options(
        timeout=timeout,
        memory=memory,
        sandbox=sandbox,
        allow=allow,
        starter=starter,
        disallowed=disallowed,
        max_timeouts=max_timeouts,
        file_name=file_name,
        starter_for="--similarity",
    )
    chosen = output_format or (FormatChoice.JSON if json_output else FormatChoice.TEXT)
    if similarity:
        from ..grading.similarity import SimilarityUnavailable, require

        try:
            require()  # before any warning: a missing extra is the one line said
        except SimilarityUnavailable as missing:
            fail(str(missing))
    warn_without_sandbox(sandbox)
    progress = _ClassProgress()
    with fail_on_error():
        try:
            result = grade_class(
                folder,
                options,
                out=out,
                key=key,
                jobs=jobs or CLASS_JOBS,
                similarity=similarity,
                starter=code,
                replay=_replay_page,
                progress=progress,
            )
        except ClassRunStopped as stopped:
            progress.close()
            note(str(stopped))
            raise typer.Exit(EXIT_INTERRUPTED) from None
        finally:
            progress.close()
    _print_class(result, chosen)
    if result.failed:
        typer.echo(
            f"warning: the grader failed on {result.failed} student(s) (see notes): run the "
            "same command again to grade them",
            err=True,
        )


class _ClassProgress:
    """What a class run tells on stderr: a resumed run's count, damaged grades graded again,
    a progress line while students are graded (on a terminal)."""

    def __init__(self) -> None:
        self._progress: Any = None
        self._task: Any = None

    def started(self, run: ClassRun, done: int, todo: int) -> None:
        for damaged in run.damaged:
            note(f"warning: {damaged}")
        if run.resumed and not run.finished:
            typer.echo(
                f"resuming {run.out}: {done} of {done + todo} students done, {todo} to grade "
                f"on board set {run.board_set.name}",
                err=True,
            )
        if sys.stderr.isatty() and todo:
            from rich.console import Console
            from rich.progress import Progress

            self._progress = Progress(console=Console(stderr=True), transient=True)
            self._task = self._progress.add_task("grading the class", total=todo)
            self._progress.start()

    def graded(self, _grade: StudentGrade) -> None:
        if self._progress is not None:
            self._progress.advance(self._task)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def _replay_page(board: BoardResult, puzzle: Puzzle, title: str) -> str:
    """The replay page of a board's moves, ending on the board's verdict (never "won" for a
    board that was not solved), a loop's cells marked."""
    from ..grading.accounts import replay_words
    from ..replay import Judgement, moves_page

    words = replay_words(board, puzzle)
    return moves_page(puzzle.board, board.opened, title=title, judgement=Judgement(*words))


def _print_class(result: ClassResult, output_format: FormatChoice) -> None:
    """The gradebook on stdout: a table (text), grades.json (json) or grades.csv (csv)."""
    if output_format is FormatChoice.JSON:
        emit(json.dumps(result.gradebook_json()))
        return
    if output_format is FormatChoice.CSV:
        emit(result.gradebook_csv().rstrip("\n"))
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from ..text import visible

    run = result.run
    console = Console()
    if not console.is_terminal:
        console = Console(width=_UNWRAPPED)
    table = Table(title=f"Class: {escape(visible(str(run.out)))}", title_justify="left")
    for column in ("student", "score", "solved", "notes"):
        table.add_column(column, justify="right" if column == "score" else "left", overflow="fold")
    for grade_ in result.grades:
        report = grade_.report
        solved = (
            f"{sum(b.outcome.value == 'solved' for b in report.boards)}/{len(report.boards)}"
            if report is not None
            else ""
        )
        notes = "; ".join(grade_.notes())
        table.add_row(
            escape(visible(grade_.name)), f"{grade_.score}%", solved, escape(visible(notes))
        )
    console.print(table)
    if result.pairs:
        console.print("similar pairs (share of each one's code found in the other's):")
        for pair in result.pairs:
            console.print(
                f"  {escape(visible(pair.first))} {pair.first_share:.0%} / "
                f"{escape(visible(pair.second))} {pair.second_share:.0%}"
            )
    graded = sum(1 for g in result.grades if g.report is not None)
    console.print(
        f"{graded} of {len(result.grades)} students graded; boards: set {result.board_set}, "
        f"{escape(run.key_origin)}; gradebook and feedback in {escape(visible(str(run.out)))}"
    )
