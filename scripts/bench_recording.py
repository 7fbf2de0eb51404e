"""Benchmark recording a solve against the solve itself, on the shipped no-guess puzzles.

For each puzzle, time alternately, ``--repeats`` times each:

- ``plain``: ``Sweep(BoardManager(board), start=start).run()``, the solve ``mineshafted
  solve`` times;
- ``recorded``: :func:`mineshafted.solver.recording.record_solve` on the same board: the same
  sweep played through a game that records each reveal with its reason and flags each proven
  mine (what ``mineshafted replay`` and ``solve --record`` run, and the live page's Watch).

Printed per set of puzzles: the median of each over every timing of every puzzle, and the
ratio of the two medians (recorded / plain), all from the one run; in wall-clock time and in
this process's processor time (on a shared machine, the wall clock also counts the time other
processes took the processor: there the processor time's ratio is the steadier). Compare
ratios of one run, never single timings. Each timing starts after a full garbage collection
and ends with a collection of the young objects (``record_solve`` pauses the collector: what
it owes on resuming is timed with it).

``--dump DIR`` instead writes each shipped puzzle's record, with and without the mine total,
as JSON Lines (the header's seed, drawn at random by each game, set to 0) into ``DIR``: run it
under two checkouts and ``diff -r`` the directories to check that the records did not change.

``--against DIR`` times another checkout of the package too (``DIR/mineshafted``: say the
code before a change, from ``git archive``), alternately with this one, each in its own
process: for each timing of a puzzle, one process times a plain and a recorded solve, then the
other (the order swapped at each repeat). Each process runs this script's timing code on its
own ``mineshafted``, on this checkout's puzzles; each checkout's ratio is against its own plain
sweep. The load average is printed before and after.

    python scripts/bench_recording.py                         # 200x200 and 30x16/99
    python scripts/bench_recording.py --sets 60x60-540 --repeats 9
    python scripts/bench_recording.py --dump /tmp/records-new
    git archive HEAD~3 | tar -x -C /tmp/old && python scripts/bench_recording.py --against /tmp/old
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import mineshafted
from mineshafted import BoardManager, Sweep
from mineshafted.formats import Puzzle, read_puzzles
from mineshafted.game import write_record
from mineshafted.solver.recording import record_solve

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
DEFAULT_SETS = ["200x200-5000", "30x16-99"]
"""Sets of ``puzzles/no-guess`` timed by default: the issue's two sizes."""


def plain(puzzle: Puzzle) -> None:
    """Solve ``puzzle`` as ``mineshafted solve`` does."""
    Sweep(BoardManager(puzzle.board), start=puzzle.start).run()


def recorded(puzzle: Puzzle) -> None:
    """Solve ``puzzle`` through a recording game."""
    record_solve(puzzle.board, start=puzzle.start)


Timing = tuple[float, float]
"""Seconds of wall-clock time and of this process's processor time."""


def timed(run: Callable[[Puzzle], None], puzzle: Puzzle) -> Timing:
    """The time one call of ``run(puzzle)`` takes, after a collection so that none is owed,
    with the collection of the young objects it leaves: ``record_solve`` pauses the garbage
    collector, and the collection of what it made while paused is its cost too."""
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    run(puzzle)
    gc.collect(0)
    return time.perf_counter() - wall, time.process_time() - cpu


def bench(puzzles: list[Puzzle], repeats: int) -> tuple[list[Timing], list[Timing]]:
    """Plain and recorded timings of every puzzle, ``repeats`` each, alternating."""
    plains: list[Timing] = []
    records: list[Timing] = []
    for puzzle in puzzles:
        for _ in range(repeats):
            plains.append(timed(plain, puzzle))
            records.append(timed(recorded, puzzle))
    return plains, records


def medians(timings: list[Timing]) -> Timing:
    """The median wall-clock time and the median processor time."""
    return statistics.median(t[0] for t in timings), statistics.median(t[1] for t in timings)


