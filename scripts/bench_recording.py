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
ratios of one run, never single timings.

``--dump DIR`` instead writes each shipped puzzle's record, with and without the mine total,
as JSON Lines (the header's seed, drawn at random by each game, set to 0) into ``DIR``: run it
under two checkouts and ``diff -r`` the directories to check that the records did not change.

    python scripts/bench_recording.py                         # 200x200 and 30x16/99
    python scripts/bench_recording.py --sets 60x60-540 --repeats 9
    python scripts/bench_recording.py --dump /tmp/records-new
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from mineshafted import BoardManager, Sweep
from mineshafted.formats import Puzzle, read_puzzles
from mineshafted.game import write_record
from mineshafted.solver.recording import record_solve

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
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
    """The time one call of ``run(puzzle)`` takes, after a collection so that none is owed."""
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    run(puzzle)
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
            for total in (None, puzzle.board.mine_count):
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
    args = parser.parse_args(argv)
    if args.dump is not None:
        print(f"wrote {dump(args.dump)} records into {args.dump}")
        return
    print(f"# python {sys.version.split()[0]}, {args.repeats} timings of each kind per puzzle")
    print("| puzzles | plain | recorded | ratio | cpu: plain | cpu: recorded | cpu ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in args.sets:
        puzzles = [
            p
            for path in sorted((PUZZLES / "no-guess" / name).glob("*.json"))
            for p in read_puzzles(path)
        ]
        if not puzzles:
            parser.error(f"no puzzles in {PUZZLES / 'no-guess' / name}")
        plains, records = bench(puzzles, args.repeats)
        (p, pc), (r, rc) = medians(plains), medians(records)
        print(
            f"| {name} ({len(puzzles)}) | {p * 1e3:.2f} ms | {r * 1e3:.2f} ms | {r / p:.2f}x "
            f"| {pc * 1e3:.2f} ms | {rc * 1e3:.2f} ms | {rc / pc:.2f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
