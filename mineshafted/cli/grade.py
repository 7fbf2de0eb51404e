"""``mineshafted grade``: one submission (``grade FILE``) or a whole class (``grade class``).

The command reads flags and prints: what is graded, and how, is :mod:`mineshafted.grading`'s
(:func:`~mineshafted.grading.grade` for one file, :func:`~mineshafted.grading.classrun.
grade_class` for a class), with one :class:`~mineshafted.grading.options.GradeOptions` made
from the flags. ``grade`` is a group whose default command grades a file, so ``grade FILE``
is as it always was and ``grade class FOLDER`` grades a class; the earlier spellings
``grade --class FOLDER`` and ``grade FILE --format gradescope|prairielearn`` still work, with
a one-line note on stderr naming the new ones.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from . import gradeclass
from .gradeflags import (
    Allow,
    DisallowedOption,
    MaxTimeouts,
    Memory,
    SandboxOption,
    Starter,
    Timeout,
    check_context,
    grading_options,
    warn_without_sandbox,
)
from .output import emit, fail, fail_on_error, note, written
from .usage import Command

if TYPE_CHECKING:
    from ..grading import BoardResult, GradeReport
    from ..grading.options import GradeOptions

__all__ = ["DEFAULT_JOBS", "HELP", "GradeGroup", "app", "command"]

DEFAULT_JOBS = max(1, min(4, os.cpu_count() or 1))
"""Boards graded at once by default: one per core, up to four."""

_UNWRAPPED = 1000
"""The width the report is laid out at when it goes to a pipe or a file: tables take only the
width they need, so no name or detail is cut or wrapped to fit 80 columns."""

DEFAULT = "file"
"""The name of the default command (grading one file): never typed, never listed."""

PLATFORM = "platform"
"""The name the earlier ``grade FILE --format gradescope`` is routed under: ``autograder
results``."""

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
    "exploded, crashed, timed out, out of time (not run: after --max-timeouts boards timed\n"
    "out, the rest are not run). Rubric: Sweeps 1 Mine 10%, 2 Mines 15%,\n"
    "3 Mines 20%, 4 Mines 25%, 5+ Mines 30%, each earned when every graded board with that\n"
    "many mines is solved. Each board runs in a bubblewrap sandbox where bwrap works (no\n"
    "network, a read-only system, none of your files but the submission), else as a plain\n"
    "process (as a fresh unprivileged user when the grader is root), with a note; and in a\n"
    "cgroup bounding the memory and number of its processes together where one can be made,\n"
    "else the report warns of what is not enforced.\n\n"
    "mineshafted grade class SUBMISSIONS grades a whole class; mineshafted autograder results\n"
    "writes a course platform's results.json for one submission.\n\n"
    "Exit status: 0 graded (whatever the score); 2 unusable arguments, a submission that\n"
    "cannot be imported, or a key or log file that cannot be read or written."
)
"""``grade --help``: the single grade's, followed by the group's commands."""


class OneFormat(StrEnum):
    """``grade FILE --format``: the report as text or JSON."""

    TEXT = "text"
    JSON = "json"


# The group: its default command grades a file.


class GradeGroup(TyperGroup):
    """``mineshafted grade``: a group whose default command grades one file.

    ``grade FILE ...`` runs the default command (:data:`DEFAULT`, never listed); a first word
    that names a command (``class``) runs that one. ``grade --help`` shows the default
    command's help, then the commands. The earlier spellings are rewritten, with a note on
    stderr: ``grade --class FOLDER ...`` to ``grade class FOLDER ...``, and ``grade FILE
    --format gradescope ...`` to ``autograder results gradescope FILE ...``. Built on the
    documented ``cls=`` of a typer group and its ``parse_args``/``get_command``.
    """

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.default = self.commands.pop(DEFAULT)
        self.default.context_class = _DefaultContext

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command of a name: the default one and the earlier platform spelling too."""
        if cmd_name == DEFAULT:
            return self.default
        if cmd_name == PLATFORM:
            import typer.main

            from . import autograder

            found = typer.main.get_command(autograder.app)
            results = found.commands["results"]  # type: ignore[attr-defined]
            results.context_class = _PlatformContext
            return results
        return super().get_command(ctx, cmd_name)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse ``args``, routed to the command they mean."""
        if not args or (args[0] not in self.commands and args[0] not in ctx.help_option_names):
            args = _routed(args)
        return super().parse_args(ctx, args)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The default command's help, then the group's commands."""
        sub = _DefaultContext(self.default, info_name=DEFAULT, parent=ctx)
        self.default.format_help(sub, formatter)
        self.format_commands(ctx, formatter)


class _DefaultContext(typer.Context):
    """The default command's context: named as the group is (``mineshafted grade``)."""

    @property
    def command_path(self) -> str:
        return self.parent.command_path if self.parent is not None else super().command_path


class _PlatformContext(typer.Context):
    """The context of the earlier platform spelling: named as its new home."""

    @property
    def command_path(self) -> str:
        return f"{self.find_root().command_path} autograder results"


