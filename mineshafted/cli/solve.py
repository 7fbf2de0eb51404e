"""``mineshafted solve``: sweep puzzle files and print each board, solved or not."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from time import perf_counter
from typing import TYPE_CHECKING, Annotated

import typer

from .options import force_option, record_option
from .output import emit, fail_on_error, label, note, sweep_json, sweep_text
from .status import EXIT_NEEDS_GUESS, EXIT_SOLVED
from .targets import check_record, save_record

if TYPE_CHECKING:
    from ..formats import Puzzle
    from ..solver import ComponentSearch

__all__ = ["HELP", "SearchChoice", "command"]

HELP = (
    "Play PUZZLE through a BoardManager with sweep_mines and print the solved board.\n\n"
    "The grid shows clues as digits, 0 as '.', mines as '*' and undetermined cells as '?'.\n\n"
    "Exit status: 0 solved; 1 needs a guess (prints the partial board and the undetermined "
    "cells); 2 invalid input (one line on stderr names the problem); 141 the reader closed "
    "the output early (a pipe into head), nothing printed."
)
"""The command's ``--help`` text (the exit-status sentence is one paragraph)."""


class SearchChoice(StrEnum):
    """The component searches (``ComponentSearch`` engines) selectable with ``--search``."""

    backtracking = "backtracking"
    python_constraint = "python-constraint"

    def build(self) -> ComponentSearch:
        """A new instance of the chosen search.

        Examples
        --------
        >>> type(SearchChoice("python-constraint").build()).__name__
        'ConstraintSearch'
        """
        from ..solver import BacktrackingSearch, ConstraintSearch

        if self is SearchChoice.python_constraint:
            return ConstraintSearch()
        return BacktrackingSearch()


def command(
    ctx: typer.Context,
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
    search: Annotated[
        SearchChoice,
        typer.Option(help="The component-search engine used when AC-3 stalls."),
    ] = SearchChoice.backtracking,
    with_total: Annotated[
        bool,
        typer.Option(
            "--with-total",
            help="Tell the solver the board's mine total: cells safe, or mined, in every "
            "placement of the remaining mines are decided too.",
        ),
    ] = False,
    record: Annotated[
        Path | None, record_option("puzzle", "each reveal with the stage that proved it")
    ] = None,
    force: Annotated[bool, force_option("--record file")] = False,
    engine: Annotated[
        SearchChoice | None,
        typer.Option(
            hidden=True,
            show_default=False,
            help="The old name of --search, kept so old command lines still run.",
        ),
    ] = None,
) -> None:
    """Sweep every puzzle of ``puzzle`` and exit with the worst status among them."""
    from ..formats import read_puzzles
    from ..game import BoardManager
    from ..solver import Sweep

    chosen = _chosen(ctx, search, engine)
    with fail_on_error():  # a regular file, or standard input, read to a cap
        puzzles = read_puzzles(puzzle)
    check_record(record, len(puzzles), "puzzle", force=force, inputs=[puzzle])
    worst = EXIT_SOLVED
    for number, item in enumerate(puzzles):
        with fail_on_error(label(item, number)):
            mines = item.board.mine_total if with_total else None
            sweep = Sweep(
                BoardManager(item.board), search=chosen.build(), start=item.start, mines=mines
            )
            report = sweep.run()
        if json_output:
            emit(json.dumps(sweep_json(item, report)))
        else:
            if number:
                emit()
            emit(sweep_text(item, number, report))
        worst = max(worst, EXIT_SOLVED if report.solved else EXIT_NEEDS_GUESS)
    if record is not None:
        _write_record(puzzles[0], chosen, record, with_total=with_total, force=force, source=puzzle)
    raise typer.Exit(worst)


def _write_record(
    item: Puzzle, chosen: SearchChoice, path: Path, *, with_total: bool, force: bool, source: str
) -> None:
    """Solve ``item`` again through a recording game and write the record to ``path`` (the
    puzzle file ``source`` never replaced)."""
    from ..solver.recording import record_solve

    mines = item.board.mine_total if with_total else None
    began = perf_counter()
    with fail_on_error(str(path)):
        solved = record_solve(item.board, start=item.start, search=chosen.build(), mines=mines)
    save_record(solved, path, force=force, inputs=[source])
    # The time printed above is the sweep's alone; say what recording took besides.
    note(f"wrote {path}: the solve played again and recorded in {_ms(perf_counter() - began)}")


def _ms(seconds: float) -> str:
    """A duration as the solve line writes it."""
    return f"{seconds * 1000:.1f} ms"


def _chosen(ctx: typer.Context, search: SearchChoice, engine: SearchChoice | None) -> SearchChoice:
    """The search asked for by ``--search``, or by its old name ``--engine``.

    Raises
    ------
    typer.BadParameter
        If both are given and name different searches.
    """
    if engine is None:
        return search
    source = ctx.get_parameter_source("search")
    given = source is not None and source.name != "DEFAULT"
    if given and search is not engine:
        raise typer.BadParameter(
            f"{engine.value!r} contradicts --search {search.value!r}; give --search alone",
            param_hint="'--engine'",
        )
    return engine
