"""``mineshafted optimal``: the exact chance that best possible play wins a board or position."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..game import FirstMove
from .output import emit, fail, fail_on_error

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..probability.optimal import Budget, Optimum

__all__ = ["HELP", "MEMORY", "command"]

HELP = (
    "The exact chance that best possible play wins: of a fresh ROWS x COLS board with MINES\n"
    "mines, or from the player's view in POSITION.json. Rules as play: the mine total known,\n"
    "zeros open their neighbours, won when every safe cell is revealed.\n\n"
    "Prints the chance as a fraction (placements won of placements, all equally likely) and a\n"
    "percentage, the best first reveal(s) or move(s), the belief states searched, the time\n"
    "and the peak memory. The search is exact, remembers each belief state once (mirrored\n"
    "and rotated ones as one) and grows quickly with the board: 5x5 with 5 mines takes about\n"
    "two minutes and 0.1 GB.\n\n"
    "Exit status: 0 printed; 2 bad arguments, a malformed file, or a search past\n"
    "--max-placements, --memory, --max-states or --time-limit (one line on stderr says which)."
)
"""The command's ``--help`` text."""


MEMORY = 2048.0
"""``--memory``'s default, in MiB."""

_OPTIONS = {"states": "--max-states", "time": "--time-limit", "memory": "--memory"}
"""The option that sets each budget a search may stop at."""

_FIRST_WORDS = {
    "none": "first reveal unprotected",
    "safe": "first reveal safe",
    "opening": "first reveal an opening",
}


