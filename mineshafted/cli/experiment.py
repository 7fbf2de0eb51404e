"""``mineshafted experiment``: the course labs' studies, written as CSV and PNG into a directory."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .options import MAX_COUNT, check_cells, dask_option, jobs_option, within
from .output import fail, fail_on_error, note
from .status import exit_status, stopped
from .targets import check_folder, check_results, check_target, replacing, save_record
from .usage import Command, group

if TYPE_CHECKING:
    from ..studies import BoardLine, Kind
    from ..studies.labs import DensityRow, PresetRow

__all__ = ["HELP", "app"]

HELP = (
    "Run the course labs' studies: every agent on the same boards, results as CSV and PNG.\n\n"
    "density: the CS440 study (play goes on after a mine; score = mines flagged safely / "
    "mines). presets: the lab's autograder (a mine loses; win rate per preset).\n\n"
    "Both write only into --out: each finished board as one line of STUDY.jsonl, then "
    "STUDY.csv and STUDY.png. Board i is drawn from --seed and i alone, so the tables are the "
    "same whatever --jobs or --dask; Ctrl-C or SIGTERM stops cleanly and the same command "
    "resumes from "
    "the .jsonl. Results already there are kept without --force. The PNG needs matplotlib "
    "(pip install 'mineshafted[plots]'); without it the CSV is still written. Exit status: 0 "
    "done; 2 bad arguments or results already there (one line on stderr says which); 130 "
    "interrupted; 143 terminated."
)
"""The command group's ``--help`` text."""

app = group("experiment", HELP)

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
Jobs = Annotated[int, jobs_option()]
Dask = Annotated[str | None, dask_option()]
Out = Annotated[
    Path,
    typer.Option(
        help="Directory for the results (created if needed): STUDY.jsonl, one line per "
        "finished board, resumed by the same command; STUDY.csv and STUDY.png.",
    ),
]
Force = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Overwrite the CSV and PNG already in --out, and start afresh a STUDY.jsonl "
        "of other arguments.",
    ),
]


@app.command(
    "density",
    cls=Command,
    help="Mean score (with 95% intervals) of each agent at each mine density, under the CS440 "
    "rules, on a square board; writes density.jsonl, density.csv and density.png.",
)
def density(
    size: Annotated[
        int, typer.Option(metavar="D", callback=within(1), help="Board side d (a d x d board).")
    ] = 20,
    densities: Annotated[
        str,
        typer.Option(
            metavar="START:STOP:STEP", help="Densities: a range (ends included) or a list."
        ),
    ] = "0.05:0.95:0.05",
    runs: Annotated[
        int, typer.Option(metavar="N", callback=within(1, MAX_COUNT), help="Boards per density.")
    ] = 30,
    agents: Agents = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    dask: Dask = None,
    out: Out = Path("results"),
    force: Force = False,
) -> None:
    """Run the density study and write its CSV and figure."""
    from ..studies import DensityStudy
    from ..studies.labs import DENSITY_AGENTS, parse_densities, write_rows

    with fail_on_error():
        chosen = parse_densities(densities)
        names = _names(agents, DENSITY_AGENTS)
        check_cells(size, size, "--size: a board")
        study = DensityStudy(size, tuple(chosen), runs, tuple(names), seed)
        study.check()
        paths = _targets(out, "density", force)
        fold = study.fold()
        _run(study, fold.add, paths, jobs=jobs, dask=dask, force=force, label="density")
        rows = study.rows_of(fold)
        with replacing(paths.csv, force=force) as beside:
            write_rows(rows, beside)
    note(f"wrote {paths.csv}")
    _draw(lambda beside: _density_png(rows, beside, size), paths.png, force)


