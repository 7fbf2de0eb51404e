"""The command line: parse arguments, call the library, print. Nothing else."""

from __future__ import annotations

import json
import logging
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from . import __version__
from .board import render
from .errors import MineshaftedError
from .formats import Puzzle, dump_puzzle, format_puzzle, parse_puzzles, read_puzzles
from .generate import generate_many
from .manager import BoardManager
from .search import BacktrackingSearch, ComponentSearch, ConstraintSearch
from .sweep import Sweep, SweepReport

__all__ = ["EXIT_INVALID", "EXIT_NEEDS_GUESS", "EXIT_SOLVED", "app", "main"]

EXIT_SOLVED = 0
EXIT_NEEDS_GUESS = 1
EXIT_INVALID = 2

app = typer.Typer(
    name="mineshafted",
    help="Solve Minesweeper boards by constraint propagation and search, never guessing.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Engine(str, Enum):
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
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)


@app.command()
def solve(
    puzzle: Annotated[
        str,
        typer.Argument(
            metavar="PUZZLE",
            help="Puzzle file: a JSON object with a \"board\", a bare 2D list, or JSON Lines "
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
    rows: Annotated[int, typer.Argument(min=1, metavar="ROWS", help="Board rows.", show_default=False)],
    cols: Annotated[int, typer.Argument(min=1, metavar="COLS", help="Board columns.", show_default=False)],
    mines: Annotated[int, typer.Argument(min=0, metavar="MINES", help="Number of mines.", show_default=False)],
    count: Annotated[int, typer.Option("--count", "-n", min=1, help="How many boards.")] = 1,
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


def main() -> None:
    """Run the command-line interface (the ``mineshafted`` console script)."""
    app()


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