def command(
    arguments: Annotated[
        list[str],
        typer.Argument(
            metavar="ROWS COLS MINES | POSITION.json",
            help='A fresh board, or a position file {"board": [[clue, -1 or null, ...], ...], '
            '"mines": N} as probabilities reads it.',
            show_default=False,
        ),
    ],
    first: Annotated[
        FirstMove | None,
        typer.Option(
            help="What the first reveal promises: none (a mine there loses: the Code Golf "
            "rules), safe (never a mine) or opening (it and its neighbours are clear) "
            "[default: safe]. A fresh board only.",
            show_default=False,
        ),
    ] = None,
    start: Annotated[
        str | None,
        typer.Option(
            metavar="corner|centre|R,C",
            help="The first reveal [default: the best one is found]. A fresh board only.",
            show_default=False,
        ),
    ] = None,
    json_output: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print one JSON object: rows, cols, mines, first, start, wins, placements, "
            "percent, best, states, expanded, seconds, peak_mb (position with a file).",
        ),
    ] = False,
    max_placements: Annotated[
        int,
        typer.Option(
            "--max-placements", min=1, help="Refuse a board or position with more placements."
        ),
    ] = 200_000,
    max_states: Annotated[
        int,
        typer.Option(
            "--max-states",
            min=1,
            help="Stop past this many belief states (about 130 bytes each).",
        ),
    ] = 50_000_000,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit", min=0.0, help="Stop past this many seconds.", show_default=False
        ),
    ] = None,
    memory: Annotated[
        float,
        typer.Option(
            "--memory",
            min=1.0,
            metavar="MIB",
            help="MiB the table of placements and the belief states may take, as "
            "estimated: a table past it is refused before it is made, a search stops there.",
        ),
    ] = MEMORY,
) -> None:
    """Check the arguments, search, print the optimum."""
    from ..probability.optimal import Budget

    budget = Budget(states=max_states, seconds=time_limit, memory=memory)
    if len(arguments) == 1:
        if first is not None or start is not None:
            fail("a position is played from where it stands: leave out --first and --start")
        found, heading, where = _position(Path(arguments[0]), budget, max_placements)
        size = False
        report: dict[str, object] = {"position": arguments[0], "first": None, "start": None}
    elif len(arguments) == 3:
        rows, cols, mines = _size(arguments)
        rule = FirstMove.SAFE if first is None else first
        found, heading, where = _board(
            rows, cols, mines, rule=rule, start=start, budget=budget, limit=max_placements
        )
        size = True
        report = {"rows": rows, "cols": cols, "mines": mines, "first": rule.value}
        report["start"] = [found.moves[0] // cols, found.moves[0] % cols] if start else None
    else:
        fail(
            f"give ROWS COLS MINES or one POSITION.json, not {len(arguments)} argument(s) "
            "(see 'mineshafted optimal --help')"
        )
    peak = _peak_mb()
    if json_output:
        report.update(
            wins=found.wins,
            placements=found.placements,
            percent=float(found.chance * 100),
            best=[list(divmod(cell, where)) for cell in found.moves],
            states=found.states,
            expanded=found.expanded,
            seconds=round(found.seconds, 3),
            peak_mb=peak,
        )
        emit(json.dumps(report))
    else:
        what = "first reveal at" if start else "best first reveal" if size else "best move"
        for line in _text(found, heading, where, what, peak):
            emit(line)


def _size(arguments: list[str]) -> tuple[int, int, int]:
    """ROWS COLS MINES as ints, each checked."""
    from .options import check_cells

    values = []
    for name, text in zip(("ROWS", "COLS", "MINES"), arguments, strict=True):
        try:
            values.append(int(text))
        except ValueError:
            fail(f"{name} must be a whole number, not {text!r}")
    rows, cols, mines = values
    for name, value, least in (("ROWS", rows, 1), ("COLS", cols, 1), ("MINES", mines, 0)):
        if value < least:
            fail(f"{name} must be at least {least}, not {value}")
    check_cells(rows, cols)
    return rows, cols, mines


def _board(
    rows: int,
    cols: int,
    mines: int,
    *,
    rule: FirstMove,
    start: str | None,
    budget: Budget,
    limit: int,
) -> tuple[Optimum, str, int]:
    """Best play on the fresh board; its heading line and the board's width."""
    from ..probability import start_cell
    from ..probability.optimal import OptimalPlay

    with fail_on_error():
        cell = None if start is None else start_cell(start, rows, cols)
    size = f"{rows}x{cols} with {mines} mine{'s' * (mines != 1)}"
    first = rule

    def search() -> Optimum:
        play = OptimalPlay(rows, cols, mines, budget=budget, limit=limit)
        return play.best(first) if cell is None else play.at(first, cell)

    return _searched(size, search), f"{size}, {_FIRST_WORDS[rule.value]}", cols


def _position(path: Path, budget: Budget, limit: int) -> tuple[Optimum, str, int]:
    """Best play from the position in ``path``; its heading line and the board's width."""
    from ..formats import read_text
    from ..probability import parse_position
    from ..probability.optimal import position_optimum

    with fail_on_error():
        read = parse_position(read_text(path), source=str(path))
    found = _searched(
        str(path), lambda: position_optimum(read.board, read.mines, budget=budget, limit=limit)
    )
    rows, cols = len(read.board), len(read.board[0])
    return found, f"{path} ({rows}x{cols}, {read.mines} mines)", cols


def _searched(label: str, search: Callable[[], Optimum]) -> Optimum:
    """``search()``, its errors one line each: a budget named by its option."""
    from ..probability.errors import OutOfBudget
    from ..probability.optimal import TooManyPlacements

    with fail_on_error(label):
        try:
            return search()
        except OutOfBudget as error:
            fail(
                f"{label}: the search stopped: {error} ({_OPTIONS[error.limit]}), after "
                f"{error.seconds:.1f} s and {error.states:,} belief states"
            )
        except TooManyPlacements as error:
            option = "--memory" if error.limit == "memory" else "--max-placements"
            fail(f"{label}: {error} ({option})")


def _text(found: Optimum, heading: str, cols: int, what: str, peak: float | None) -> list[str]:
    """The optimum for people; ``what`` names its moves (``first reveal at``, ``best move``)."""
    percent = float(found.chance * 100)
    cells = ", ".join(f"({c // cols},{c % cols})" for c in found.moves)
    if not found.moves:
        where = "nothing left to reveal: won"
    elif what.startswith("best"):
        where = f"{what}{'s' * (len(found.moves) > 1)}: {cells}"
    else:
        where = f"{what} {cells}"
    memory = f"; peak memory {peak:,.0f} MB" if peak is not None else ""
    return [
        f"{heading}: best play wins {found.wins:,} of {found.placements:,} placements = "
        f"{found.wins}/{found.placements} = {percent:.4f}%",
        where,
        f"searched {found.states:,} belief states ({found.expanded:,} expanded) in "
        f"{found.seconds:.1f} s{memory}",
    ]


def _peak_mb() -> float | None:
    """The process's peak resident memory in MB, where the platform tells it."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
