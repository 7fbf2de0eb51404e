"""``mineshafted grade``: grade a submission's sweep_mines, one child process per board."""

from __future__ import annotations

import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .output import fail, fail_on_error

if TYPE_CHECKING:
    from ..formats import Puzzle
    from ..grading import BoardResult, GradeReport

__all__ = ["DEFAULT_JOBS", "HELP", "SandboxChoice", "command"]

DEFAULT_JOBS = max(1, min(4, os.cpu_count() or 1))

_LOG_KEEPS = "\n\t"
"""The control characters a submission's output keeps in ``--log``: every other one (an
escape sequence, a carriage return) is written as an escape."""

_UNWRAPPED = 1000
"""The width the report is laid out at when it goes to a pipe or a file: tables take only the
width they need, so no name or detail is cut or wrapped to fit 80 columns."""
"""Boards graded at once by default: one per core, up to four."""

HELP = (
    "Grade any sweep_mines against no-guess boards, each board in its own child process.\n\n"
    "Default boards: 32 made for this grading from a random seed, which the report names\n"
    "(--seed S grades on the same boards again): four each with exactly 1, 2, 3 and 4 mines,\n"
    "and 8x8/5, 9x9/10, 16x16/40 and 16x30/99 for 5+, every one rated ac3 or below (AC-3 over\n"
    "the clue domains solves it: see mineshafted rate). Puzzle files, if given, instead.\n\n"
    "The child never holds the board: its manager asks this process for each clue. Outcomes:\n"
    "solved, wrong board, not explored (the right board before every safe cell was moved onto),\n"
    "exploded, crashed, timed out. Rubric: Sweeps 1 Mine 10%, 2 Mines 15%,\n"
    "3 Mines 20%, 4 Mines 25%, 5+ Mines 30%, each earned when every graded board with that\n"
    "many mines is solved. Each board runs in a bubblewrap sandbox where bwrap works (no\n"
    "network, a read-only system, none of your files but the submission), else as a plain\n"
    "process, with a note; and in a cgroup bounding the memory and number of its processes\n"
    "together where one can be made, else the report warns of what is not enforced.\n"
    "Exit status: 0 graded (whatever the score); 2 unusable arguments or a submission that\n"
    "cannot be imported."
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
            help="Puzzle files or directories of them. Default: fresh boards (see --seed).",
            show_default=False,
        ),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            min=0.1,
            help="Wall-clock seconds allowed per board. Default: max(30, 100 µs per cell).",
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
        typer.Option(help="Write what the submission printed, board by board, to this file."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite the --log file if it exists.")
    ] = False,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed of the fresh default boards: the same seed, the same boards. Default: a "
            "random one, named in the report. Not with puzzle files.",
            show_default=False,
        ),
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
    from ..grading.sandbox import NONE_WARNING
    from ..text import visible

    if log is not None and log.exists() and not force:
        fail(f"{log}: already exists (use --force to overwrite)")
    if seed is not None and puzzles:
        fail("--seed chooses the fresh default boards: it cannot be used with puzzle files")
    if sandbox is SandboxChoice.NONE:
        typer.echo(f"warning: {NONE_WARNING}", err=True)
    with fail_on_error():
        if puzzles:
            items = _graded_puzzles(puzzles)
        else:
            from ..grading.boards import fresh_boards, fresh_seed

            seed = fresh_seed() if seed is None else seed
            items = fresh_boards(seed)
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
        )
        if bar:
            bar.close()
    if log is not None:
        try:
            log.write_text(
                "".join(
                    f"== {visible(b.puzzle)}: {b.output_bytes} bytes ==\n"
                    f"{visible(b.output, keep=_LOG_KEEPS)}\n"
                    for b in report.boards
                )
            )
        except OSError as error:
            fail(f"{log}: cannot write the log: {error.strerror}")
    if json_output:
        typer.echo(json.dumps({**report.to_json(), "seed": seed}))
    else:
        _print_grade(report, seed)


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


def _print_grade(report: GradeReport, seed: int | None) -> None:
    """The boards and the achievements as two tables, then the score, on stdout; the fresh
    boards' ``seed``, if they were graded."""
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
    if seed is not None:
        console.print(f"boards: fresh from seed {seed} (the same boards again: --seed {seed})")
    for warning in report.warnings:
        console.print(f"warning: {shown(warning)}", style="yellow")
