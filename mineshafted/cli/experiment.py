"""``mineshafted experiment``: the course labs' studies, written as CSV and PNG into a directory."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .output import fail, fail_on_error, save_record

if TYPE_CHECKING:
    from ..studies.labs import DensityRow, PresetRow

__all__ = ["HELP", "app"]

HELP = (
    "Run the course labs' studies: every agent on the same boards, results as CSV and PNG.\n\n"
    "density: the CS440 study (play goes on after a mine; score = mines flagged safely / "
    "mines). presets: the lab's autograder (a mine loses; win rate per preset).\n\n"
    "Both write only into --out and refuse to overwrite results there without --force. "
    "The PNG needs matplotlib (pip install 'mineshafted[plots]'); without it the CSV is still "
    "written. Exit status: 0 done; 2 bad arguments or results already there (one line on "
    "stderr says which)."
)
"""The command group's ``--help`` text."""

app = typer.Typer(name="experiment", help=HELP, no_args_is_help=True, add_completion=False)

Agents = Annotated[
    str | None,
    typer.Option(
        metavar="NAMES",
        help="Comma-separated agents: kb, kb-merge, basic, improved, basic-v2, improved-v2, csp, "
        "best. Default: the study's own set.",
        show_default=False,
    ),
]
Seed = Annotated[int, typer.Option(help="Seed: the same seed gives the same boards and guesses.")]
Jobs = Annotated[int, typer.Option(help="Worker processes.")]
Out = Annotated[
    Path, typer.Option(file_okay=False, help="Directory for the CSV and PNG (created if needed).")
]
Force = Annotated[bool, typer.Option("--force", help="Overwrite results already in --out.")]


@app.command(
    "density",
    help="Mean score (with 95% intervals) of each agent at each mine density, under the CS440 "
    "rules, on a square board; writes density.csv and density.png.",
)
def density(
    size: Annotated[int, typer.Option(help="Board side d (a d x d board).")] = 20,
    densities: Annotated[
        str,
        typer.Option(
            metavar="START:STOP:STEP", help="Densities: a range (ends included) or a list."
        ),
    ] = "0.05:0.95:0.05",
    runs: Annotated[int, typer.Option(help="Boards per density.")] = 30,
    agents: Agents = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    out: Out = Path("results"),
    force: Force = False,
) -> None:
    """Run the density study and write its CSV and figure."""
    from ..studies.labs import DENSITY_AGENTS, density_study, parse_densities, write_rows

    with fail_on_error():
        chosen = parse_densities(densities)
        names = _names(agents, DENSITY_AGENTS)
        _counts(size=size, runs=runs, jobs=jobs)
        csv_path, png_path = _targets(out, "density", force)
        with _progress(len(chosen) * runs, "density") as advance:
            rows = density_study(
                size=size,
                densities=chosen,
                runs=runs,
                agents=names,
                seed=seed,
                jobs=jobs,
                progress=advance,
            )
        write_rows(rows, csv_path)
    typer.echo(f"wrote {csv_path}", err=True)
    _draw(lambda: _density_png(rows, png_path, size), png_path)


