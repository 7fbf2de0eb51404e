"""``mineshafted replay``: a game record, or a puzzle solved and recorded, as one HTML page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .options import force_option
from .output import emit, fail, fail_on_error, label, note
from .targets import check_target, replacing

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
    force: Annotated[bool, force_option("page")] = False,
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

    if out is None and str(source) == "-":
        fail("<stdin>: the page needs a name: give --out FILE.html")
    target = out if out is not None else source.with_suffix(".html")
    check_target(target, force=force, inputs=[source])  # before any solving
    with fail_on_error():
        record, title = _record(source, number, with_total)
    with (
        fail_on_error("<stdin>" if str(source) == "-" else str(source)),
        replacing(target, force=force, inputs=[source]) as beside,
    ):
        write_page(record, beside, title=_printable(title), force=True)
    emit(f"wrote {target}: {target.stat().st_size} bytes, {_steps(record)} steps")
    if open_page and not webbrowser.open(target.resolve().as_uri()):
        note(f"note: no browser could be started; open {target.resolve()} in one")


def _printable(title: str) -> str:
    """``title`` with each lone surrogate (a name read from JSON's ``\\ud800``, or a file
    name's undecodable byte) written as its escape, as the terminal shows it: a page is UTF-8,
    which has no such character.

    Examples
    --------
    >>> _printable("a\\ud800b: solved"), _printable("plain é")
    ('a\\\\ud800b: solved', 'plain é')
    """
    return title.encode("utf-8", "backslashreplace").decode("utf-8")


def _record(source: Path, number: int, with_total: bool) -> tuple[GameRecord, str]:
    """The record in ``source``, or the solve of its ``number``-th puzzle; and a title.

    ``source`` is read once, through the capped reader (a FIFO or standard input, ``-``,
    gives its bytes to this one read); a record's header is checked against the cell cap
    before any board is made.
    """
    import io

    from ..formats import MAX_CELLS, STDIN, parse_puzzles, read_text
    from ..game import read_record
    from ..solver.recording import record_solve

    text = read_text(source)
    name = "<stdin>" if str(source) == STDIN else str(source)
    lines = text.splitlines()
    head = _header(lines, name)
    if head is not None:
        rows, cols = head.get("rows"), head.get("cols")
        if type(rows) is int and type(cols) is int and rows * cols > MAX_CELLS:
            fail(f"{name}: line 1: a {rows}x{cols} board: more than {MAX_CELLS:,} cells")
        for at, line in enumerate(lines, start=1):
            _json_line(line, name, at)
        stream = io.StringIO(text)
        stream.name = name
        return read_record(stream), source.name if str(source) != STDIN else "<stdin>"
    puzzles = parse_puzzles(text, origin=name)
    if number > len(puzzles):
        fail(f"{name}: --puzzle {number}, but the file holds {len(puzzles)} puzzle(s)")
    puzzle = puzzles[number - 1]
    board = puzzle.board
    with fail_on_error(label(puzzle, number - 1)):
        record = record_solve(
            board, start=puzzle.start, mines=len(board.mines) if with_total else None
        )
    title = puzzle.name or (source.name if len(puzzles) == 1 else label(puzzle, number - 1))
    return record, f"{title}: {_how_it_ended(record)}"


def _header(lines: list[str], name: str) -> dict[str, object] | None:
    """The first line as a game record's header, or ``None`` when it is not one."""
    from ..game.record import FORMAT

    for at, line in enumerate(lines, start=1):
        if line.strip():
            head = _json_line(line, name, at)
            if isinstance(head, dict) and head.get("format") == FORMAT:
                return head
            return None
    return None


def _json_line(line: str, name: str, at: int) -> object:
    """``line`` as JSON (``None`` if it is not JSON); nesting too deep for the parser or an
    integer past Python's digit limit ends the command in one line naming the line."""
    try:
        return json.loads(line) if line.strip() else None
    except json.JSONDecodeError:
        return None
    except RecursionError:
        fail(f"{name}: line {at}: nested too deeply to read")
    except ValueError as error:  # an integer of more than 4300 digits
        fail(f"{name}: line {at}: {str(error).split(';')[0]}")


def _how_it_ended(record: GameRecord) -> str:
    """The title's account of a solve: solved, or stalled where it needs a guess."""
    from ..game import GameStatus, Outcome

    outcome = record.events[-1] if record.events else None
    if isinstance(outcome, Outcome) and outcome.status is GameStatus.WON:
        return "solved from the start cell"
    if isinstance(outcome, Outcome):
        return "the start cell is a mine"
    return "stalled: needs a guess"


def _steps(record: GameRecord) -> int:
    """How many actions ``record`` holds (the page's steps)."""
    from ..game import Flag, Reveal, Unflag

    return sum(isinstance(e, Reveal | Flag | Unflag) for e in record.events)
