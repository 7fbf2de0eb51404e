"""``mineshafted play``: classic games played to the end, one shown or many summarised."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..game import FirstMove
from .options import (
    check_cells,
    dask_option,
    force_option,
    jobs_option,
    record_option,
    whole_argument,
    within,
)
from .output import emit, fail, fail_on_error, note
from .status import exit_status, stopped
from .targets import check_record, check_results, save_record

if TYPE_CHECKING:
    from ..game import View
    from ..probability import Played
    from ..studies import BoardsStudy, Finished, Study, Summary, SummaryFold

__all__ = ["HELP", "command"]

HELP = (
    "Play classic Minesweeper (the mine total known, zeros open, a mine loses): the solver\n"
    "deduces what it can, with the total, and a policy guesses at each stall.\n\n"
    "Games are drawn (ROWS COLS MINES) or given (--boards FILE.jsonl: one board a line,\n"
    '{"rows": R, "cols": C, "mines": [[r, c], ...], "first": [r, c]} or a puzzle as solve\n'
    "reads it; game i is line i + 1, played exactly as given from its first reveal).\n\n"
    "One game prints each guess with its mine probability and the final board (F a mine the\n"
    "player knew, ? a cell it did not); more print the win rate with its 95% Wilson\n"
    "interval, guesses and time per game. Game i depends on --seed and i alone, so the wins\n"
    "are the same whatever --jobs or --dask. --out appends one JSON line per finished game;\n"
    "Ctrl-C or SIGTERM stops cleanly and the same command resumes. Exit status: 0 done; 2 bad\n"
    "arguments or a bad boards file (one line on stderr); 130 interrupted; 143 terminated."
)
"""The command's ``--help`` text."""


def command(
    rows: Annotated[int | None, whole_argument("ROWS", "Board rows (not with --boards).")] = None,
    cols: Annotated[
        int | None, whole_argument("COLS", "Board columns (not with --boards).")
    ] = None,
    mines: Annotated[
        int | None, whole_argument("MINES", "Number of mines (not with --boards).")
    ] = None,
    boards: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE.jsonl",
            help="Play the boards of this file, one a line, each once and exactly as given "
            "(instead of drawing ROWS COLS MINES).",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            metavar="N",
            callback=within(1),
            help="How many games: default 1, or every board of --boards (then the first N).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int,
        typer.Option(
            help="Base seed: game i is drawn, and guessed at random, from it and i alone."
        ),
    ] = 0,
    first: Annotated[
        FirstMove,
        typer.Option(
            help="First move: safe (the start cell), opening (a 0; with --boards, a first "
            "reveal that is not a 0 is refused) or none (the board as drawn or given: the first "
            "reveal may be a mine)."
        ),
    ] = FirstMove.SAFE,
    start: Annotated[
        str | None,
        typer.Option(
            metavar="corner|centre|R,C",
            help="The first cell revealed [default: corner] (with --boards, each board's own).",
            show_default=False,
        ),
    ] = None,
    policy: Annotated[
        str,
        typer.Option(
            metavar="POLICY",
            help="How to guess at a stall: best, safest or random. best takes +INGREDIENT and "
            "-INGREDIENT parts to switch one of its ingredients on or off (best+uncapped, "
            "best-endgame; see the players guide).",
        ),
    ] = "best",
    jobs: Annotated[int, jobs_option()] = 1,
    dask: Annotated[str | None, dask_option()] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Append one JSON line per finished game; an existing file of the same study "
            "is resumed (its games are skipped).",
        ),
    ] = None,
    record: Annotated[
        Path | None, record_option("game", "each guess with every unknown cell's odds")
    ] = None,
    force: Annotated[bool, force_option("--record file")] = False,
    json_output: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print one JSON object: rows, cols, mines, first, start, policy, games, wins, "
            "win_rate, ci95, guesses_per_game, seconds_per_game, seed, ... (and boards, "
            "sha256 with --boards).",
        ),
    ] = False,
) -> None:
    """Check the arguments, play the games and print them."""
    study: Study | BoardsStudy
    if boards is None:
        study = _drawn(
            rows, cols, mines, games=games, seed=seed, first=first, start=start, policy=policy
        )
    else:
        size = (rows, cols, mines)
        study = _given(
            boards, size, games=games, seed=seed, first=first, start=start, policy=policy
        )
    with fail_on_error():
        study.check()
    inputs = [boards] if boards is not None else []
    check_record(record, study.count, "game", force=force, inputs=inputs)
    if out is not None:
        check_results(out)
    if study.count == 1 and not json_output and out is None and dask is None:
        _one(study, record, force=force, inputs=inputs)
        return
    if record is not None:
        fail("--record prints the game itself: leave out --json, --out and --dask")
    from ..studies import SummaryFold

    fold = SummaryFold()
    finished = _many(study, fold, jobs=jobs, dask=dask, out=out, show_progress=not json_output)
    summary = fold.summary()
    if json_output:
        emit(json.dumps(_summary_json(study, finished, summary, jobs, dask)))
    else:
        emit(_heading(study))
        emit(summary.text())
    if finished.interrupted:
        word, status = stopped(finished)
        note(
            f"{word}: {summary.games} of {study.count} game(s) done"
            + ("; run the same command to resume" if out is not None else "")
        )
        raise typer.Exit(status)


def _drawn(
    rows: int | None,
    cols: int | None,
    mines: int | None,
    *,
    games: int | None,
    seed: int,
    first: FirstMove,
    start: str | None,
    policy: str,
) -> Study:
    """The study of drawn games the arguments ask for."""
    from ..studies import Study
    from ..studies.classic import check_policy

    if rows is None or cols is None or mines is None:
        fail("give ROWS COLS MINES to draw the boards, or --boards FILE.jsonl to play given ones")
    check_cells(rows, cols)
    with fail_on_error():
        policy = check_policy(policy)
    return Study(
        rows,
        cols,
        mines,
        games=1 if games is None else games,
        seed=seed,
        first=first,
        start="corner" if start is None else start,
        policy=policy,
    )