@app.command(
    "presets",
    help="Win rate (with 95% intervals) of each agent on each of the lab's presets (easy 8x8, "
    "9x9, 10x10 with 10 mines; medium 13x15, 16x16 with 40; hard 30x16 with 99) under classic "
    "rules; writes presets.csv and presets.png and prints a table.",
)
def presets(
    games: Annotated[int, typer.Option(help="Games per preset (each agent plays each).")] = 1000,
    agents: Agents = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    out: Out = Path("results"),
    force: Force = False,
    record: Annotated[
        bool,
        typer.Option(
            "--record",
            help="Also write the game each agent played on each preset's first board, as "
            "records in --out (PRESET-AGENT.jsonl), for `mineshafted replay`.",
        ),
    ] = False,
) -> None:
    """Run the presets study, write its CSV and figure, and print the table."""
    from ..studies.labs import PRESET_AGENTS, PRESETS, preset_game, presets_study, write_rows

    with fail_on_error():
        names = _names(agents, PRESET_AGENTS)
        _counts(games=games, jobs=jobs)
        csv_path, png_path = _targets(out, "presets", force)
        records = [(p, n, out / f"{p}-{n}.jsonl") for p in PRESETS for n in names] if record else []
        for _, _, path in records:
            if path.exists() and not force:
                fail(f"{path}: already exists (use --force to overwrite)")
        with _progress(len(PRESETS) * games, "presets") as advance:
            rows = presets_study(games=games, agents=names, seed=seed, jobs=jobs, progress=advance)
        write_rows(rows, csv_path)
    _table(rows)
    typer.echo(f"wrote {csv_path}", err=True)
    _draw(lambda: _presets_png(rows, png_path), png_path)
    for preset, name, path in records:
        save_record(preset_game(preset, name, seed=seed).record, path)
    if records:
        typer.echo(f"wrote {len(records)} game record(s) to {out}", err=True)


def _names(text: str | None, default: tuple[str, ...]) -> list[str]:
    """The agents asked for, or the study's default set.

    Raises
    ------
    UnknownAgentError
        A name no agent is registered under.
    """
    from ..agents import agent

    if text is None:
        return list(default)
    names = [name.strip() for name in text.split(",")]
    for name in names:
        agent(name)
    return names


def _counts(**counts: int) -> None:
    """Refuse a count below 1 with one line naming the option."""
    for name, value in counts.items():
        if value < 1:
            fail(f"--{name} must be at least 1, not {value}")


def _targets(out: Path, stem: str, force: bool) -> tuple[Path, Path]:
    """The CSV and PNG paths in ``out`` (created); refuse existing ones without ``force``."""
    if out.exists() and not out.is_dir():
        fail(f"{out}: not a directory")
    paths = (out / f"{stem}.csv", out / f"{stem}.png")
    for path in paths:
        if path.exists() and not force:
            fail(f"{path}: already exists (use --force to overwrite)")
    out.mkdir(parents=True, exist_ok=True)
    return paths


@contextmanager
def _progress(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on a terminal's stderr (nothing elsewhere); yields its advance."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    console = Console(stderr=True)
    columns = (
        "{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, disable=not console.is_terminal) as bar:
        task = bar.add_task(f"{label} (boards)", total=total)
        yield lambda done: bar.advance(task, done)


def _draw(draw: Callable[[], None], path: Path) -> None:
    """Draw a figure; without matplotlib, say how to get it and carry on."""
    from ..studies.figures import PlotsUnavailableError

    try:
        draw()
    except PlotsUnavailableError as error:
        typer.echo(f"note: no {path.name}: {error}", err=True)
        return
    typer.echo(f"wrote {path}", err=True)


def _density_png(rows: list[DensityRow], path: Path, size: int) -> None:
    """The density figure."""
    from ..studies.figures import density_figure

    density_figure(rows, path, size=size)


def _presets_png(rows: list[PresetRow], path: Path) -> None:
    """The presets figure."""
    from ..studies.figures import presets_figure

    presets_figure(rows, path)


def _table(rows: list[PresetRow]) -> None:
    """Print the win rates: one row per preset, one column per agent."""
    from rich.console import Console
    from rich.table import Table

    agents = list(dict.fromkeys(r.agent for r in rows))
    table = Table(title="win rate [95% interval, %]")
    table.add_column("preset")
    for name in agents:
        table.add_column(name, justify="right")
    by = {(r.preset, r.agent): r for r in rows}
    for preset in dict.fromkeys(r.preset for r in rows):
        cells = [by[preset, name] for name in agents]
        table.add_row(
            preset,
            *(f"{c.win_rate:.1%} [{c.ci_low * 100:.0f}, {c.ci_high * 100:.0f}]" for c in cells),
        )
    Console(file=sys.stdout, highlight=False, width=200).print(table)
