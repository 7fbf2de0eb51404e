"""Benchmark sweep_mines against the floor of the interface, under two board managers.

For each size, make no-guess boards with the package's generator (seeded, so every run
measures the same boards), then time, alternating on each board and under each manager:

- ``sweep``:  ``sweep_mines(manager)``;
- ``oracle``: a player that already knows the answer and just moves every safe cell and
  builds the grid: the least any sweep through this interface can cost;
- ``rings``: the oracle that also asks ``get_adjacent`` once for every safe cell it moves
  onto: the least a sweep can cost that learns each explored cell's neighbours from the
  manager, as ours does (it cannot see a clue's neighbours any other way).

The managers:

- ``ours``:    :class:`mineshafted.BoardManager` (validated, neighbours precomputed);
- ``starter``: a manager shaped like the Mine Shafted course's starter: ``move`` is the
  ``send`` of a generator that yields clues and raises a bare ``RuntimeError`` on a mine,
  ``get_adjacent`` builds its list afresh on every call, ``size`` is a plain attribute.

A manager is built outside the timed region. Each timing is the best of ``--repeats``;
reported per size and manager: the median sweep time over the boards, the median oracle
time, and the ratio of the two medians. Run it on a quiet machine; medians of one run are
compared, never single timings.

    python scripts/bench_sweep.py                 # the README table
    python scripts/bench_sweep.py --sizes 30x16x99 --boards 50 --repeats 5
    python scripts/bench_sweep.py --managers starter

The speed guard of a change to the solver: ``--against DIR`` times this checkout and another
one (say the last release, ``git archive REV | tar -x -C DIR``) in one run, each in its own
worker process importing its own ``mineshafted``, alternating old and new on every board and
every repeat: the expert sweep (30x16/99) and the 60x60 sweep, ``rate`` (30x16/99) and
``generate --technique ac3`` (16x16/40 and 30x16/99, one seed a board). It prints the median
of each side and their ratio (new / old; above 1.05 misses the 5 % guard).

    python scripts/bench_sweep.py --against /tmp/old --boards 30 --repeats 5
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from sizes import parse_size

from mineshafted import Board, BoardManager, sweep_mines
from mineshafted.generate import generate_many

DEFAULT_SIZES = ["9x9x10", "16x16x40", "30x16x99", "60x60x540", "200x200x5000"]

T = TypeVar("T")


class StarterManager:
    """A board manager in the shape of the course's starter code.

    ``move`` is a generator's ``send``: it yields the clue of each index sent to it and
    raises a bare ``RuntimeError`` on a mine (the generator is then finished, so every later
    move raises ``StopIteration``). ``get_adjacent`` is a list comprehension over the 3x3
    block around the cell, in row-major order. Nothing is validated; a negative index
    wraps around, as list indexing does.
    """

    def __init__(self, grid: list[list[int]]) -> None:
        self.size = (len(grid), len(grid[0]))
        play = StarterManager._play(grid, self.size[1])
        next(play)
        self.move: Callable[[int], int] = play.send

    def get_adjacent(self, index: int) -> list[int]:
        """The cells around ``index``, row-major, built afresh on each call."""
        rows, cols = self.size
        row, col = index // cols, index % cols
        return [
            r * cols + c
            for r in range(max(row - 1, 0), min(row + 2, rows))
            for c in range(max(col - 1, 0), min(col + 2, cols))
            if r * cols + c != index
        ]

    @staticmethod
    def _play(grid: list[list[int]], cols: int) -> Generator[int, int, None]:
        index = yield 0
        while True:
            clue = grid[index // cols][index % cols]
            if clue == -1:
                raise RuntimeError
            index = yield clue


Manager = BoardManager | StarterManager

MANAGERS: dict[str, Callable[[Board], Manager]] = {
    "ours": BoardManager,
    "starter": lambda board: StarterManager(board.to_grid()),
}
"""Every manager the benchmark knows, by its name on the command line."""


@dataclass
class Timings:
    """The best timing per board of the sweep and of the oracle, under one manager."""

    sweep: list[float]
    oracle: list[float]
    rings: list[float]

    @property
    def ratio(self) -> float:
        """Median sweep time over median oracle time."""
        return statistics.median(self.sweep) / statistics.median(self.oracle)


def oracle(bm: Manager, safe: list[int], rows: int, cols: int) -> list[list[int]]:
    """Move every safe cell and return the grid: the floor of the interface."""
    values = [-1] * (rows * cols)
    move = bm.move
    for cell in safe:
        values[cell] = move(cell)
    return [values[r * cols : (r + 1) * cols] for r in range(rows)]


def oracle_with_rings(bm: Manager, safe: list[int], rows: int, cols: int) -> list[list[int]]:
    """The oracle, also asking the manager for each explored cell's neighbours once."""
    values = [-1] * (rows * cols)
    move, adjacent = bm.move, bm.get_adjacent
    for cell in safe:
        values[cell] = move(cell)
        adjacent(cell)
    return [values[r * cols : (r + 1) * cols] for r in range(rows)]


