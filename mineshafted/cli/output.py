"""What the commands print: one-line errors, output made safe for a terminal, failed writes,
and sweep reports as a text grid or as JSON."""

from __future__ import annotations

import errno
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from ..errors import MineshaftedError
from ..text import cut, visible
from .status import EXIT_CLOSED_PIPE, EXIT_INVALID, exit_status

if TYPE_CHECKING:
    from ..formats import Puzzle
    from ..solver import SweepReport

__all__ = [
    "LONGEST_LINE",
    "LONGEST_WORD",
    "emit",
    "fail",
    "fail_on_error",
    "label",
    "note",
    "say",
    "sweep_json",
    "sweep_text",
    "written",
]


def fail(message: str, status: int = EXIT_INVALID) -> NoReturn:
    """Print ``error: message`` as one line on stderr (:func:`say`) and end the command with
    ``status``.

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
    say(message)
    raise typer.Exit(status)


def say(message: str) -> None:
    """Print ``error: message`` as one line on stderr: control characters written as escapes,
    so the line stays one line and cannot drive the terminal, and every word longer than
    :data:`LONGEST_WORD` characters (a value pasted by mistake, a path) cut to it, as
    :func:`mineshafted.text.cut` does, the line to :data:`LONGEST_LINE` in all."""
    line = _LONG_WORD.sub(lambda word: cut(word[0], LONGEST_WORD), visible(message))
    typer.echo(f"error: {cut(line, LONGEST_LINE)}", err=True)


LONGEST_WORD = 200
"""The most characters of one word (a run without spaces) an error line shows."""

LONGEST_LINE = 1000
"""The most characters of an error's message an error line shows."""


@contextmanager
def written(path: object = None) -> Iterator[None]:
    """End the command in one line if a write in the block fails: a closed pipe quietly, with
    status 141; any other failed write (a full disk, a device that refuses it) with ``error:
    cannot write the output: <why>``, or ``error: <path>: <why>`` when ``path`` names the
    file written, status 2.

    An ``OSError`` that names its file (from opening it: no such directory, permission denied)
    is reported with that name.

    Raises
    ------
    typer.Exit
        For a failed write, carrying its status.
    """
    try:
        yield
    except BrokenPipeError:
        _drop_stdout()
        raise typer.Exit(EXIT_CLOSED_PIPE) from None
    except OSError as error:
        if error.errno == errno.EPIPE:  # pragma: no cover - raised as BrokenPipeError
            _drop_stdout()
            raise typer.Exit(EXIT_CLOSED_PIPE) from None
        _fail_write(error, path)


def emit(text: str = "") -> None:
    """Print ``text`` and a newline on standard output, every control character but the
    newline written as an escape (:func:`mineshafted.text.visible`): a name read from a file
    may hold an escape sequence that would clear the screen or paint a fake line.

    A write that fails ends the command (:func:`written`, applied to every command).
    """
    typer.echo(visible(text, keep="\n"))


def note(text: str) -> None:
    """Print ``text`` as a line on stderr (a note beside the output: progress, where files
    went, a summary), its control characters but the newline written as escapes."""
    typer.echo(visible(text, keep="\n"), err=True)


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
        :func:`~mineshafted.cli.status.exit_status` maps it to. Other exceptions pass through,
        and so does an ``OSError`` that names no file when there is no ``prefix`` (a failed
        write to standard output, which :func:`written` reports for every command).
    """
    try:
        yield
    except MineshaftedError as error:
        fail(f"{prefix}: {error}" if prefix else str(error), exit_status(error))
    except OSError as error:
        if isinstance(error, BrokenPipeError) or (error.filename is None and not prefix):
            raise  # a write to standard output: the command's output layer reports it
        where = error.filename if error.filename is not None else prefix
        fail(f"{where}: {error.strerror or error}", exit_status(error))


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
        f"{puzzle.board.mine_total} mines",
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
        "mines": puzzle.board.mine_total,
        "board": report.board,
        "moves": report.moves,
        "seconds": round(report.seconds, 6),
        "undetermined": [list(coords(c)) for c in report.undetermined],
        "frontier": [list(coords(c)) for c in report.frontier],
        "proven_by": dict(report.proven_by),
        "searches": report.searches,
    }


def _fail_write(error: OSError, path: object) -> NoReturn:
    """Say why a write failed, naming the file (or the output), and end the command."""
    why = error.strerror or str(error)
    if error.filename is not None:
        say(f"{error.filename}: {why}")
    elif path is not None:
        say(f"{path}: {why}")
    else:
        _drop_stdout()
        say(f"cannot write the output: {why[:1].lower()}{why[1:]}")
    raise typer.Exit(EXIT_INVALID)


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


_LONG_WORD = re.compile(rf"\S{{{LONGEST_WORD + 1},}}")
"""A word longer than :data:`LONGEST_WORD` characters."""
