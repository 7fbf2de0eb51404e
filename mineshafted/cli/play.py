"""``mineshafted play``: classic games played to the end, one shown or many summarised."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .options import check_cells, check_jobs, record_option
from .output import check_record, fail, fail_on_error, save_record
from .status import EXIT_INTERRUPTED

if TYPE_CHECKING:
    from ..probability import Played
    from ..studies import Finished, GameLine, Study, Summary

__all__ = ["HELP", "First", "Policy", "command"]

HELP = (
    "Play classic Minesweeper (the mine total known, zeros open, a mine loses): the solver\n"
    "deduces what it can, with the total, and a policy guesses at each stall.\n\n"
    "One game prints each guess with its mine probability and the final board; more print\n"
    "the win rate with its 95% Wilson interval, guesses and time per game. Game i is drawn\n"
    "from --seed and i alone, so the wins are the same whatever --jobs or --dask. --out\n"
    "appends one JSON line per finished game; Ctrl-C stops cleanly and the same command\n"
    "resumes. Exit status: 0 done; 2 bad arguments (one line on stderr); 130 interrupted."
)
"""The command's ``--help`` text."""


class First(StrEnum):
    """The first moves classic play offers: ``mineshafted.game.FirstMove`` without ``none``
    (a test keeps the two in step; the library is not imported before the command runs)."""

    SAFE = "safe"
    OPENING = "opening"


class Policy(StrEnum):
    """The guessing policies, by name: ``mineshafted.probability.PolicyName`` (a test keeps
    the two in step)."""

    BEST = "best"
    SAFEST = "safest"
    RANDOM = "random"


def command(
    rows: Annotated[int, typer.Argument(metavar="ROWS", help="Board rows.", show_default=False)],
    cols: Annotated[int, typer.Argument(metavar="COLS", help="Board columns.", show_default=False)],
    mines: Annotated[
        int, typer.Argument(metavar="MINES", help="Number of mines.", show_default=False)
    ],
    games: Annotated[int, typer.Option("--games", "-n", help="How many games.")] = 1,
    seed: Annotated[int, typer.Option(help="Base seed: game i is drawn from it and i alone.")] = 0,
    first: Annotated[
        First, typer.Option(help="First move: safe (the start cell) or opening (a 0).")
    ] = First.SAFE,
    start: Annotated[
        str, typer.Option(metavar="corner|centre|R,C", help="The first cell revealed.")
    ] = "corner",
    policy: Annotated[Policy, typer.Option(help="How to guess at a stall.")] = Policy.BEST,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes.")] = 1,
    dask: Annotated[
        str | None,
        typer.Option(
            metavar="local|ADDRESS",
            help="Play on Dask: 'local' starts a LocalCluster of --jobs workers; tcp://host:port "
            "uses that scheduler. Needs pip install 'mineshafted[dask]'.",
        ),
    ] = None,
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
    json_output: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print one JSON object: rows, cols, mines, first, start, policy, games, wins, "
            "win_rate, ci95, guesses_per_game, seconds_per_game, seed, ...",
        ),
    ] = False,
) -> None:
    """Check the arguments, play the games and print them."""
    from ..game import FirstMove
    from ..studies import Study

    if games < 1:
        fail(f"--games must be at least 1, not {games}")
    check_jobs(jobs)
    check_cells(rows, cols)
    study = Study(
        rows,
        cols,
        mines,
        games=games,
        seed=seed,
        first=FirstMove(first.value),
        start=start,
        policy=policy.value,
    )
    with fail_on_error():
        study.check()
    check_record(record, games, "game")
    if games == 1 and not json_output and out is None and dask is None:
        _one(study, record)
        return
    if record is not None:
        fail("--record prints the game itself: leave out --json, --out and --dask")
    from ..studies import summarise

    finished = _many(study, jobs, dask, out, show_progress=not json_output)
    summary = summarise(finished.lines)
    if json_output:
        typer.echo(json.dumps(_summary_json(study, finished, summary, jobs, dask)))
    else:
        typer.echo(_heading(study))
        typer.echo(summary.text())
    if finished.interrupted:
        typer.echo(
            f"interrupted: {summary.games} of {games} game(s) done"
            + ("; run the same command to resume" if out is not None else ""),
            err=True,
        )
        raise typer.Exit(EXIT_INTERRUPTED)


def _one(study: Study, record: Path | None) -> None:
    """Play game 0 of ``study``, print each guess and the final board, keep its record."""
    from ..probability import play_game
    from ..studies import game_seed

    played = play_game(
        study.rows,
        study.cols,
        study.mines,
        seed=game_seed(study.seed, 0),
        first=study.first,
        start=study.start,
        policy=study.policy,
        record_odds=record is not None,
    )
    if record is not None:
        save_record(played.record, record)
    typer.echo(_heading(study))
    for line in _guess_lines(played, study.cols):
        typer.echo(line)
    typer.echo(played.view.render())
    outcome = "won" if played.won else "lost"
    typer.echo(
        f"{outcome} after {len(played.guesses)} guess(es) in {played.seconds * 1000:.1f} ms "
        f"(game seed {played.seed})"
    )


def _guess_lines(played: Played, cols: int) -> list[str]:
    """One line per guess: where, its chance of a mine, what it turned out to be."""
    return [
        f"guess {number}: ({guess.cell // cols}, {guess.cell % cols}) at "
        f"{float(guess.probability or 0):.1%} mine: {'a mine' if guess.hit else 'safe'}"
        for number, guess in enumerate(played.guesses, start=1)
    ]


def _many(
    study: Study, jobs: int, dask: str | None, out: Path | None, *, show_progress: bool
) -> Finished[GameLine]:
    """Run the study, with a progress bar on stderr when it is a terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from ..studies import run_study

    console = Console(stderr=True)
    if not (show_progress and console.is_terminal):
        with fail_on_error():
            return run_study(study, jobs=jobs, dask=dask, out=out)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("playing", total=study.games)

        def advance(_line: object, done: int) -> None:
            progress.update(task, completed=done)

        with fail_on_error():
            return run_study(study, jobs=jobs, dask=dask, out=out, on_game=advance)


def _heading(study: Study) -> str:
    """The study in one line."""
    return (
        f"{study.rows}x{study.cols}/{study.mines}, first move {study.first.value} at "
        f"{study.start}, policy {study.policy}, seed {study.seed}"
    )


def _summary_json(
    study: Study, finished: Finished[GameLine], summary: Summary, jobs: int, dask: str | None
) -> dict[str, Any]:
    """The summary for programs."""
    low, high = summary.ci95
    return {
        "rows": study.rows,
        "cols": study.cols,
        "mines": study.mines,
        "first": study.first.value,
        "start": study.start,
        "policy": study.policy,
        "seed": study.seed,
        "games": summary.games,
        "wins": summary.wins,
        "win_rate": summary.win_rate,
        "ci95": [low, high],
        "guesses_per_game": summary.guesses_per_game,
        "seconds_per_game": summary.seconds_per_game,
        "requested": study.games,
        "resumed": finished.resumed,
        "interrupted": finished.interrupted,
        "jobs": jobs,
        "dask": dask,
    }