def timed(run: Callable[[], T]) -> tuple[float, T]:
    """Seconds ``run()`` took, after a garbage collection, and what it returned."""
    gc.collect()
    began = time.perf_counter()
    result = run()
    return time.perf_counter() - began, result


def bench(
    rows: int, cols: int, mines: int, boards: int, repeats: int, seed: int, managers: list[str]
) -> dict[str, Timings]:
    """Time the sweep and the oracle on ``boards`` seeded boards under each manager."""
    made = [g.board for g in generate_many(rows, cols, mines, boards, seed=seed)]
    timings = {name: Timings([], [], []) for name in managers}
    for board in made:
        truth = board.to_grid()
        safe = [c for c, v in enumerate(board.values) if v >= 0]
        best_sweep = dict.fromkeys(managers, float("inf"))
        best_oracle = dict.fromkeys(managers, float("inf"))
        best_rings = dict.fromkeys(managers, float("inf"))
        for _ in range(repeats):
            for name in managers:
                make = MANAGERS[name]
                seconds, found = timed(partial(sweep_mines, make(board)))
                if found != truth:
                    sys.exit(f"wrong board from sweep_mines ({name}) at {rows}x{cols}/{mines}")
                best_sweep[name] = min(best_sweep[name], seconds)
                seconds, found = timed(partial(oracle, make(board), safe, rows, cols))
                if found != truth:
                    sys.exit(f"wrong board from the oracle ({name}) at {rows}x{cols}/{mines}")
                best_oracle[name] = min(best_oracle[name], seconds)
                seconds, found = timed(partial(oracle_with_rings, make(board), safe, rows, cols))
                best_rings[name] = min(best_rings[name], seconds)
        for name in managers:
            timings[name].sweep.append(best_sweep[name])
            timings[name].oracle.append(best_oracle[name])
            timings[name].rings.append(best_rings[name])
    return timings


def parse_managers(text: str) -> list[str]:
    """``"ours,starter"`` -> ``["ours", "starter"]``; an argparse error for an unknown name."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in MANAGERS]
    if unknown or not names:
        known = ", ".join(MANAGERS)
        raise argparse.ArgumentTypeError(f"{text!r}: choose managers among {known}")
    return list(dict.fromkeys(names))


GUARD = [
    ("sweep", (30, 16, 99)),
    ("sweep", (60, 60, 540)),
    ("rate", (30, 16, 99)),
    ("generate ac3", (16, 16, 40)),
    ("generate ac3", (30, 16, 99)),
]
"""What ``--against`` times: the measure and the size."""


def work(task: dict[str, Any]) -> float:
    """Seconds one ``task`` of the guard takes here (in a worker, whatever ``mineshafted`` it
    imports): ``{"measure": ..., "grid": ...}`` or ``{"measure": "generate ac3", "size": ...,
    "seed": ...}``."""
    from mineshafted import Technique, rate
    from mineshafted.generate import generate

    measure = task["measure"]
    if measure == "generate ac3":
        rows, cols, mines = task["size"]
        run = partial(
            generate, rows, cols, mines, seed=task["seed"], technique=Technique.AC3, timeout=None
        )
        return timed(run)[0]
    board = Board.from_grid(task["grid"])
    if measure == "rate":
        return timed(partial(rate, board))[0]
    seconds, found = timed(partial(sweep_mines, BoardManager(board)))
    if found != task["grid"]:
        raise AssertionError("wrong board from sweep_mines")
    return seconds


def serve() -> None:
    """The worker's loop: one JSON task a line in, its seconds a line out."""
    for line in sys.stdin:
        print(json.dumps(work(json.loads(line))), flush=True)


