"""Record runs: ``best`` over many games per standard level, and the table they make.

Six studies: beginner 9x9/10, intermediate 16x16/40 and expert 30x16/99, each with the first
reveal safe at the top-left corner (Tu et al. 2017's rules, JSMinesweeper's "classic") and
with an opening at (3,3) (JSMinesweeper's "modern"). Each is the command

    mineshafted play ROWS COLS MINES --games N --seed 0 --first F --start S --out DIR/NAME.jsonl

so a run is resumable (the same command skips the games its file holds), can be spread over
processes (``--jobs``) or a Dask cluster (``--dask``), and its games are the same whichever
way it runs. ``--play`` runs the studies not yet complete, one after the other; without it
the script reads what the files hold and prints the table (games done so far, win rate with
its 95% Wilson interval, the published figure beside it) and the command of each row.

Examples::

    python scripts/records.py --games 1000000 --jobs 2 --play     # hours: resumable
    python scripts/records.py --games 1000000                     # the table so far
    python scripts/records.py --games 1000 --out /tmp/r --play --levels beginner9-corner
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from mineshafted.studies.compare import read_results
from mineshafted.studies.summary import wilson


@dataclass(frozen=True)
class Record:
    """One record study: a level and a first move, and what was published for it."""

    name: str
    label: str
    rows: int
    cols: int
    mines: int
    first: str
    start: str
    published: str

    def command(self, games: int, out: Path, jobs: int, dask: str | None) -> list[str]:
        """The ``mineshafted play`` command that runs (or resumes) this study."""
        command = ["mineshafted", "play", str(self.rows), str(self.cols), str(self.mines)]
        command += ["--games", str(games), "--seed", "0", "--first", self.first]
        command += ["--start", self.start, "--out", str(out / f"{self.name}.jsonl")]
        command += ["--json", "--jobs", str(jobs)]
        return command + (["--dask", dask] if dask else [])


RECORDS = (
    Record("beginner9-corner", "beginner 9x9/10, safe at a corner", 9, 9, 10, "safe", "corner",
           "91.70% (Tu et al. 2017)"),
    Record("intermediate-corner", "intermediate 16x16/40, safe at a corner", 16, 16, 40, "safe",
           "corner", "78.22% (Tu et al. 2017)"),
    Record("expert-corner", "expert 30x16/99, safe at a corner", 16, 30, 99, "safe", "corner",
           "41.132% ± 0.03, 10,000,000 games (JSMinesweeper, Java)"),
    Record("beginner9-opening", "beginner 9x9/10, opening at (3,3)", 9, 9, 10, "opening", "3,3",
           "—"),
    Record("intermediate-opening", "intermediate 16x16/40, opening at (3,3)", 16, 16, 40,
           "opening", "3,3", "—"),
    Record("expert-opening", "expert 30x16/99, opening at (3,3)", 16, 30, 99, "opening", "3,3",
           "54.3% (JSMinesweeper, Java)"),
)  # fmt: skip
"""The six studies, in the order ``--play`` runs them."""


def games_won(path: Path, games: int) -> tuple[int, int]:
    """Games done and games won among the first ``games`` of a results file (0, 0 when it
    is missing), read by :func:`~mineshafted.studies.compare.read_results` (a damaged file is
    named with its line, as ``bench_play.py --compare`` names it)."""
    if not path.exists():
        return 0, 0
    won = [outcome for index, outcome in read_results(path).won.items() if index < games]
    return len(won), sum(won)


def table(records: list[Record], games: int, out: Path, jobs: int, dask: str | None) -> str:
    """The markdown table of the records' files as they are, then each row's command."""
    lines = [
        "| level | best | 95% interval | games | published |",
        "|---|---:|---:|---:|---|",
    ]
    commands = []
    for record in records:
        done, won = games_won(out / f"{record.name}.jsonl", games)
        if done:
            low, high = wilson(won, done)
            rate, interval = f"{won / done:.3%}", f"{low:.3%} to {high:.3%}"
        else:
            rate, interval = "—", "—"
        lines.append(f"| {record.label} | {rate} | {interval} | {done:,} | {record.published} |")
        commands.append(shlex.join(record.command(games, out, jobs, dask)))
    return "\n".join(lines + ["", "Each row's command (the same command resumes it):", ""]
                     + [f"    {command}" for command in commands])  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="games a study")
    parser.add_argument("--out", type=Path, default=Path("bench/records"), help="results here")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (with --play)")
    parser.add_argument("--dask", help="a Dask scheduler's address, or 'local' (with --play)")
    parser.add_argument(
        "--levels",
        default=",".join(record.name for record in RECORDS),
        help="comma-separated, of: " + ", ".join(record.name for record in RECORDS),
    )
    parser.add_argument("--play", action="store_true", help="run the studies not complete")
    args = parser.parse_args()
    names = [name.strip() for name in args.levels.split(",") if name.strip()]
    known = {record.name: record for record in RECORDS}
    unknown = [name for name in names if name not in known]
    if unknown or args.games < 1:
        parser.error(f"unknown level(s) {', '.join(unknown)}" if unknown else "--games >= 1")
    records = [known[name] for name in names]
    if args.play:
        args.out.mkdir(parents=True, exist_ok=True)
        for record in records:
            if games_won(args.out / f"{record.name}.jsonl", args.games)[0] >= args.games:
                continue
            command = record.command(args.games, args.out, args.jobs, args.dask)
            print(f"playing: {shlex.join(command)}", file=sys.stderr)
            status = subprocess.run(
                [sys.executable, "-m", "mineshafted", *command[1:]], stdout=subprocess.DEVNULL
            ).returncode
            if status != 0:
                print(f"stopped ({status}): run the same command to resume", file=sys.stderr)
                sys.exit(status)
    print(table(records, args.games, args.out, args.jobs, args.dask))


if __name__ == "__main__":
    main()