def dump(target: Path) -> int:
    """Write the record of every shipped puzzle, with and without the total, into ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    written = 0
    for path in sorted(PUZZLES.rglob("*.json")):
        for number, puzzle in enumerate(read_puzzles(path)):
            for total in (None, puzzle.board.mine_total):
                out = io.StringIO()
                write_record(record_solve(puzzle.board, start=puzzle.start, mines=total), out)
                head, _, events = out.getvalue().partition("\n")
                header = json.loads(head)
                header["seed"] = 0  # each game draws its own: the one field that may differ
                name = "_".join(path.relative_to(PUZZLES).with_suffix("").parts)
                kind = "total" if total is not None else "hidden"
                (target / f"{name}-{number}-{kind}.jsonl").write_text(
                    json.dumps(header) + "\n" + events
                )
                written += 1
    return written


def puzzle_set(name: str) -> list[Puzzle]:
    """The puzzles of ``puzzles/no-guess/NAME``, file by file; none if there is no such set."""
    return [
        p
        for path in sorted((PUZZLES / "no-guess" / name).glob("*.json"))
        for p in read_puzzles(path)
    ]


def serve() -> None:
    """Time puzzles on request, for a process running ``--against``: first a line naming the
    package imported, then for each line ``SET INDEX`` read, the plain and the recorded
    timings of that puzzle as one JSON line ``[wall, cpu, wall, cpu]``."""
    print(json.dumps(str(Path(mineshafted.__file__).resolve().parent)), flush=True)
    sets: dict[str, list[Puzzle]] = {}
    for line in sys.stdin:
        name, index = line.split()
        if name not in sets:
            sets[name] = puzzle_set(name)
        puzzle = sets[name][int(index)]
        print(json.dumps([*timed(plain, puzzle), *timed(recorded, puzzle)]), flush=True)


class Checkout:
    """A process timing puzzles with the package of one checkout (see :func:`serve`)."""

    def __init__(self, label: str, root: Path) -> None:
        self.label = label
        env = {**os.environ, "PYTHONPATH": str(root)}
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.package = json.loads(self._line())
        if Path(self.package) != (root / "mineshafted").resolve():
            self.close()
            raise SystemExit(f"error: {root} did not give its own package ({self.package})")

    def _line(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"error: the process timing {self.label} ended early")
        return line

    def time(self, name: str, index: int) -> tuple[Timing, Timing]:
        """The plain and the recorded timing of puzzle ``index`` of set ``name``."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{name} {index}\n")
        self.process.stdin.flush()
        wall, cpu, recorded_wall, recorded_cpu = json.loads(self._line())
        return (wall, cpu), (recorded_wall, recorded_cpu)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def row(name: str, plains: list[Timing], records: list[Timing], label: str | None) -> str:
    """One line of the table: medians and their ratios."""
    (p, pc), (r, rc) = medians(plains), medians(records)
    code = "" if label is None else f" {label} |"
    return (
        f"| {name} |{code} {p * 1e3:.2f} ms | {r * 1e3:.2f} ms | {r / p:.2f}x "
        f"| {pc * 1e3:.2f} ms | {rc * 1e3:.2f} ms | {rc / pc:.2f}x |"
    )


def compare(sets: dict[str, list[Puzzle]], repeats: int, old: Path) -> None:
    """Time ``old``'s package and this checkout's alternately; one row per set and checkout."""
    checkouts = [Checkout("old", old), Checkout("new", ROOT)]
    print("| puzzles | code | plain | recorded | ratio | cpu: plain | cpu: recorded | cpu ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    try:
        for name, puzzles in sets.items():
            timings: dict[str, tuple[list[Timing], list[Timing]]] = {
                c.label: ([], []) for c in checkouts
            }
            for index in range(len(puzzles)):
                for repeat in range(repeats):
                    for checkout in checkouts if repeat % 2 == 0 else checkouts[::-1]:
                        plain_timing, recorded_timing = checkout.time(name, index)
                        timings[checkout.label][0].append(plain_timing)
                        timings[checkout.label][1].append(recorded_timing)
            for label, (plains, records) in timings.items():
                print(row(f"{name} ({len(puzzles)})", plains, records, label), flush=True)
    finally:
        for checkout in checkouts:
            checkout.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sets",
        nargs="+",
        default=DEFAULT_SETS,
        help=f"puzzle sets under puzzles/no-guess (default {' '.join(DEFAULT_SETS)})",
    )
    parser.add_argument(
        "--repeats", type=int, default=5, help="timings of each kind per puzzle (default 5)"
    )
    parser.add_argument("--dump", type=Path, help="write every shipped puzzle's record here")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        help="also time the package in DIR/mineshafted (another checkout), alternately",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve()
        return
    if args.dump is not None:
        print(f"wrote {dump(args.dump)} records into {args.dump}")
        return
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, not {args.repeats}")
    if args.against is not None and not (args.against / "mineshafted" / "__init__.py").is_file():
        parser.error(f"--against {args.against}: no package there (no mineshafted/__init__.py)")
    sets = {}
    for name in args.sets:
        sets[name] = puzzle_set(name)
        if not sets[name]:
            parser.error(f"no puzzles in {PUZZLES / 'no-guess' / name}")
    print(f"# python {sys.version.split()[0]}, {args.repeats} timings of each kind per puzzle")
    print(f"# load average {load()} (1, 5, 15 min) at the start")
    if args.against is not None:
        compare(sets, args.repeats, args.against.resolve())
    else:
        print("| puzzles | plain | recorded | ratio | cpu: plain | cpu: recorded | cpu ratio |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name, puzzles in sets.items():
            plains, records = bench(puzzles, args.repeats)
            print(row(f"{name} ({len(puzzles)})", plains, records, None), flush=True)
    print(f"# load average {load()} at the end")


if __name__ == "__main__":
    main()
