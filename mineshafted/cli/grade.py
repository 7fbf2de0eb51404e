"""``mineshafted grade``: grade a submission's sweep_mines, one child process per board."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .output import emit, fail, fail_on_error, written
from .status import EXIT_INTERRUPTED

if TYPE_CHECKING:
    from ..formats import Puzzle
    from ..grading import BoardResult, GradeReport
    from ..grading.classrun import ClassRun, StudentGrade
    from ..grading.key import BoardSet
    from ..grading.roster import Student
    from ..grading.similarity import Pair

__all__ = [
    "CLASS_JOBS",
    "DEFAULT_JOBS",
    "HELP",
    "FormatChoice",
    "SandboxChoice",
    "allowed_option",
    "command",
    "grade_for_platform",
]

DEFAULT_JOBS = max(1, min(4, os.cpu_count() or 1))
"""Boards graded at once by default: one per core, up to four."""

CLASS_JOBS = max(1, min(4, 2 * (os.cpu_count() or 1)))
"""Students graded at once by default in a class run: two per core, up to four. Each board's
moves are round trips between two processes, so a student's boards leave a core idle part of
the time (``scripts/bench_class.py``, 300 students on two busy cores: 154 s at four, 297 s
at two)."""

_UNWRAPPED = 1000
"""The width the report is laid out at when it goes to a pipe or a file: tables take only the
width they need, so no name or detail is cut or wrapped to fit 80 columns."""

HELP = (
    "Grade any sweep_mines against no-guess boards, each board in its own child process.\n\n"
    "Default boards: 32 made for this grading from a fresh secret key, so that no report, seed\n"
    "or earlier grading tells a submission what they are: four each with exactly 1, 2, 3 and 4\n"
    "mines, and 8x8/5, 9x9/10, 16x16/40 and 16x30/99 for 5+, every one rated ac3 or below\n"
    "(AC-3 over the clue domains solves it: see mineshafted rate). The report names the board\n"
    "set without revealing it. --save-key FILE keeps the key; --key FILE grades on its boards\n"
    "again, on purpose (a re-check, never the regrade of a resubmission). Puzzle files, if\n"
    "given, instead.\n\n"
    "The child never holds the board: its manager asks this process for each clue. Outcomes:\n"
    "solved, wrong board, not explored (the right board before every safe cell was moved onto),\n"
    "exploded, crashed, timed out. Rubric: Sweeps 1 Mine 10%, 2 Mines 15%,\n"
    "3 Mines 20%, 4 Mines 25%, 5+ Mines 30%, each earned when every graded board with that\n"
    "many mines is solved. Each board runs in a bubblewrap sandbox where bwrap works (no\n"
    "network, a read-only system, none of your files but the submission), else as a plain\n"
    "process (as a fresh unprivileged user when the grader is root), with a note; and in a\n"
    "cgroup bounding the memory and number of its processes together where one can be made,\n"
    "else the report warns of what is not enforced.\n"
    "--class SUBMISSIONS grades a whole class (one .py file or folder per student) on one\n"
    "board set into --out: grades.csv, grades.json, feedback/STUDENT.md and .html (with a\n"
    "replay of the student's first failed board); an interrupted run goes on when run again.\n"
    "Each student's boards are forked from a sandboxed zygote, a namespace each. --allow,\n"
    "--similarity and --starter check imports and similar code. --format gradescope or\n"
    "prairielearn writes that platform's results.json for one submission (see mineshafted\n"
    "autograder).\n\n"
    "Exit status: 0 graded (whatever the score); 2 unusable arguments, a submission that\n"
    "cannot be imported (one submission, text or json), a folder of submissions or a run\n"
    "folder that cannot be used, or a key or log file that cannot be read or written; 130\n"
    "a class run interrupted (run the same command again to go on)."
)
"""The command's ``--help`` text."""


