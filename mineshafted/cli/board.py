"""``mineshafted board``: a board where each square is a mine by chance, as a puzzle file."""

from __future__ import annotations

from typing import Annotated

import typer

from .options import check_cells, parse_number, whole_argument, within
from .output import emit, fail, fail_on_error

__all__ = ["HELP", "command"]

HELP = (
    "Print a HEIGHT x WIDTH board in which each square is a mine with chance MINE_PCT %, in "
    "the puzzle format, to save and pass to 'rules eval' or 'solve'.\n\n"
    "Exit status: 0 printed; 2 invalid request."
)
"""The command's ``--help`` text."""


def command(
    height: Annotated[int, whole_argument("HEIGHT", "Board rows.", least=1)],
    width: Annotated[int, whole_argument("WIDTH", "Board columns.", least=1)],
    mine_pct: Annotated[
        float,
        typer.Argument(
            metavar="MINE_PCT",
            parser=parse_number,
            callback=within(0, 100),
            help="Percent chance of a mine, 0-100.",
            show_default=False,
        ),
    ],
    seed: Annotated[
        int | None, typer.Option(help="Seed: the same seed gives the same board.")
    ] = None,
) -> None:
    """Draw the board and print it as a puzzle."""
    import random

    from ..formats import Puzzle, format_puzzle
    from ..rules import chance_board

    check_cells(height, width)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    with fail_on_error():
        board = chance_board(height, width, mine_pct, seed=seed)
        safe = [cell for cell in range(board.geometry.cells) if cell not in board.mines]
        if not safe:
            fail("every square is a mine: a puzzle needs a safe square to start from")
    name = f"{height}x{width}-{mine_pct:g}pct-seed{seed}"
    # The start (the first safe square) is for `solve`; the rules' first move is a free guess.
    emit(format_puzzle(Puzzle(board, name=name, start=safe[0], extra={"seed": seed})))
