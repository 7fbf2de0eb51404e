"""``mineshafted generate``: make no-guess boards, as JSON Lines or one puzzle file each."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .options import at_least
from .output import emit, fail, fail_on_error, finish_output

__all__ = ["HELP", "command"]

HELP = (
    "Make no-guess boards: the solver finishes each from the start cell without a guess\n"
    "and without knowing the mine total.\n\n"
    'Output: JSON Lines, one puzzle object per line ({"board": ..., "seed": ..., ...}), or with\n'
    "--out one file per board named ROWSxCOLS-MINES-NNN.json. Every board records its seed:\n"
    "generate ROWS COLS MINES --seed <recorded> makes that board again (the first board of a\n"
    "batch uses --seed itself).\n\n"
    "Exit status: 0 done; 2 invalid request or no board within --timeout; 141 the reader\n"
    "closed the output early (a pipe into head), nothing printed."
)
"""The command's ``--help`` text."""


def command(
    rows: Annotated[int, typer.Argument(metavar="ROWS", help="Board rows.", show_default=False)],
    cols: Annotated[int, typer.Argument(metavar="COLS", help="Board columns.", show_default=False)],
    mines: Annotated[
        int, typer.Argument(metavar="MINES", help="Number of mines.", show_default=False)
    ],
    count: Annotated[
        int, typer.Option("--count", "-n", min=1, max=1_000_000, help="How many boards.")
    ] = 1,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed (any integer): the same seed gives the same boards, and the first board "
            "is the one whose recorded seed is this. Default: a random one."
        ),
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
    """Generate ``count`` boards and write them to stdout or into ``out``."""
    from ..formats import dump_puzzle, format_puzzle
    from ..generate import generate_many

    at_least(ROWS=(rows, 1), COLS=(cols, 1), MINES=(mines, 0))

    row, col = _parse_start(start)
    if not (0 <= row < rows and 0 <= col < cols):
        fail(f"start [{row}, {col}] is off the {rows}x{cols} board")
    with fail_on_error():
        made = generate_many(
            rows,
            cols,
            mines,
            count,
            seed=seed,
            start=row * cols + col,
            timeout=timeout,
            seed_first=True,
        )
        targets: list[Path] = []
        if out is not None:
            targets = [out / f"{rows}x{cols}-{mines}-{n:03d}.json" for n in range(1, count + 1)]
            clash = [t for t in targets if t.exists()]
            if clash and not force:
                fail(f"{clash[0]}: already exists (use --force to overwrite)")
            out.mkdir(parents=True, exist_ok=True)
        show = count > 1 and sys.stderr.isatty()
        with typer.progressbar(
            made, length=count, label="generating", file=sys.stderr, hidden=not show
        ) as boards:
            for number, board in enumerate(boards, 1):
                name = f"{rows}x{cols}-{mines}-{number:03d}"
                puzzle = board.to_puzzle(name)
                if out is None:
                    emit(dump_puzzle(puzzle))
                else:
                    targets[number - 1].write_text(format_puzzle(puzzle) + "\n")
    finish_output()
    if out is not None:
        typer.echo(f"wrote {count} puzzle file(s) to {out}", err=True)


def _parse_start(text: str) -> tuple[int, int]:
    """``ROW,COL`` as a pair of ints.

    Raises
    ------
    typer.BadParameter
        If ``text`` is not two integers separated by a comma.
    """
    try:
        row, col = (int(part) for part in text.split(","))
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not ROW,COL (e.g. 0,0)") from None
    return row, col
