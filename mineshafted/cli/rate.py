"""``mineshafted rate``: the weakest technique that solves each board of some puzzle files."""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Annotated

import typer

from .options import parse_cell
from .output import emit, fail, fail_on_error, note

if TYPE_CHECKING:
    from ..formats import Puzzle
    from ..rating import Rating

__all__ = ["HELP", "command"]

HELP = (
    "Rate each board by the weakest technique that solves it from its start cell, weakest\n"
    "first: count (one clue alone), subset (differences of constraints), ac3 (AC-3 over the\n"
    "clue domains: the Mine Shafted assignment's method), complete (all clues together),\n"
    "total (with the mine total), guess (none of them solves it).\n\n"
    "Output: one line per board with its rating and the cells each technique decided; with\n"
    "--json one object per board. Several boards: a tally of the ratings on stderr.\n\n"
    "Exit status: 0 every board rated; 2 invalid input (one line on stderr names the problem);\n"
    "141 the reader closed the output early (a pipe into head)."
)
"""The command's ``--help`` text."""


def command(
    puzzles: Annotated[
        list[str],
        typer.Argument(
            metavar="PUZZLE",
            help='Puzzle files: a JSON object with a "board", a bare 2D list, or JSON Lines of '
            "puzzles. '-' reads standard input.",
            show_default=False,
        ),
    ],
    start: Annotated[
        str | None,
        typer.Option(
            metavar="R,C",
            help="First move (row,column) for every board, instead of each puzzle's own "
            '"start" (default [0, 0]).',
            show_default=False,
        ),
    ] = None,
    json_output: Annotated[
        bool,
        typer.Option(
            "--json",
            help="One JSON object per board: name, file, rows, cols, mines, start, technique, "
            "decided (cells per technique), unknown (cells none decided), moves, seconds.",
        ),
    ] = False,
) -> None:
    """Rate every board of every file in ``puzzles``, in order."""
    from ..formats import read_puzzles
    from ..rating import rate

    cell = parse_cell(start) if start is not None else None
    tally: Counter[str] = Counter()
    for path in puzzles:
        with fail_on_error():
            items = read_puzzles(path)
        for number, item in enumerate(items):
            where = _where(path, item, number, len(items))
            first = _start(item, cell, where)
            with fail_on_error(where):
                rating = rate(item.board, start=first)
            tally[rating.technique.value] += 1
            if json_output:
                emit(json.dumps(_as_json(path, item, first, rating)))
            else:
                emit(_as_text(where, item, rating))
    if sum(tally.values()) > 1:
        from ..solver.technique import Technique

        parts = [f"{t.value} {tally[t.value]}" for t in Technique if tally[t.value]]
        note(f"rated {sum(tally.values())} boards: {', '.join(parts)}")


def _where(path: str, item: Puzzle, number: int, count: int) -> str:
    """How a board is named in output: its name, else the file (and line, for several)."""
    if item.name:
        return item.name
    source = "<stdin>" if path == "-" else path
    return f"{source}:{number + 1}" if count > 1 else source


def _start(item: Puzzle, cell: tuple[int, int] | None, where: str) -> int:
    """The start cell's index: ``--start`` if given (checked against this board), else the
    puzzle's own."""
    if cell is None:
        return item.start
    geometry = item.board.geometry
    row, col = cell
    if not geometry.contains(row, col):
        fail(f"{where}: --start [{row}, {col}] is off the {geometry.rows}x{geometry.cols} board")
    index = geometry.index(row, col)
    if index in item.board.mines:
        fail(f"{where}: --start [{row}, {col}] is a mine")
    return index


def _as_text(where: str, item: Puzzle, rating: Rating) -> str:
    """One line: name, size, rating, and the cells each technique decided."""
    geometry = item.board.geometry
    decided = ", ".join(f"{t.value} {n}" for t, n in rating.decided.items() if n)
    left = f"; {rating.unknown} unknown" if rating.unknown else ""
    size = f"{geometry.rows}x{geometry.cols}, {item.board.mine_total} mines"
    return f"{where}: {rating.technique.value} ({size}; decided: {decided}{left})"


def _as_json(path: str, item: Puzzle, start: int, rating: Rating) -> dict[str, object]:
    """The JSON object of one rated board."""
    geometry = item.board.geometry
    return {
        "name": item.name,
        "file": path,
        "rows": geometry.rows,
        "cols": geometry.cols,
        "mines": item.board.mine_total,
        "start": list(geometry.coords(start)),
        **rating.to_json(),
    }
