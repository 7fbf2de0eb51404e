"""``mineshafted probabilities``: each unknown cell's exact chance of a mine, from a file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .output import fail, fail_on_error

if TYPE_CHECKING:
    from rich.text import Text

    from ..board import PartialGrid
    from ..probability import Odds

__all__ = ["HELP", "MEMORY", "command"]

HELP = (
    "Print the exact probability that each unknown cell of POSITION holds a mine.\n\n"
    'POSITION is a JSON file {"board": [[0, 1, null, ...], ...], "mines": 10}: an int 0-8 is '
    "a revealed clue, -1 a known mine, null an unknown cell; mines is the board's mine total. "
    "Every placement of the remaining mines that agrees with the clues and the total counts "
    "once.\n\n"
    "Counting is exponential in the width of the clues' frontier: --time-limit bounds its "
    "time and --memory the tables it builds.\n\n"
    "Exit status: 0 printed; 2 a malformed file, a position no placement fits, or a count "
    "past --time-limit or --memory (one line on stderr says why)."
)
"""The command's ``--help`` text."""

MEMORY = 512.0
"""``--memory``'s default: :data:`mineshafted.solver.count.MEMORY`, written here so that
``--help`` does not import the solver."""


def command(
    position: Annotated[
        Path,
        typer.Argument(
            metavar="POSITION",
            help='Position file: {"board": [[clue, -1 or null, ...], ...], "mines": N}.',
            show_default=False,
        ),
    ],
    json_output: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print one JSON object: probabilities (a grid of floats, null for clues), "
            "mines_left, placements.",
        ),
    ] = False,
    time_limit: Annotated[
        float,
        typer.Option("--time-limit", min=0.0, help="Seconds the counting may take."),
    ] = 15.0,
    memory: Annotated[
        float,
        typer.Option(
            "--memory",
            min=1.0,
            metavar="MIB",
            help="MiB of tables the counting may build, as estimated (the estimate runs "
            "high: about twice the memory used, on wide frontiers).",
        ),
    ] = MEMORY,
) -> None:
    """Read ``position``, count its placements and print the odds."""
    from ..formats import read_text
    from ..probability import odds_json, parse_position, view_odds
    from ..probability.view import count_text
    from ..solver.count import CountTooLargeError, memory_budget

    name = str(position)
    with fail_on_error():  # the file's errors name the file
        read = parse_position(read_text(position), source=name)
    with fail_on_error(name), _within(time_limit, name), memory_budget(memory):
        try:
            result = view_odds(read.board, read.mines)
        except CountTooLargeError as error:
            fail(
                f"{name}: counting the placements would take more than {error.memory:g} MiB "
                f"(--memory): the clues' frontier ({error.cells} unknown cells) is too wide to "
                "count exactly; give a position with fewer unknown cells beside its clues, or "
                "a larger --memory"
            )
    if json_output:
        typer.echo(json.dumps(odds_json(read.board, result)))
        return
    from rich.console import Console

    console = Console(highlight=False)
    console.print(_grid(read.board, result))
    safest = result.safest()
    if safest:
        cols = len(read.board[0])
        where = ", ".join(f"({c // cols}, {c % cols})" for c in safest[:8])
        more = f" and {len(safest) - 8} more" if len(safest) > 8 else ""
        chance = float(result.probability(safest[0]))
        console.print(f"safest: {where}{more} at {chance:.1%} mine")
    console.print(f"mines left: {result.mines_left}; placements: {count_text(result.placements)}")


class _OutOfTime(Exception):
    """The counting ran past ``--time-limit``."""


_AGAIN = 0.1
"""Seconds between the time limit's signals once it has passed (see :func:`_within`)."""


@contextmanager
def _within(seconds: float, name: str) -> Iterator[None]:
    """Run the block under a time limit: past it, one line and exit status 2.

    An interval timer raises :class:`_OutOfTime` in the block (the counting is pure Python,
    so the signal is seen between two bytecodes); where there is no ``SIGALRM`` or this is
    not the main thread, the block runs unbounded.
    """
    import signal
    import threading

    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def alarm(_signum: int, _frame: object) -> None:
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, alarm)
    # The timer repeats: an exception raised where Python swallows it (a finaliser, a weakref
    # callback, garbage collection) would otherwise leave the counting unbounded.
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-3), _AGAIN)
    try:
        yield
    except _OutOfTime:
        signal.setitimer(signal.ITIMER_REAL, 0)
        fail(
            f"{name}: counting the placements did not finish within {seconds:g} s "
            "(--time-limit): the clues' frontier is too wide to count exactly"
        )
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _grid(grid: PartialGrid, result: Odds) -> Text:
    """The board with each unknown cell's probability in percent, safest highlighted.

    Clues show as digits (``.`` for 0), known mines as ``*``; an unknown cell shows its chance
    of a mine in whole percent, green for the safest, red for certain mines.
    """
    from rich.text import Text

    floats = result.floats()
    least = min(floats.values(), default=None)
    cols = len(grid[0])
    text = Text()
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if c:
                text.append(" ")
            if value is None:
                chance = floats[r * cols + c]
                style = "bold green" if chance == least else "red" if chance == 1 else ""
                text.append(f"{round(chance * 100):>3}", style=style)
            else:
                text.append(f"{'*' if value < 0 else '.' if value == 0 else value:>3}")
        if r < len(grid) - 1:
            text.append("\n")
    return text
