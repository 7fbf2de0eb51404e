"""``mineshafted replay``: a game record, or a puzzle solved and recorded, as one HTML page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .output import fail, fail_on_error, label

if TYPE_CHECKING:
    from ..game import GameRecord

__all__ = ["HELP", "command"]

HELP = (
    "Write RECORD_OR_PUZZLE as one self-contained HTML page that steps through the game.\n\n"
    "RECORD_OR_PUZZLE is a game record (JSON Lines, as --record writes) or a puzzle file, "
    "which is solved from its start cell and recorded first. The page needs no network: "
    "open it in any browser, offline, or send it on. It shows the board at each step with "
    "what happened and why (the stage that proved a cell, a guess and its odds, a rule), "
    "first/previous/play/next/last controls, a slider, the keys arrows, space, Home and End, "
    "and a heat map of the mine odds where the record has them.\n\n"
    "Exit status: 0 written; 2 unreadable input or an existing page without --force (one "
    "line on stderr says why)."
)
"""The command's ``--help`` text."""


def command(
    source: Annotated[
        Path,
        typer.Argument(
            metavar="RECORD_OR_PUZZLE",
            help="A game record (.jsonl) or a puzzle file (JSON, or JSON Lines of puzzles).",
            show_default=False,
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE.html",
            help="Where to write the page. Default: the input's name with .html.",
            show_default=False,
        ),
    ] = None,
    open_page: Annotated[
        bool, typer.Option("--open", help="Open the page in the default browser.")
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing page.")] = False,
    number: Annotated[
        int,
        typer.Option("--puzzle", min=1, help="Which puzzle of a file of several to solve, from 1."),
    ] = 1,
    with_total: Annotated[
        bool,
        typer.Option(
            "--with-total",
            help="Solving a puzzle: tell the solver (and the page) the board's mine total.",
        ),
    ] = False,
) -> None:
    """Read ``source``, solve it if it is a puzzle, and write its replay page."""
    import webbrowser

    from ..replay import write_page

    target = out if out is not None else source.with_suffix(".html")
    if target.exists() and not force:  # before any solving
        fail(f"{target}: exists; use --force to overwrite it")
    with fail_on_error():
        record, title = _record(source, number, with_total)
    with fail_on_error(str(source)):
        written = write_page(record, target, title=title, force=force)
    typer.echo(f"wrote {written}: {written.stat().st_size} bytes, {_steps(record)} steps")
    if open_page and not webbrowser.open(written.resolve().as_uri()):
        typer.echo(f"note: no browser could be started; open {written.resolve()} in one", err=True)


def _record(source: Path, number: int, with_total: bool) -> tuple[GameRecord, str]:
    """The record in ``source``, or the solve of its ``number``-th puzzle; and a title."""
    from ..formats import read_puzzles
    from ..game import read_record
    from ..solver.recording import record_solve

    if _is_record(source):
        return read_record(source), source.name
    puzzles = read_puzzles(source)
    if number > len(puzzles):
        fail(f"{source}: --puzzle {number}, but the file holds {len(puzzles)} puzzle(s)")
    puzzle = puzzles[number - 1]
    board = puzzle.board
    with fail_on_error(label(puzzle, number - 1)):
        record = record_solve(
            board, start=puzzle.start, mines=board.mine_count if with_total else None
        )
    name = puzzle.name or (source.name if len(puzzles) == 1 else label(puzzle, number - 1))
    return record, f"{name}: {_how_it_ended(record)}"


def _how_it_ended(record: GameRecord) -> str:
    """The title's account of a solve: solved, or stalled where it needs a guess."""
    from ..game import GameStatus, Outcome

    outcome = record.events[-1] if record.events else None
    if isinstance(outcome, Outcome) and outcome.status is GameStatus.WON:
        return "solved from the start cell"
    if isinstance(outcome, Outcome):
        return "the start cell is a mine"
    return "stalled: needs a guess"


def _is_record(source: Path) -> bool:
    """Whether ``source``'s first line is a game record's header."""
    from ..game.record import FORMAT

    with open(source, encoding="utf-8", errors="replace") as file:
        for line in file:
            if line.strip():
                try:
                    head = json.loads(line)
                except json.JSONDecodeError:
                    return False
                return isinstance(head, dict) and head.get("format") == FORMAT
    return False


def _steps(record: GameRecord) -> int:
    """How many actions ``record`` holds (the page's steps)."""
    from ..game import Flag, Reveal, Unflag

    return sum(isinstance(e, Reveal | Flag | Unflag) for e in record.events)