def _routed(args: list[str]) -> list[str]:
    """``args`` with the command they mean in front: the class run for ``--class``, the
    platform's results for ``--format gradescope|prairielearn``, else the default."""
    end = args.index("--") if "--" in args else len(args)
    head, tail = args[:end], args[end:]
    for at, word in enumerate(head):
        if (word == "--class" and at + 1 < end) or word.startswith("--class="):
            folder = head[at + 1] if word == "--class" else word.partition("=")[2]
            rest = head[:at] + head[at + (2 if word == "--class" else 1) :]
            note("warning: 'grade --class FOLDER' is deprecated: use 'grade class FOLDER'")
            return ["class", folder, *rest, *tail]
    for at, word in enumerate(head):
        value, width = None, 1
        if word == "--format" and at + 1 < end:
            value, width = head[at + 1], 2
        elif word.startswith("--format="):
            value = word.partition("=")[2]
        if value is not None and value.lower() in ("gradescope", "prairielearn"):
            rest = head[:at] + head[at + width :]
            note(
                f"warning: 'grade FILE --format {value.lower()}' is deprecated: use "
                f"'autograder results {value.lower()} FILE'"
            )
            return [PLATFORM, value.lower(), *rest, *tail]
    return [DEFAULT, *args]


app = typer.Typer(
    cls=GradeGroup,
    name="grade",
    help=HELP,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


# One file.


@app.command(DEFAULT, cls=Command, help=HELP, hidden=True)
def command(
    submission: Annotated[
        Path,
        typer.Argument(
            metavar="SUBMISSION.py",
            help="A Python file that defines sweep_mines(bm).",
            show_default=False,
        ),
    ],
    puzzles: Annotated[
        list[Path] | None,
        typer.Argument(
            metavar="PUZZLES",
            help="Puzzle files or directories of them. Default: fresh boards from a secret key.",
            show_default=False,
        ),
    ] = None,
    timeout: Timeout = None,
    memory: Memory = 1024,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            max=64,
            help="Boards graded at once. Default: one per core, up to four.",
            show_default=False,
        ),
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the grade as one JSON object.")
    ] = False,
    output_format: Annotated[
        OneFormat | None,
        typer.Option(
            "--format",
            case_sensitive=False,
            help="What to print: text (default) or json (as --json).",
            show_default=False,
        ),
    ] = None,
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
        bool,
        typer.Option("--force", help="Replace an existing --log or --save-key file."),
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
    context: Annotated[
        str | None,
        typer.Option(
            metavar="TEXT",
            help="With --key: grade on the key's boards for this context (an autograder's "
            "submission id: each submission its own boards) instead of its class boards.",
            show_default=False,
        ),
    ] = None,
    sandbox: SandboxOption = None,
    allow: Allow = None,
    starter: Starter = None,
    disallowed: DisallowedOption = None,
    max_timeouts: MaxTimeouts = None,
    seed: Annotated[
        str | None,
        typer.Option(hidden=True, help="Gone: a seed anyone can read rebuilds the boards."),
    ] = None,
) -> None:
    """Grade ``submission`` on ``puzzles`` and print the boards, the achievements and the score."""
    from ..grading import grade
    from ..grading.boards import puzzle_files
    from ..grading.key import board_set_for
    from ..grading.log import LogFile, log_text

    if seed is not None:
        fail(
            "--seed is gone: a seed printed in a report let anyone rebuild the boards; "
            "grade on the same boards again with --key FILE (see --save-key)"
        )
    check_context(context, key)
    if key is not None and save_key is not None:
        fail("--key grades on a kept key's boards and --save-key keeps a fresh one: choose one")
    if puzzles and (key is not None or save_key is not None):
        option = "--key" if key is not None else "--save-key"
        fail(f"{option} is for the fresh default boards: it cannot be used with puzzle files")
    options, _ = grading_options(
        timeout=timeout,
        memory=memory,
        sandbox=sandbox,
        allow=allow,
        starter=starter,
        disallowed=disallowed,
        max_timeouts=max_timeouts,
    )
    as_json = (output_format or (OneFormat.JSON if json_output else OneFormat.TEXT)) == "json"
    with fail_on_error(), contextlib.ExitStack() as stack:
        protect = [submission]
        logfile = None
        if log is not None:
            logfile = stack.enter_context(LogFile(log, force=force, protect=protect))
        warn_without_sandbox(sandbox)
        chosen, origin = None, ""
        if puzzles:
            items = puzzle_files(puzzles)
        else:
            chosen, origin = board_set_for(key, save_key, context, force=force, protect=protect)
            items = chosen.boards()
        if not items:
            fail("no puzzles to grade")
        bar = _GradeProgress(len(items)) if sys.stderr.isatty() and not as_json else None
        report = grade(
            submission,
            items,
            options,
            jobs=jobs or DEFAULT_JOBS,
            progress=bar.advance if bar else None,
            board_set=chosen.name if chosen else None,
        )
        if bar:
            bar.close()
        imports = _flagged(submission, options)
        if as_json:
            data = report.to_json()
            if options.allow is not None:
                data["imports"] = imports
            emit(json.dumps(data))
        else:
            _print_grade(report, origin, imports)
        with written():  # the report is out before the log is written
            sys.stdout.flush()
        if logfile is not None:
            logfile.write(log_text(report))


def _flagged(submission: Path, options: GradeOptions) -> list[str]:
    """The submission's imports the options do not permit (none without --allow)."""
    from ..grading.roster import read_submission

    if options.allow is None:
        return []
    try:
        return options.findings(read_submission(submission)[0])
    except (OSError, ValueError):
        return []


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


def _print_grade(report: GradeReport, origin: str, imports: list[str] | None = None) -> None:
    """The boards and the achievements as two tables, then the score, on stdout; the board
    set's name and where its key came from (``origin``), if fresh boards were graded; the
    imports flagged under ``--allow``."""
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
    for found in imports or []:
        console.print(f"import not allowed: {shown(found)}", style="yellow")
    for warning in report.warnings:
        console.print(f"warning: {shown(warning)}", style="yellow")


app.command("class", cls=Command, help=gradeclass.CLASS_HELP)(gradeclass.class_command)
