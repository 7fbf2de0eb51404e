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

if TYPE_CHECKING:
    from ..formats import Puzzle
    from ..grading import BoardResult, GradeReport
    from ..grading.key import BoardSet

__all__ = ["DEFAULT_JOBS", "HELP", "SandboxChoice", "command"]

DEFAULT_JOBS = max(1, min(4, os.cpu_count() or 1))
"""Boards graded at once by default: one per core, up to four."""

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
    "Exit status: 0 graded (whatever the score); 2 unusable arguments, a submission that\n"
    "cannot be imported, or a key or log file that cannot be read or written."
)
"""The command's ``--help`` text."""


class SandboxChoice(StrEnum):
    """``--sandbox``: the values of :class:`mineshafted.grading.Sandbox` (imported lazily)."""

    BWRAP = "bwrap"
    NONE = "none"


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
        int, typer.Option("--jobs", "-j", min=1, max=64, help="Boards graded at once.")
    ] = DEFAULT_JOBS,
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
) -> None:
    """Grade ``submission`` on ``puzzles`` and print the boards, the achievements and the score."""
    from ..grading import Sandbox, grade
    from ..grading.log import LogFile, log_text
    from ..grading.sandbox import none_warning

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
            chosen, origin = _board_set(key, save_key)
            items = chosen.boards()
        if not items:
            fail("no puzzles to grade")
        bar = _GradeProgress(len(items)) if sys.stderr.isatty() and not json_output else None
        report = grade(
            submission,
            items,
            timeout=timeout,
            memory_mb=memory,
            jobs=jobs,
            progress=bar.advance if bar else None,
            sandbox=Sandbox(sandbox.value) if sandbox else None,
            board_set=chosen.name if chosen else None,
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


def _board_set(key: Path | None, save_key: Path | None) -> tuple[BoardSet, str]:
    """The board set to grade on, and where its key came from, as the report says it.

    Raises
    ------
    GraderFileError
        The key file cannot be read, or the fresh key cannot be saved.
    """
    from ..grading.key import BoardKey

    if key is not None:
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

    from ..grading import Outcome
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
        style = "green" if b.outcome is Outcome.SOLVED else "red"
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