@app.command(
    "presets",
    cls=Command,
    help="Win rate (with 95% intervals) of each agent on each of the lab's presets (easy 8x8, "
    "9x9, 10x10 with 10 mines; medium 13x15, 16x16 with 40; hard 30x16 with 99) under classic "
    "rules; writes presets.jsonl, presets.csv and presets.png and prints a table.",
)
def presets(
    games: Annotated[
        int,
        typer.Option(
            metavar="N",
            callback=within(1, MAX_COUNT),
            help="Games per preset (each agent plays each).",
        ),
    ] = 1000,
    agents: Agents = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    dask: Dask = None,
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
    from ..studies import PresetsStudy, preset_game
    from ..studies.labs import PRESET_AGENTS, PRESETS, write_rows

    with fail_on_error():
        names = _names(agents, PRESET_AGENTS)
        study = PresetsStudy(games, tuple(names), tuple(PRESETS), seed)
        study.check()
        paths = _targets(out, "presets", force)
        records = [(p, n, out / f"{p}-{n}.jsonl") for p in PRESETS for n in names] if record else []
        for _, _, path in records:
            check_target(path, force=force)
        fold = study.fold()
        _run(study, fold.add, paths, jobs=jobs, dask=dask, force=force, label="presets")
        rows = study.rows_of(fold)
        with replacing(paths.csv, force=force) as beside:
            write_rows(rows, beside)
    _table(rows)
    note(f"wrote {paths.csv}")
    _draw(lambda beside: _presets_png(rows, beside), paths.png, force)
    for preset, name, path in records:
        save_record(preset_game(preset, name, seed=seed).record, path, force=force)
    if records:
        note(f"wrote {len(records)} game record(s) to {out}")


@dataclass(frozen=True)
class _Paths:
    """Where a study's results go in ``--out``."""

    journal: Path
    csv: Path
    png: Path


def _run(
    study: Kind[BoardLine],
    fold: Callable[[BoardLine], None],
    paths: _Paths,
    *,
    jobs: int,
    dask: str | None,
    force: bool,
    label: str,
) -> None:
    """Play the boards not yet in the journal, each board (resumed or played) given to
    ``fold``, with a progress bar; end with one line on stderr and status 130 if interrupted
    (143 if terminated).

    Raises
    ------
    StudyError
        From the runner: a journal of other arguments (unless ``force`` starts it afresh), no
        Dask, no scheduler.
    """
    from ..studies import JournalError, SchedulerError, run_study

    if force and paths.journal.exists():
        try:
            with paths.journal.open(encoding="utf-8") as stream:
                head = json.loads(stream.readline())
        except (OSError, ValueError):
            head = None
        if not isinstance(head, dict) or head.get("study") != study.key:
            paths.journal.unlink()
    with _progress(study.count, label) as advance:
        try:
            finished = run_study(
                study, fold=fold, jobs=jobs, dask=dask, out=paths.journal, on_game=advance
            )
        except JournalError as error:
            fail(f"{error} (or --force to start afresh)", exit_status(error))
        except SchedulerError as error:
            fail(f"--dask: {error}", exit_status(error))
    if finished.interrupted:
        word, status = stopped(finished)
        fail(
            f"{word}: {finished.games} of {study.count} board(s) done; "
            "run the same command to resume",
            status,
        )


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


def _targets(out: Path, stem: str, force: bool) -> _Paths:
    """The journal, CSV and PNG paths in ``out`` (created); refuse an existing CSV or PNG
    without ``force`` (a journal is resumed), and a journal, CSV or PNG that is not a regular
    file (:mod:`.targets`)."""
    check_folder(out)
    paths = _Paths(out / f"{stem}.jsonl", out / f"{stem}.csv", out / f"{stem}.png")
    check_results(paths.journal)
    for path in (paths.csv, paths.png):
        check_target(path, force=force)
    out.mkdir(parents=True, exist_ok=True)
    return paths


@contextmanager
def _progress(total: int, label: str) -> Iterator[Callable[[object, int], None]]:
    """A rich progress bar on a terminal's stderr (nothing elsewhere); yields a callback for
    the runner's ``on_game``."""
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
        yield lambda _line, done: bar.update(task, completed=done)


def _draw(draw: Callable[[Path], None], path: Path, force: bool) -> None:
    """Draw a figure into ``path`` (through the guard of targets: ``draw`` writes the file
    it is given); without matplotlib, say how to get it and carry on."""
    from ..studies import MissingExtraError

    try:
        with replacing(path, force=force) as beside:
            draw(beside)
    except MissingExtraError as error:
        note(f"note: no {path.name}: {error}")
        return
    note(f"wrote {path}")


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
