"""What the commands print: one-line errors, and sweep reports as a text grid or as JSON."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from ..errors import MineshaftedError
from ..text import visible
from .status import EXIT_CLOSED_PIPE, EXIT_INVALID, exit_status

if TYPE_CHECKING:
    from ..formats import Puzzle
    from ..game import GameRecord
    from ..solver import SweepReport

__all__ = [
    "check_record",
    "emit",
    "fail",
    "fail_on_error",
    "finish_output",
    "label",
    "save_record",
    "sweep_json",
    "sweep_text",
]


def fail(message: str, status: int = EXIT_INVALID) -> NoReturn:
    """Print ``error: message`` as one line on stderr and end the command with ``status``.

    Control characters in ``message`` (a newline or an escape sequence in a file's name) are
    written as escapes, so the line stays one line and cannot drive the terminal.

    Parameters
    ----------
    message : str
        What went wrong, naming the file or argument at fault.
    status : int
        The exit status; by default ``EXIT_INVALID``.

    Raises
    ------
    typer.Exit
        Always, carrying ``status``.
    """
    typer.echo(f"error: {visible(message)}", err=True)
    raise typer.Exit(status)


def emit(line: str = "") -> None:
    """Print ``line`` on standard output; a write that fails ends the command.

    Raises
    ------
    typer.Exit
        With :data:`EXIT_CLOSED_PIPE` and nothing printed when the reader has gone (a closed
        pipe); with ``EXIT_INVALID`` and ``error: <stdout>: ...`` on stderr for any other
        failed write (a full disk, say).
    """
    with _stdout_errors():
        typer.echo(line)


def finish_output() -> None:
    """Flush standard output at the end of a command, with :func:`emit`'s handling of errors.

    Output to a file or a pipe is buffered, so a full disk or a closed pipe may only show
    when the buffer is flushed.
    """
    with _stdout_errors():
        sys.stdout.flush()


@contextmanager
def fail_on_error(prefix: str = "") -> Iterator[None]:
    """Turn a library or file-system error raised in the block into :func:`fail`.

    Parameters
    ----------
    prefix : str
        Put before the error's message with ``": "``, e.g. the puzzle the error is about.

    Yields
    ------
    None
        Control, while errors are watched.

    Raises
    ------
    typer.Exit
        For a ``MineshaftedError`` or ``OSError`` raised in the block, with the status
        :func:`~mineshafted.cli.status.exit_status` maps it to. Other exceptions pass through.
    """
    try:
        yield
    except MineshaftedError as error:
        fail(f"{prefix}: {error}" if prefix else str(error), exit_status(error))
    except OSError as error:
        where = error.filename if error.filename is not None else prefix
        fail(f"{where}: {error.strerror}" if where else str(error), exit_status(error))


def label(puzzle: Puzzle, number: int) -> str:
    """The puzzle's name, or ``puzzle N`` (counting from 1) for the ``number``-th unnamed one.

    Examples
    --------
    >>> from mineshafted import Board, Puzzle
    >>> board = Board.from_grid([[0, 1, -1]])
    >>> label(Puzzle(board), 0), label(Puzzle(board, name="easy"), 4)
    ('puzzle 1', 'easy')
    """
    return puzzle.name if puzzle.name else f"puzzle {number + 1}"


def sweep_text(puzzle: Puzzle, number: int, report: SweepReport) -> str:
    """A sweep report for people: a heading, the (partial) board as a grid, and the outcome.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle swept.
    number : int
        Its place in its file, counting from 0 (names unnamed puzzles).
    report : SweepReport
        What the sweep found.

    Returns
    -------
    str
        Lines without a final newline: clues as digits, 0 as ``.``, mines as ``*`` and
        undetermined cells as ``?``; then ``solved: ...`` or ``needs a guess: ...`` with the
        cells where a guess would be made.
    """
    from ..board import render

    geometry = puzzle.board.geometry
    lines = [
        f"{label(puzzle, number)}: {geometry.rows}x{geometry.cols}, "
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


def sweep_json(puzzle: Puzzle, report: SweepReport) -> dict[str, Any]:
    """A sweep report for programs: one JSON-ready object, cells as ``[row, col]`` pairs.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle swept.
    report : SweepReport
        What the sweep found.

    Returns
    -------
    dict
        ``status``, ``name``, ``rows``, ``cols``, ``mines``, ``board``, ``moves``, ``seconds``,
        ``undetermined``, ``frontier``, ``proven_by`` and ``searches``.
    """
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


@contextmanager
def _stdout_errors() -> Iterator[None]:
    """Turn a failed write to standard output into a quiet end (closed pipe) or a one-line
    error naming ``<stdout>``."""
    try:
        yield
    except BrokenPipeError:
        _drop_stdout()
        raise typer.Exit(EXIT_CLOSED_PIPE) from None
    except OSError as error:
        _drop_stdout()
        fail(f"<stdout>: {error.strerror or error}")


def _drop_stdout() -> None:
    """Point standard output at the null device, so the interpreter's last flush at exit
    neither fails again nor prints a second error."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file: a test runner's buffer
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


def check_record(path: Path | None, count: int, what: str) -> None:
    """Refuse a ``--record`` that could not be kept: more than one ``what``, or a file there.

    Raises
    ------
    typer.Exit
        Through :func:`fail`, with one line naming the problem.
    """
    if path is None:
        return
    if count != 1:
        fail(f"--record takes one {what}, not {count}")
    if path.exists():
        fail(f"{path}: already exists; remove it or choose another name")


def save_record(record: GameRecord, path: Path) -> None:
    """Write a game record to ``path`` (JSON Lines), an error as one line naming the file."""
    from ..game import write_record

    with fail_on_error(str(path)):
        write_record(record, path)
