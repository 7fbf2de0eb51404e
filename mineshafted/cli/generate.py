"""``mineshafted generate``: make no-guess boards, as JSON Lines or one puzzle file each."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .options import MAX_COUNT, force_option, parse_cell, whole_argument, within
from .output import emit, fail, fail_on_error, note
from .targets import check_folder, check_target, replacing

if TYPE_CHECKING:
    from ..solver.technique import Technique

__all__ = ["HELP", "command"]

HELP = (
    "Make no-guess boards: a solver finishes each from the start cell without a guess (by\n"
    "default the package's complete solver, which does not know the mine total).\n\n"
    "Techniques, weakest first: count, subset, ac3, complete (the default) and total\n"
    "(complete, knowing the mine total). --technique T makes boards T solves, and\n"
    "--needs T boards T solves and no weaker technique does; both perturb a random layout\n"
    "where T stalls. --uniform instead draws layouts uniformly and keeps the first T solves:\n"
    "exactly uniform over those boards, with the acceptance rate on stderr.\n\n"
    'Output: JSON Lines, one puzzle object per line ({"board": ..., "seed": ..., ...}), or with\n'
    "--out one file per board named ROWSxCOLS-MINES-NNN.json. Every board records its seed,\n"
    'its rating ("technique": the weakest technique that solves it) and the request\n'
    '("certified": T, and "needs" or "uniform" when given): generate ROWS COLS MINES --seed\n'
    "<recorded> with the same options makes that board again (the first board of a batch uses\n"
    "--seed itself).\n\n"
    "Exit status: 0 done; 2 invalid request, or no board within --timeout or --max-draws;\n"
    "141 the reader closed the output early (a pipe into head), nothing printed."
)
"""The command's ``--help`` text."""


def command(
    rows: Annotated[int, whole_argument("ROWS", "Board rows.", least=1)],
    cols: Annotated[int, whole_argument("COLS", "Board columns.", least=1)],
    mines: Annotated[int, whole_argument("MINES", "Number of mines.", least=0)],
    count: Annotated[
        int,
        typer.Option(
            "--count", "-n", metavar="N", callback=within(1, MAX_COUNT), help="How many boards."
        ),
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
            help="Write one puzzle file per board into this directory (created if needed) "
            "instead of JSON Lines on stdout.",
        ),
    ] = None,
    force: Annotated[bool, force_option("puzzle file in --out")] = False,
    timeout: Annotated[
        float,
        typer.Option(min=0.001, help="Seconds allowed per board before giving up."),
    ] = 60.0,
    technique: Annotated[
        str | None,
        typer.Option(
            "--technique",
            metavar="T",
            help="The technique that must solve every board: count, subset, ac3, complete (the "
            "default) or total (knows the mine total). guess is refused: these are no-guess "
            "boards.",
        ),
    ] = None,
    needs: Annotated[
        str | None,
        typer.Option(
            "--needs",
            metavar="T",
            help="Every board is rated exactly T: T solves it and no weaker technique does "
            "(--needs ac3: boards a subset-only solver cannot finish). Rare ratings take many "
            "sweeps: complete on sparse boards about one board a second.",
        ),
    ] = None,
    uniform: Annotated[
        bool,
        typer.Option(
            "--uniform",
            help="Draw layouts uniformly (the start area clear) and keep the first the technique "
            "solves (rated exactly T, with --needs), instead of perturbing: uniform over those "
            "boards. The acceptance rate goes to stderr; where accepted draws are too rare, the "
            "request ends at --timeout or --max-draws with a message.",
        ),
    ] = False,
    max_draws: Annotated[
        int | None,
        typer.Option(
            "--max-draws",
            min=1,
            help="Give up a board after this many random layouts. Default: no limit but --timeout.",
        ),
    ] = None,
) -> None:
    """Generate ``count`` boards and write them to stdout or into ``out``."""
    from ..formats import dump_puzzle, format_puzzle
    from ..generate import generate_many

    certified, exact = _parse_techniques(technique, needs)

    row, col = parse_cell(start)
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
            technique=certified,
            needs=exact,
            uniform=uniform,
            max_draws=max_draws,
        )
        targets: list[Path] = []
        if out is not None:
            check_folder(out)
            targets = [out / f"{rows}x{cols}-{mines}-{n:03d}.json" for n in range(1, count + 1)]
            for target in targets:
                check_target(target, force=force)
            out.mkdir(parents=True, exist_ok=True)
        draws = 0
        show = count > 1 and sys.stderr.isatty()
        with typer.progressbar(
            made, length=count, label="generating", file=sys.stderr, hidden=not show
        ) as boards:
            for number, board in enumerate(boards, 1):
                name = f"{rows}x{cols}-{mines}-{number:03d}"
                puzzle = board.to_puzzle(name)
                draws += board.draws
                if out is None:
                    emit(dump_puzzle(puzzle))
                else:
                    with replacing(targets[number - 1], force=force) as beside:
                        beside.write_text(format_puzzle(puzzle) + "\n", encoding="utf-8")
    if uniform:
        note(
            f"uniform: {count} board(s) from {draws:,} draw(s): acceptance "
            f"{count / draws:.2%} (1 in {draws / count:.3g})"
        )
    if out is not None:
        note(f"wrote {count} puzzle file(s) to {out}")


def _parse_techniques(technique: str | None, needs: str | None) -> tuple[Technique, bool]:
    """The technique asked for by ``--technique`` and ``--needs``, and whether it is ``--needs``.

    Fails (exit 2, one line) on an unknown name, or on the two options naming different
    techniques.
    """
    from ..solver.technique import Technique

    parsed: dict[str, Technique] = {}
    for option, text in (("--technique", technique), ("--needs", needs)):
        if text is not None:
            try:
                parsed[option] = Technique.parse(text)
            except ValueError as error:
                fail(f"{option}: {error}")
    if len(set(parsed.values())) > 1:
        fail(
            f"--technique {parsed['--technique'].value} and --needs {parsed['--needs'].value} "
            "disagree: --needs T already means that T solves every board; give one of them"
        )
    return next(iter(parsed.values()), Technique.COMPLETE), "--needs" in parsed