def _given(
    boards: Path,
    size: tuple[int | None, int | None, int | None],
    *,
    games: int | None,
    seed: int,
    first: FirstMove,
    start: str | None,
    policy: str,
) -> BoardsStudy:
    """The study of the boards file the arguments name, every line checked."""
    from ..studies import boards_study
    from ..studies.classic import check_policy

    if any(value is not None for value in size):
        fail("--boards gives the boards: leave out ROWS COLS MINES")
    if start is not None:
        fail('--boards gives each first reveal ("first" or "start" on its line): leave out --start')
    with fail_on_error():
        policy = check_policy(policy)
        return boards_study(boards, first=first, policy=policy, seed=seed, games=games)


def _one(
    study: Study | BoardsStudy, record: Path | None, *, force: bool, inputs: list[Path]
) -> None:
    """Play game 0 of ``study``, print each guess and the final board, keep its record."""
    played = study.game(0, record_odds=record is not None, flag=True)
    if record is not None:
        save_record(played.record, record, force=force, inputs=inputs)
    emit(_heading(study, played))
    for line in _guess_lines(played, len(played.view.grid[0])):
        emit(line)
    emit(_known(played.view).render())
    outcome = "won" if played.won else "lost"
    emit(
        f"{outcome} after {len(played.guesses)} guess(es) in {played.seconds * 1000:.1f} ms "
        f"(game seed {played.seed})"
    )


def _known(view: View) -> View:
    """The final board with every mine the player knew flagged: those proven, and, once the
    game is won, every cell still hidden (all of them mines)."""
    from dataclasses import replace

    from ..game import GameStatus

    if view.status is not GameStatus.WON:
        return view
    cols = len(view.grid[0])
    hidden = {
        r * cols + c
        for r, row in enumerate(view.grid)
        for c, value in enumerate(row)
        if value is None
    }
    return replace(view, flags=view.flags | hidden)


def _guess_lines(played: Played, cols: int) -> list[str]:
    """One line per guess: where, its chance of a mine, what it turned out to be."""
    return [
        f"guess {number}: ({guess.cell // cols}, {guess.cell % cols}) at "
        f"{float(guess.probability or 0):.1%} mine: {'a mine' if guess.hit else 'safe'}"
        for number, guess in enumerate(played.guesses, start=1)
    ]


def _many(
    study: Study | BoardsStudy,
    fold: SummaryFold,
    *,
    jobs: int,
    dask: str | None,
    out: Path | None,
    show_progress: bool,
) -> Finished:
    """Run the study, each game counted in ``fold`` (in bounded memory, whatever the number
    of games), with a progress bar on stderr when it is a terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from ..studies import SchedulerError, run_study

    def run(on_game: Callable[[Any, int], None] | None = None) -> Finished:
        with fail_on_error():
            try:
                return run_study(
                    study, fold=fold.add, jobs=jobs, dask=dask, out=out, on_game=on_game
                )
            except SchedulerError as error:
                fail(f"--dask: {error}", exit_status(error))

    console = Console(stderr=True)
    if not (show_progress and console.is_terminal):
        return run()
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("playing", total=study.count)

        def advance(_line: object, done: int) -> None:
            progress.update(task, completed=done)

        return run(advance)


def _heading(study: Study | BoardsStudy, played: Played | None = None) -> str:
    """The study in one line (with ``played``, the one game shown)."""
    from ..studies import Study

    rest = f"policy {study.policy}, seed {study.seed}"
    if isinstance(study, Study):
        return (
            f"{study.rows}x{study.cols}/{study.mines}, first move {study.first.value} at "
            f"{study.start}, {rest}"
        )
    if played is not None:
        header = played.record.header
        row, col = divmod(_first_reveal(played), header.cols)
        return (
            f"{study.path}, line 1: {header.rows}x{header.cols}/{header.mines}, first move "
            f"{study.first.value} at {row},{col}, {rest}"
        )
    boards = "mixed sizes" if study.size is None else "{}x{}/{} each".format(*study.size)
    return (
        f"{study.count} board(s) of {study.path} ({boards}), first move {study.first.value}, {rest}"
    )


def _first_reveal(played: Played) -> int:
    """The cell of the game's first reveal."""
    from ..game import Reveal

    return next(e.cell for e in played.record.events if isinstance(e, Reveal))


def _summary_json(
    study: Study | BoardsStudy,
    finished: Finished,
    summary: Summary,
    jobs: int,
    dask: str | None,
) -> dict[str, Any]:
    """The summary for programs."""
    from ..studies import Study

    low, high = summary.ci95
    given: dict[str, Any] = {}
    if isinstance(study, Study):
        size: tuple[int | None, ...] = (study.rows, study.cols, study.mines)
        start: str | None = study.start
    else:
        size, start = study.size or (None, None, None), None
        given = {"boards": str(study.path), "sha256": study.sha256}
    return {
        "rows": size[0],
        "cols": size[1],
        "mines": size[2],
        "first": study.first.value,
        "start": start,
        "policy": study.policy,
        "seed": study.seed,
        "games": summary.games,
        "wins": summary.wins,
        "win_rate": summary.win_rate,
        "ci95": [low, high],
        "guesses_per_game": summary.guesses_per_game,
        "seconds_per_game": summary.seconds_per_game,
        "requested": study.count,
        "resumed": finished.resumed,
        "interrupted": finished.interrupted,
        "jobs": jobs,
        "dask": dask,
        **given,
    }
