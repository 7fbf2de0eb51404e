"""The command line: parse arguments, call the library, print. Nothing else."""

from __future__ import annotations

import json
import logging
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .. import __version__, grading
from ..board import render
from ..errors import MineshaftedError
from ..formats import (
    Puzzle,
    dump_puzzle,
    find_puzzle_files,
    format_puzzle,
    parse_puzzles,
    read_puzzles,
)
from ..game.manager import BoardManager
from ..generate import generate_many
from ..solver.search import BacktrackingSearch, ComponentSearch, ConstraintSearch
from ..solver.sweep import Sweep, SweepReport

__all__ = ["EXIT_INVALID", "EXIT_NEEDS_GUESS", "EXIT_SOLVED", "app", "main"]

EXIT_SOLVED = 0
EXIT_NEEDS_GUESS = 1
EXIT_INVALID = 2

DEFAULT_JOBS = max(1, min(4, os.cpu_count() or 1))
"""Boards graded at once by default: one per core, up to four."""

app = typer.Typer(
    name="mineshafted",
    help="Solve Minesweeper boards by constraint propagation and search, never guessing.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Engine(StrEnum):
    """Component-search engines selectable from the command line."""

    backtracking = "backtracking"
    python_constraint = "python-constraint"

    def build(self) -> ComponentSearch:
        """An instance of the engine."""
        if self is Engine.python_constraint:
            return ConstraintSearch()
        return BacktrackingSearch()


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mineshafted {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    verbose: Annotated[
        int,
        typer.Option(
            "--verbose", "-v", count=True, help="Log the solver's stages to stderr (-vv: more)."
        ),
    ] = 0,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Solve Minesweeper boards by constraint propagation and search, never guessing."""
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    _log_to_stderr(level)


@app.command()
def solve(
    puzzle: Annotated[
        str,
        typer.Argument(
            metavar="PUZZLE",
            help='Puzzle file: a JSON object with a "board", a bare 2D list, or JSON Lines '
            "of puzzles. '-' reads standard input.",
            show_default=False,
        ),
    ],
    json_output: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print one JSON object per puzzle (status, board, moves, seconds, ...) instead "
            "of a grid.",
        ),
    ] = False,
    engine: Annotated[
        Engine,
        typer.Option(help="Engine for the component search when AC-3 stalls."),
    ] = Engine.backtracking,
) -> None:
    """Play PUZZLE through a BoardManager with sweep_mines and print the solved board.

    The grid shows clues as digits, 0 as '.', mines as '*' and undetermined cells as '?'.

    Exit status: 0 solved; 1 needs a guess (prints the partial board and the undetermined cells); 2 invalid input (one line on stderr names the problem).
    """
    try:
        if puzzle == "-":
            puzzles = parse_puzzles(sys.stdin.read(), origin="<stdin>")
        else:
            puzzles = read_puzzles(puzzle)
    except MineshaftedError as error:
        _fail(str(error))
    worst = EXIT_SOLVED
    for number, item in enumerate(puzzles):
        try:
            report = Sweep(BoardManager(item.board), search=engine.build(), start=item.start).run()
        except MineshaftedError as error:
            _fail(f"{_label(item, number)}: {error}")
        if json_output:
            typer.echo(json.dumps(_as_json(item, report)))
        else:
            if number:
                typer.echo()
            typer.echo(_as_text(item, number, report))
        worst = max(worst, EXIT_SOLVED if report.solved else EXIT_NEEDS_GUESS)
    raise typer.Exit(worst)


def _parse_start(text: str) -> tuple[int, int]:
    try:
        row, col = (int(part) for part in text.split(","))
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not ROW,COL (e.g. 0,0)") from None
    return row, col


@app.command()
def generate(
    rows: Annotated[
        int, typer.Argument(min=1, metavar="ROWS", help="Board rows.", show_default=False)
    ],
    cols: Annotated[
        int, typer.Argument(min=1, metavar="COLS", help="Board columns.", show_default=False)
    ],
    mines: Annotated[
        int, typer.Argument(min=0, metavar="MINES", help="Number of mines.", show_default=False)
    ],
    count: Annotated[
        int, typer.Option("--count", "-n", min=1, max=1_000_000, help="How many boards.")
    ] = 1,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed: the same seed gives the same boards. Default: a random one."),
    ] = None,
    start: Annotated[
        str,
        typer.Option(
            metavar="R,C", help="First move (row,column); it and its neighbours hold no mine."
        ),
    ] = "0,0",
    out: Annotated[
        Path | None,
        typer.Option(
            file_okay=False,
            help="Write one puzzle file per board into this directory (created if needed) "
            "instead of JSON Lines on stdout.",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="With --out, overwrite existing puzzle files.")
    ] = False,
    timeout: Annotated[
        float,
        typer.Option(min=0.001, help="Seconds allowed per board before giving up."),
    ] = 60.0,
) -> None:
    """Make no-guess boards: the solver finishes each from the start cell without a guess
    and without knowing the mine total.

    Output: JSON Lines, one puzzle object per line ({"board": ..., "seed": ..., ...}), or with
    --out one file per board named ROWSxCOLS-MINES-NNN.json. Exit status: 0 done; 2 invalid
    request or no board within --timeout.
    """
    start_cell = _parse_start(start)
    try:
        made = generate_many(rows, cols, mines, count, seed=seed, start=start_cell, timeout=timeout)
        targets: list[Path] = []
        if out is not None:
            targets = [out / f"{rows}x{cols}-{mines}-{n:03d}.json" for n in range(1, count + 1)]
            clash = [t for t in targets if t.exists()]
            if clash and not force:
                _fail(f"{clash[0]}: already exists (use --force to overwrite)")
            out.mkdir(parents=True, exist_ok=True)
        show = count > 1 and sys.stderr.isatty()
        with typer.progressbar(
            made, length=count, label="generating", file=sys.stderr, hidden=not show
        ) as boards:
            for number, board in enumerate(boards, 1):
                name = f"{rows}x{cols}-{mines}-{number:03d}"
                puzzle = board.to_puzzle(name)
                if out is None:
                    typer.echo(dump_puzzle(puzzle))
                else:
                    targets[number - 1].write_text(format_puzzle(puzzle) + "\n")
    except MineshaftedError as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"{error.filename}: {error.strerror}")
    if out is not None:
        typer.echo(f"wrote {count} puzzle file(s) to {out}", err=True)


@app.command()
def grade(
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
            help="Puzzle files or directories of them. Default: the shipped no-guess sets.",
            show_default=False,
        ),
    ] = None,
    timeout: Annotated[
        float, typer.Option(min=0.1, help="Wall-clock seconds allowed per board.")
    ] = 30.0,
    memory: Annotated[
        int, typer.Option(min=64, metavar="MB", help="Address-space limit per board, in MiB.")
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
) -> None:
    """Grade any sweep_mines against no-guess boards, each board in its own child process.

    The child never holds the board: its manager asks this process for each clue. Outcomes:
    solved, wrong board, exploded, crashed, timed out. Rubric: Sweeps 1 Mine 10%, 2 Mines 15%,
    3 Mines 20%, 4 Mines 25%, 5+ Mines 30%, each earned when every graded board with that
    many mines is solved. Exit status: 0 graded (whatever the score); 2 unusable arguments or
    a submission that cannot be imported.
    """
    try:
        items = _graded_puzzles(puzzles)
        if not items:
            _fail("no puzzles to grade")
        bar = _GradeProgress(len(items)) if sys.stderr.isatty() and not json_output else None
        report = grading.grade(
            submission,
            items,
            timeout=timeout,
            memory_mb=memory,
            jobs=jobs,
            progress=bar.advance if bar else None,
        )
        if bar:
            bar.close()
    except MineshaftedError as error:
        _fail(str(error))
    if log is not None:
        try:
            log.write_text(
                "".join(
                    f"== {b.puzzle}: {b.output_bytes} bytes ==\n{b.output}\n" for b in report.boards
                )
            )
        except OSError as error:
            _fail(f"{log}: cannot write the log: {error.strerror}")
    if json_output:
        typer.echo(json.dumps(report.to_json()))
    else:
        _print_grade(report)


def main() -> None:
    """Run the command-line interface (the ``mineshafted`` console script)."""
    app()


class _GradeProgress:
    """A progress line on stderr while boards are graded."""

    def __init__(self, total: int) -> None:
        from rich.progress import Progress

        self._progress = Progress(console=Console(stderr=True), transient=True)
        self._task = self._progress.add_task("grading", total=total)
        self._progress.start()

    def advance(self, _result: grading.BoardResult) -> None:
        self._progress.advance(self._task)

    def close(self) -> None:
        self._progress.stop()


def _graded_puzzles(paths: list[Path] | None) -> list[tuple[str, Puzzle]]:
    """Read the puzzles to grade, labelled by file (and line, in JSON Lines files)."""
    roots = paths or [grading.shipped_puzzles()]
    items: list[tuple[str, Puzzle]] = []
    for path in find_puzzle_files(roots):
        found = read_puzzles(path)
        label = _short(path)
        for number, puzzle in enumerate(found, 1):
            name = label if len(found) == 1 else f"{label}:{number}"
            if puzzle.start != 0:
                row, col = puzzle.board.geometry.coords(puzzle.start)
                raise MineshaftedError(
                    f"{name}: starts at [{row}, {col}], but sweep_mines starts at index 0"
                )
            items.append((name, puzzle))
    return items


def _short(path: Path) -> str:
    """A path as the user would like to read it: relative to here, or to the shipped sets."""
    resolved = path.resolve()
    for base in (grading.shipped_puzzles_root(), Path.cwd()):
        if base is not None and resolved.is_relative_to(base):
            return str(resolved.relative_to(base))
    return str(path)


def _print_grade(report: grading.GradeReport) -> None:
    console = Console()
    boards = Table(title=f"Boards: {report.submission}", title_justify="left")
    for column in ("puzzle", "size", "mines", "outcome", "moves", "seconds", "detail"):
        numeric = column in ("mines", "moves", "seconds")
        boards.add_column(column, justify="right" if numeric else "left", overflow="fold")
    for b in report.boards:
        style = "green" if b.outcome is grading.Outcome.SOLVED else "red"
        boards.add_row(
            b.puzzle,
            f"{b.rows}x{b.cols}",
            str(b.mines),
            f"[{style}]{b.outcome.value}[/]",
            str(b.moves),
            f"{b.seconds:.3f}",
            escape(b.detail),
        )
    console.print(boards)
    rubric = Table(title="Achievements", title_justify="left")
    for column in ("achievement", "boards solved", "earned", "weight"):
        rubric.add_column(column, justify="right" if column == "weight" else "left")
    for a in report.achievements:
        verdict = "yes" if a.earned else "not graded" if not a.graded else "no"
        rubric.add_row(a.name, f"{a.solved}/{a.graded}", verdict, f"{a.weight}%")
    console.print(rubric)
    earned = sum(a.earned for a in report.achievements)
    console.print(f"score: {report.score}% ({earned} of {len(report.achievements)} achievements)")


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The CLI's handler on the package logger: what ``-v`` shows, on the current stderr."""


def _log_to_stderr(level: int) -> None:
    """Send the package's log records at ``level`` and above to stderr, and nowhere else."""
    logger = logging.getLogger("mineshafted")
    for handler in [h for h in logger.handlers if isinstance(h, _StderrHandler)]:
        logger.removeHandler(handler)
    handler = _StderrHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(EXIT_INVALID)


def _label(puzzle: Puzzle, number: int) -> str:
    return puzzle.name if puzzle.name else f"puzzle {number + 1}"


def _as_text(puzzle: Puzzle, number: int, report: SweepReport) -> str:
    geometry = puzzle.board.geometry
    lines = [
        f"{_label(puzzle, number)}: {geometry.rows}x{geometry.cols}, "
        f"{puzzle.board.mine_count} mines",
        render(report.board),
    ]
    took = f"{report.moves} moves in {report.seconds * 1000:.1f} ms"
    if report.solved:
        lines.append(f"solved: {took}")
    else:
        beside = ", ".join(f"({r}, {c})" for r, c in map(geometry.coords, report.frontier))
        lines.append(
            f"needs a guess: {took}; {len(report.undetermined)} undetermined cell(s) "
            f"(marked ?), {len(report.frontier)} beside a clue: {beside or 'none'}"
        )
    return "\n".join(lines)


def _as_json(puzzle: Puzzle, report: SweepReport) -> dict[str, Any]:
    coords = puzzle.board.geometry.coords
    return {
        "status": report.status.value,
        "name": puzzle.name,
        "rows": puzzle.board.geometry.rows,
        "cols": puzzle.board.geometry.cols,
        "mines": puzzle.board.mine_count,
        "board": report.board,
        "moves": report.moves,
        "seconds": round(report.seconds, 6),
        "undetermined": [list(coords(c)) for c in report.undetermined],
        "frontier": [list(coords(c)) for c in report.frontier],
        "proven_by": dict(report.proven_by),
        "searches": report.searches,
    }