class Worker:
    """A worker process importing ``mineshafted`` from ``root`` (a checkout's top folder)."""

    def __init__(self, root: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(root)}
        script = Path(__file__).resolve()
        self.process = subprocess.Popen(
            [sys.executable, str(script), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=script.parent,  # not a checkout's top: the path decides which package
        )

    def time(self, task: dict[str, Any]) -> float:
        """Seconds the task took in this worker."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(task) + "\n")
        self.process.stdin.flush()
        return float(self.process.stdout.readline())

    def close(self) -> None:
        """End the worker."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def guard(against: Path, boards: int, repeats: int, seed: int, only: str | None = None) -> None:
    """Time the guard's measures old (``against``) and new (this checkout) alternately
    (``only``: just the measures whose name starts so)."""
    new = Worker(Path(__file__).resolve().parent.parent)
    old = Worker(against)
    print(f"# old: {against}; {boards} boards, best of {repeats}, old and new alternating")
    print("| measure | board | old (median) | new (median) | new / old |")
    print("|---|---|---:|---:|---:|")
    try:
        for measure, (rows, cols, mines) in GUARD:
            if only is not None and not measure.startswith(only):
                continue
            count = boards if measure != "generate ac3" else max(3, boards // 3)
            if measure == "generate ac3":
                tasks = [
                    {"measure": measure, "size": [rows, cols, mines], "seed": seed + i}
                    for i in range(count)
                ]
            else:
                made = generate_many(rows, cols, mines, count, seed=seed)
                tasks = [{"measure": measure, "grid": g.board.to_grid()} for g in made]
            best: dict[str, list[float]] = {"old": [], "new": []}
            for task in tasks:
                fastest = {"old": float("inf"), "new": float("inf")}
                for repeat in range(repeats):
                    order = [("old", old), ("new", new)]
                    for name, worker in order if repeat % 2 == 0 else order[::-1]:
                        fastest[name] = min(fastest[name], worker.time(task))
                for name in best:
                    best[name].append(fastest[name])
            o, n = statistics.median(best["old"]), statistics.median(best["new"])
            print(
                f"| {measure} | {rows}x{cols}/{mines} ({count}) | {o * 1e3:.2f} ms | "
                f"{n * 1e3:.2f} ms | {n / o:.3f} |",
                flush=True,
            )
    finally:
        old.close()
        new.close()


def main(argv: list[str] | None = None) -> None:
    if argv is None and sys.argv[1:] == ["--serve"]:
        serve()
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", nargs="+", type=parse_size, default=[parse_size(s) for s in DEFAULT_SIZES]
    )
    parser.add_argument("--boards", type=int, default=20, help="boards per size (default 20)")
    parser.add_argument(
        "--repeats", type=int, default=3, help="timings per board, best kept (default 3)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="generator seed (default 2026)")
    parser.add_argument(
        "--managers",
        type=parse_managers,
        default=list(MANAGERS),
        help=f"comma-separated managers to time under (default {','.join(MANAGERS)})",
    )
    parser.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        help="time the speed guard against the checkout in DIR, alternating (see above)",
    )
    parser.add_argument(
        "--only", metavar="MEASURE", help="with --against: only sweep, rate or generate"
    )
    args = parser.parse_args(argv)
    if args.against is not None:
        guard(args.against, args.boards, args.repeats, args.seed, args.only)
        return
    managers: list[str] = args.managers
    print(
        f"# python {sys.version.split()[0]}, {args.boards} boards per size, best of {args.repeats}"
    )
    header = ["board"]
    for name in managers:
        header += [
            f"sweep ({name})",
            f"oracle ({name})",
            f"sweep / oracle ({name})",
            f"rings / oracle ({name})",
        ]
    print("| " + " | ".join(header) + " |")
    print("|---|" + "---:|" * (len(header) - 1))
    for rows, cols, mines in args.sizes:
        boards = args.boards if rows * cols < 10_000 else max(3, args.boards // 4)
        timings = bench(rows, cols, mines, boards, args.repeats, args.seed, managers)
        cells = [f"{rows}x{cols}/{mines} ({boards} boards)"]
        for name in managers:
            t = timings[name]
            cells += [
                f"{statistics.median(t.sweep) * 1e3:.2f} ms",
                f"{statistics.median(t.oracle) * 1e3:.3f} ms",
                f"{t.ratio:.1f}x",
                f"{statistics.median(t.rings) / statistics.median(t.oracle):.1f}x",
            ]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