class FormatChoice(StrEnum):
    """``--format``: what the command prints."""

    TEXT = "text"
    JSON = "json"
    CSV = "csv"
    GRADESCOPE = "gradescope"
    PRAIRIELEARN = "prairielearn"


def allowed_option(text: str | None) -> frozenset[str] | None:
    """The modules ``--allow`` names; ``None`` when it is not given."""
    if text is None:
        return None
    from ..grading.imports import allowed_modules

    modules = allowed_modules(text)
    for module in modules:
        if not module.isidentifier():
            fail(f"--allow: {module!r} is not a module name")
    return modules


class SandboxChoice(StrEnum):
    """``--sandbox``: the values of :class:`mineshafted.grading.Sandbox` (imported lazily)."""

    BWRAP = "bwrap"
    NONE = "none"


def command(
    submission: Annotated[
        Path | None,
        typer.Argument(
            metavar="SUBMISSION.py",
            help="A Python file that defines sweep_mines(bm) (not with --class).",
            show_default=False,
        ),
    ] = None,
    puzzles: Annotated[
        list[Path] | None,
        typer.Argument(
            metavar="PUZZLES",
            help="Puzzle files or directories of them. Default: fresh boards from a secret key.",
            show_default=False,
        ),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            min=0.1,
            help="Wall-clock seconds sweep_mines may take on a board (and the import, again). "
            "Default: max(30, 100 µs per cell).",
            show_default=False,
        ),
    ] = None,
    memory: Annotated[
        int,
        typer.Option(
            min=64,
            metavar="MB",
            help="Memory per board, in MiB: of all its processes together (and its /tmp) "
            "where a cgroup can be made, else the address space of each process.",
        ),
    ] = 1024,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            max=64,
            help="Boards graded at once; with --class, students graded at once. Default: one "
            "per core up to four; with --class, two per core up to four (a board spends much "
            "of its time waiting on the other end of its pipe).",
            show_default=False,
        ),
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the grade as one JSON object.")
    ] = False,
    log: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Write what the submission printed, board by board, to this new file "
            "(mode 0600; never through a symbolic link).",
            show_default=False,
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace the --log file if it exists.")
    ] = False,
    key: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Grade on the boards of this key file (written by --save-key): the same "
            "boards again, on purpose. Not with puzzle files.",
            show_default=False,
        ),
    ] = None,
    save_key: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Keep this grading's fresh key in a new file (mode 0600), so that its boards "
            "can be graded on again with --key FILE. Not with puzzle files.",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(hidden=True, help="Gone: a seed anyone can read rebuilds the boards."),
    ] = None,
    sandbox: Annotated[
        SandboxChoice | None,
        typer.Option(
            case_sensitive=False,
            help="What isolates each board: bwrap or none. Default: bwrap where it works.",
            show_default=False,
        ),
    ] = None,
    class_folder: Annotated[
        Path | None,
        typer.Option(
            "--class",
            metavar="SUBMISSIONS",
            help="Grade a whole class: a folder with one .py file per student (the file's "
            "stem is the student) or one folder per student, every student on the same "
            "fresh boards, into --out (resumable: run the same command again to go on).",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            metavar="PATH",
            help="With --class: the run's folder (grades.csv, grades.json, feedback/, the "
            "key; default SUBMISSIONS-grades beside the folder). With --format gradescope or "
            "prairielearn: the results.json file (default: stdout).",
            show_default=False,
        ),
    ] = None,
    file_name: Annotated[
        str | None,
        typer.Option(
            "--file",
            metavar="NAME",
            help="With --class: the file to grade in each student's folder. Default: the "
            "folder's only .py file.",
            show_default=False,
        ),
    ] = None,
    allow: Annotated[
        str | None,
        typer.Option(
            metavar="MODULES",
            help="The modules a submission may import, comma-separated (e.g. itertools): "
            "other imports are reported (checked in the source) and refused at run time. "
            "Default: no check.",
            show_default=False,
        ),
    ] = None,
    similarity: Annotated[
        bool,
        typer.Option(
            "--similarity",
            help="With --class: report pairs of submissions whose code is alike (copydetect, "
            "winnowing as MOSS does; pip install 'mineshafted[similarity]'), and each "
            "student's most similar peer.",
        ),
    ] = False,
    starter: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="With --similarity: the starter code, left out of every comparison.",
            show_default=False,
        ),
    ] = None,
    output_format: Annotated[
        FormatChoice | None,
        typer.Option(
            "--format",
            case_sensitive=False,
            help="What to print: text (default), json, csv (with --class), or the results.json "
            "of gradescope or prairielearn (one submission).",
            show_default=False,
        ),
    ] = None,
    visibility: Annotated[
        str,
        typer.Option(
            metavar="WHEN",
            help="With --format gradescope: when students see the results and each test: "
            "visible, hidden, after_due_date or after_published.",
        ),
    ] = "visible",
    context: Annotated[
        str | None,
        typer.Option(
            metavar="TEXT",
            help="With --key: grade on the key's boards for this context (an autograder's "
            "submission id: each submission its own boards) instead of its class boards.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Grade ``submission`` on ``puzzles`` and print the boards, the achievements and the score."""
    from ..grading import Sandbox, grade
    from ..grading.log import LogFile, log_text
    from ..grading.sandbox import none_warning

    allowed = allowed_option(allow)
    chosen_format = output_format or (FormatChoice.JSON if json_output else FormatChoice.TEXT)
    if class_folder is not None:
        if submission is not None or puzzles:
            fail("--class grades a folder of submissions: give no SUBMISSION.py or PUZZLES")
        for given, option in ((log, "--log"), (save_key, "--save-key"), (context, "--context")):
            if given is not None:
                fail(f"{option} is for one submission: a class run keeps its key in --out")
        if chosen_format in (FormatChoice.GRADESCOPE, FormatChoice.PRAIRIELEARN):
            fail(f"--format {chosen_format.value} is for one submission, not --class")
        _grade_class(
            class_folder,
            out=out,
            file_name=file_name,
            allow=allowed,
            similarity=similarity,
            starter=starter,
            jobs=jobs or CLASS_JOBS,
            output_format=chosen_format.value,
            key=key,
            timeout=timeout,
            memory=memory,
            sandbox=sandbox.value if sandbox else None,
        )
        return
    if submission is None:
        fail(
            "Missing argument 'SUBMISSION.py': name the file to grade, or a folder of them "
            "with --class"
        )
    for given, option in ((file_name, "--file"), (starter, "--starter")):
        if given is not None:
            fail(f"{option} is for --class")
    if similarity:
        fail("--similarity is for --class")
    if chosen_format is FormatChoice.CSV:
        fail("--format csv is for --class")
    if context is not None and key is None:
        fail("--context names a board set of a kept key: give the key with --key FILE")
    if chosen_format in (FormatChoice.GRADESCOPE, FormatChoice.PRAIRIELEARN):
        if puzzles:
            fail(f"--format {chosen_format.value} grades on fresh boards, not puzzle files")
        grade_for_platform(
            submission,
            platform=chosen_format.value,
            out=out,
            key=key,
            context=context,
            allow=allowed,
            visibility=visibility,
            timeout=timeout,
            memory=memory,
            sandbox=sandbox.value if sandbox else None,
        )
        return
    if out is not None:
        fail("--out is for --class, or with --format gradescope or prairielearn")
    json_output = chosen_format is FormatChoice.JSON
    if seed is not None:
        fail(
            "--seed is gone: a seed printed in a report let anyone rebuild the boards; "
            "grade on the same boards again with --key FILE (see --save-key)"
        )
    if key is not None and save_key is not None:
        fail("--key grades on a kept key's boards and --save-key keeps a fresh one: choose one")
    if puzzles and (key is not None or save_key is not None):
        option = "--key" if key is not None else "--save-key"
        fail(f"{option} is for the fresh default boards: it cannot be used with puzzle files")
    with fail_on_error(), contextlib.ExitStack() as stack:
        logfile = stack.enter_context(LogFile(log, force=force)) if log is not None else None
        if sandbox is SandboxChoice.NONE:
            typer.echo(f"warning: {none_warning()}", err=True)
        chosen, origin = None, ""
        if puzzles:
            items = _graded_puzzles(puzzles)
        else:
            chosen, origin = _board_set(key, save_key, context)
            items = chosen.boards()
        if not items:
            fail("no puzzles to grade")
        bar = _GradeProgress(len(items)) if sys.stderr.isatty() and not json_output else None
        report = grade(
            submission,
            items,
            timeout=timeout,
            memory_mb=memory,
            jobs=jobs or DEFAULT_JOBS,
            progress=bar.advance if bar else None,
            sandbox=Sandbox(sandbox.value) if sandbox else None,
            board_set=chosen.name if chosen else None,
            allow=allowed,
        )
        if bar:
            bar.close()
        if json_output:
            emit(json.dumps(report.to_json()))
        else:
            _print_grade(report, origin)
        with written():  # the report is out before the log is written
            sys.stdout.flush()
        if logfile is not None:
            logfile.write(log_text(report))


def _board_set(
    key: Path | None, save_key: Path | None, context: str | None = None
) -> tuple[BoardSet, str]:
    """The board set to grade on, and where its key came from, as the report says it.

    Raises
    ------
    GraderFileError
        The key file cannot be read, or the fresh key cannot be saved.
    """
    from ..grading.key import BoardKey

    if key is not None:
        if context is not None:
            return BoardKey.read(key).board_set(context), f"from the key in {key} for {context}"
        return BoardKey.read(key).board_set(), f"from the key in {key}"
    fresh = BoardKey.new()
    if save_key is None:
        return fresh.board_set(), "from a fresh key that was not kept (--save-key FILE keeps one)"
    fresh.write(save_key)
    return (
        fresh.board_set(),
        f"from a fresh key saved in {save_key} (--key {save_key} grades on these boards again)",
    )


class _GradeProgress:
    """A progress line on stderr while boards are graded."""

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import Progress

        self._progress = Progress(console=Console(stderr=True), transient=True)
        self._task = self._progress.add_task("grading", total=total)
        self._progress.start()

    def advance(self, _result: BoardResult) -> None:
        self._progress.advance(self._task)

    def close(self) -> None:
        self._progress.stop()


def _graded_puzzles(paths: list[Path]) -> list[tuple[str, Puzzle]]:
    """Read the puzzles to grade, labelled by file (and line, in JSON Lines files)."""
    from ..formats import find_puzzle_files, read_puzzles

    items: list[tuple[str, Puzzle]] = []
    for path in find_puzzle_files(paths):
        found = read_puzzles(path)
        label = _short(path)
        for number, puzzle in enumerate(found, 1):
            name = label if len(found) == 1 else f"{label}:{number}"
            items.append((name, puzzle))  # grade() refuses a puzzle that starts elsewhere
    return items


def _short(path: Path) -> str:
    """A path as the user would like to read it: relative to here, or to the shipped sets."""
    from ..grading import shipped_puzzles_root

    resolved = path.resolve()
    for base in (shipped_puzzles_root(), Path.cwd()):
        if base is not None and resolved.is_relative_to(base):
            return str(resolved.relative_to(base))
    return str(path)


def _print_grade(report: GradeReport, origin: str) -> None:
    """The boards and the achievements as two tables, then the score, on stdout; the board
    set's name and where its key came from (``origin``), if fresh boards were graded."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from ..grading import Verdict
    from ..text import visible

    def shown(text: str) -> str:
        return escape(visible(text))

    console = Console()
    if not console.is_terminal:  # a pipe or a file: as wide as the tables need, never wrapped
        console = Console(width=_UNWRAPPED)
    boards = Table(title=f"Boards: {shown(report.submission)}", title_justify="left")
    for column in ("puzzle", "size", "mines", "outcome", "moves", "seconds", "detail"):
        numeric = column in ("mines", "moves", "seconds")
        boards.add_column(column, justify="right" if numeric else "left", overflow="fold")
    for b in report.boards:
        style = "green" if b.outcome is Verdict.SOLVED else "red"
        boards.add_row(
            shown(b.puzzle),
            f"{b.rows}x{b.cols}",
            str(b.mines),
            f"[{style}]{b.outcome.value}[/]",
            str(b.moves),
            f"{b.seconds:.3f}",
            shown(b.detail),
        )
    console.print(boards)
    rubric = Table(title="Achievements", title_justify="left")
    for column in ("achievement", "boards solved", "earned", "weight"):
        rubric.add_column(column, justify="right" if column == "weight" else "left")
    for a in report.achievements:
        verdict = "yes" if a.earned else "not graded" if not a.graded else "no"
        rubric.add_row(escape(a.name), f"{a.solved}/{a.graded}", verdict, f"{a.weight}%")
    console.print(rubric)
    earned = sum(a.earned for a in report.achievements)
    console.print(f"score: {report.score}% ({earned} of {len(report.achievements)} achievements)")
    if report.board_set is not None:
        console.print(f"boards: set {report.board_set}, {shown(origin)}")
    for warning in report.warnings:
        console.print(f"warning: {shown(warning)}", style="yellow")


# A class run.


def _grade_class(
    folder: Path,
    *,
    out: Path | None,
    file_name: str | None,
    allow: frozenset[str] | None,
    similarity: bool,
    starter: Path | None,
    jobs: int,
    output_format: str,
    key: Path | None,
    timeout: float | None,
    memory: int,
    sandbox: str | None,
) -> None:
    """Grade every student in ``folder`` into the run's folder, then print the gradebook."""
    from ..grading.classrun import ClassOptions, ClassRun
    from ..grading.roster import roster
    from ..grading.sandbox import none_warning

    if starter is not None and not similarity:
        fail("--starter is the starter code --similarity leaves out: give --similarity too")
    if file_name is not None and (
        Path(file_name).name != file_name or file_name in ("", ".", "..")
    ):
        fail(f"--file: {file_name!r} is not a file name (no folder in it)")
    with fail_on_error():
        starter_code = _read_starter(starter) if starter is not None else None
        if similarity:
            _check_similarity_installed()
        students = roster(folder, file_name)
        run_folder = (
            out if out is not None else folder.resolve().parent / f"{folder.resolve().name}-grades"
        )
        options = ClassOptions(file_name, allow, timeout, memory, sandbox)
        run = ClassRun(run_folder, options, key=key)
        if sandbox == "none":
            typer.echo(f"warning: {none_warning()}", err=True)
        done, todo = run.plan(students)
        grades = {g.name: g for g in done}
        total = len(students)
        if run.resumed and not run.finished:
            typer.echo(
                f"resuming {run_folder}: {len(done)} of {total} students done, "
                f"{len(todo)} to grade on board set {run.board_set.name}",
                err=True,
            )
        puzzles = dict(run.boards())
        bar = _ClassProgress(len(todo)) if sys.stderr.isatty() and todo else None
        failed = 0

        def write_feedback(result: StudentGrade) -> None:
            _write_feedback(run_folder, result, run.board_set.name, puzzles)

        try:
            for result in run.grade_students(todo, jobs=jobs, finished=write_feedback):
                grades[result.name] = result
                failed += not result.stored
                if bar:
                    bar.advance(result.name)
        except KeyboardInterrupt:
            if bar:
                bar.close()
            kept = sum(1 for g in grades.values() if g.stored)
            typer.echo(
                f"interrupted: {kept} of {total} students graded and kept in {run_folder}; "
                "run the same command again to go on",
                err=True,
            )
            raise typer.Exit(EXIT_INTERRUPTED) from None
        if bar:
            bar.close()
        ordered = [grades[s.name] for s in students]
        for grade_ in ordered:
            if not grade_.stored:
                write_feedback(grade_)
        pairs = None
        if similarity:
            pairs = _similarity(ordered, students, starter_code)
        if not failed:
            run.mark_finished()
        _write_gradebook(run_folder, ordered, run, pairs)
        _print_class(ordered, run, output_format, pairs, run_folder)
        if failed:
            typer.echo(
                f"warning: the grader failed on {failed} student(s) (see notes): run the same "
                "command again to grade them",
                err=True,
            )


def _read_starter(path: Path) -> bytes:
    """The starter code's bytes (refused past a submission's size, or unreadable)."""
    from ..grading.errors import GraderFileError
    from ..grading.roster import read_submission

    try:
        return read_submission(path)[0]
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise GraderFileError(path, f"cannot be read as the starter code: {reason}") from None


def _check_similarity_installed() -> None:
    """Refuse ``--similarity`` at once (before grading) when copydetect is missing."""
    import importlib.util

    if importlib.util.find_spec("copydetect") is None:
        fail("--similarity needs copydetect: pip install 'mineshafted[similarity]'")


def _similarity(
    grades: list[StudentGrade], students: list[Student], starter: bytes | None
) -> list[Pair]:
    """Compare the graded submissions; note each student's most similar peer on their grade."""
    from ..grading.roster import read_submission
    from ..grading.similarity import compare

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


def _write_feedback(
    folder: Path, grade_: StudentGrade, board_set: str, puzzles: dict[str, Puzzle]
) -> None:
    """Write a student's feedback, as Markdown and as HTML (with the replay), atomically."""
    from ..grading.classrun import FEEDBACK, file_stem, write_atomically
    from ..grading.feedback import blocks, html_text, markdown_text

    stem = file_stem(grade_.name)
    parts = blocks(grade_, board_set, puzzles, _replay_page)
    markdown = markdown_text(parts, replay_file=f"{stem}.html")
    page = html_text(parts, f"Feedback for {grade_.name}")
    write_atomically(folder / FEEDBACK / f"{stem}.md", markdown.encode("utf-8", "replace"))
    write_atomically(folder / FEEDBACK / f"{stem}.html", page.encode("utf-8", "replace"))


def _replay_page(board: BoardResult, puzzle: Puzzle, title: str) -> str:
    """The replay page of a board's moves: each cell opened in turn, the mine last if one."""
    from ..game import Game, Rules
    from ..replay import page

    game = Game.on(puzzle.board, rules=Rules.MINE_SHAFTED)
    for number, cell in enumerate(board.opened, 1):
        if game.over:
            break
        game.reveal(cell, reason=f"your move {number}")
    return page(game.record, title=title)


def _write_gradebook(
    folder: Path, grades: list[StudentGrade], run: ClassRun, pairs: list[Pair] | None
) -> None:
    """Write grades.csv and grades.json, atomically."""
    from ..grading.classrun import write_atomically
    from ..grading.gradebook import csv_text, json_data

    name = run.board_set.name
    write_atomically(folder / "grades.csv", csv_text(grades, name).encode("utf-8"))
    data = json_data(grades, name, run.options.to_json(), pairs)
    write_atomically(folder / "grades.json", (json.dumps(data, indent=1) + "\n").encode("utf-8"))


def _print_class(
    grades: list[StudentGrade],
    run: ClassRun,
    output_format: str,
    pairs: list[Pair] | None,
    folder: Path,
) -> None:
    """The gradebook on stdout: a table (text), grades.json (json) or grades.csv (csv)."""
    from ..grading.gradebook import csv_text, json_data

    name = run.board_set.name
    if output_format == "json":
        emit(json.dumps(json_data(grades, name, run.options.to_json(), pairs)))
        return
    if output_format == "csv":
        emit(csv_text(grades, name).rstrip("\n"))
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from ..text import visible

    console = Console()
    if not console.is_terminal:
        console = Console(width=_UNWRAPPED)
    table = Table(title=f"Class: {escape(visible(str(folder)))}", title_justify="left")
    for column in ("student", "score", "solved", "notes"):
        table.add_column(column, justify="right" if column == "score" else "left", overflow="fold")
    for grade_ in grades:
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
    if pairs:
        console.print("similar pairs (share of each one's code found in the other's):")
        for pair in pairs:
            console.print(
                f"  {escape(visible(pair.first))} {pair.first_share:.0%} / "
                f"{escape(visible(pair.second))} {pair.second_share:.0%}"
            )
    graded = sum(1 for g in grades if g.report is not None)
    console.print(
        f"{graded} of {len(grades)} students graded; boards: set {name}, {escape(run.key_origin)}; "
        f"gradebook and feedback in {escape(visible(str(folder)))}"
    )


class _ClassProgress:
    """A progress line on stderr while students are graded."""

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import Progress

        self._progress = Progress(console=Console(stderr=True), transient=True)
        self._task = self._progress.add_task("grading the class", total=total)
        self._progress.start()

    def advance(self, _name: str) -> None:
        self._progress.advance(self._task)

    def close(self) -> None:
        self._progress.stop()


# One submission, for a course platform.


def grade_for_platform(
    submission: Path,
    *,
    platform: str,
    out: Path | None,
    key: Path | None,
    context: str | None,
    allow: frozenset[str] | None,
    visibility: str,
    timeout: float | None,
    memory: int,
    sandbox: str | None,
    missing: str = "",
) -> None:
    """Grade one submission and write the platform's results.json (to ``out`` or stdout).

    ``missing`` says why there is no file to grade (an autograder's empty submission).

    A submission that cannot be graded still gets a results.json that says why (exit 0);
    only a run-level problem (a key that cannot be read, say) fails, with no results.
    """
    import time

    from ..grading import Sandbox, SubmissionError, grade
    from ..grading.classrun import StudentGrade, write_atomically
    from ..grading.imports import disallowed
    from ..grading.key import BoardKey
    from ..grading.platforms import VISIBILITIES, gradescope_results, prairielearn_results
    from ..grading.roster import read_submission

    if visibility not in VISIBILITIES:
        fail(f"--visibility must be one of {', '.join(VISIBILITIES)}, not {visibility!r}")
    with fail_on_error():
        if key is not None:
            chosen = BoardKey.read(key).board_set(context or "")
        else:
            chosen = BoardKey.new().board_set()
        began = time.perf_counter()
        result = StudentGrade(submission.name, submission.name)
        try:
            if missing:
                raise FileNotFoundError(missing)
            data, digest = read_submission(submission)
        except FileNotFoundError:
            result.problem = missing or f"no file {submission.name} was submitted"
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            result.problem = f"{submission.name} cannot be read: {reason}"
        else:
            result.sha256 = digest
            if allow is not None:
                with contextlib.suppress(SyntaxError, ValueError, RecursionError, MemoryError):
                    result.imports = [str(f) for f in disallowed(data, allow)]  # else: see below
            try:
                result.report = grade(
                    submission,
                    chosen.boards(),
                    timeout=timeout,
                    memory_mb=memory,
                    sandbox=Sandbox(sandbox) if sandbox else None,
                    board_set=chosen.name,
                    allow=allow,
                    zygote=True,
                )
            except SubmissionError as error:
                result.problem = f"not gradable: {error.reason}"
        result.seconds = time.perf_counter() - began
        if platform == "gradescope":
            results = gradescope_results(result, chosen.name, visibility=visibility)
        else:
            results = prairielearn_results(result, chosen.name)
        text = json.dumps(results, indent=1) + "\n"
        if out is None:
            emit(text.rstrip("\n"))
        else:
            write_atomically(out, text.encode("utf-8"))
