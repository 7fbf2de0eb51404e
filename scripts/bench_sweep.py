"""Benchmark sweep_mines against the floor of the interface.

For each size, make no-guess boards with the package's generator (seeded, so every run
measures the same boards), then time, alternating on each board:

- ``sweep``:  ``sweep_mines(BoardManager(board))``;
- ``oracle``: a player that already knows the answer and just moves every safe cell and
  builds the grid: the least any sweep through this interface can cost.

The manager is built outside the timed region for both. Reported per size: median and p90
sweep time per board, median time per cell, median oracle time, and the ratio of the two
medians. Run it on a quiet machine; medians of one run are compared, never single timings.

    python scripts/bench_sweep.py                 # the README table
    python scripts/bench_sweep.py --sizes 30x16x99 --boards 50 --repeats 5
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable

from sizes import parse_size

from mineshafted import BoardManager, sweep_mines
from mineshafted.generate import generate_many

DEFAULT_SIZES = ["9x9x10", "16x16x40", "30x16x99", "60x60x540", "200x200x5000"]


def oracle(bm: BoardManager, safe: list[int], rows: int, cols: int) -> list[list[int]]:
    """Move every safe cell and return the grid: the floor of the interface."""
    values = [-1] * (rows * cols)
    move = bm.move
    for cell in safe:
        values[cell] = move(cell)
    return [values[r * cols : (r + 1) * cols] for r in range(rows)]


def timed(run: Callable[[], object]) -> float:
    gc.collect()
    began = time.perf_counter()
    run()
    return time.perf_counter() - began


def p90(values: list[float]) -> float:
    return (
        statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]
    )


def bench(
    rows: int, cols: int, mines: int, boards: int, repeats: int, seed: int
) -> dict[str, float]:
    made = [g.board for g in generate_many(rows, cols, mines, boards, seed=seed)]
    sweep_times: list[float] = []
    oracle_times: list[float] = []
    for board in made:
        truth = board.to_grid()
        safe = [c for c, v in enumerate(board.values) if v >= 0]
        best_sweep = best_oracle = float("inf")
        for _ in range(repeats):
            bm = BoardManager(board)
            result: list[list[int]] = []
            best_sweep = min(best_sweep, timed(lambda: result.append(sweep_mines(bm))))  # noqa: B023
            if result[0] != truth:
                sys.exit(f"wrong board from sweep_mines at {rows}x{cols}/{mines}")
            bm = BoardManager(board)
            best_oracle = min(best_oracle, timed(lambda: oracle(bm, safe, rows, cols)))  # noqa: B023
        sweep_times.append(best_sweep)
        oracle_times.append(best_oracle)
    sweep_median = statistics.median(sweep_times)
    oracle_median = statistics.median(oracle_times)
    return {
        "sweep_median_ms": sweep_median * 1e3,
        "sweep_p90_ms": p90(sweep_times) * 1e3,
        "us_per_cell": sweep_median * 1e6 / (rows * cols),
        "oracle_median_ms": oracle_median * 1e3,
        "ratio": sweep_median / oracle_median,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", nargs="+", type=parse_size, default=[parse_size(s) for s in DEFAULT_SIZES]
    )
    parser.add_argument("--boards", type=int, default=20, help="boards per size (default 20)")
    parser.add_argument(
        "--repeats", type=int, default=3, help="timings per board, best kept (default 3)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="generator seed (default 2026)")
    args = parser.parse_args(argv)
    print(
        f"# python {sys.version.split()[0]}, {args.boards} boards per size, best of {args.repeats}"
    )
    print("| board | sweep median | sweep p90 | per cell | oracle median | sweep / oracle |")
    print("|---|---:|---:|---:|---:|---:|")
    for rows, cols, mines in args.sizes:
        boards = args.boards if rows * cols < 10_000 else max(3, args.boards // 4)
        r = bench(rows, cols, mines, boards, args.repeats, args.seed)
        print(
            f"| {rows}x{cols}/{mines} ({boards} boards) | {r['sweep_median_ms']:.2f} ms | "
            f"{r['sweep_p90_ms']:.2f} ms | {r['us_per_cell']:.2f} µs | "
            f"{r['oracle_median_ms']:.3f} ms | {r['ratio']:.1f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
