"""Benchmark the no-guess generator: time per certified board, and how often it succeeds.

For each size, ask for boards one seed at a time (seeds 0, 1, 2, ...) with a time budget per
board, and report the success rate, the median and p90 seconds of the boards made, and the
median number of perturbations. A failure is a board not certified within the budget.

    python scripts/bench_generate.py                          # the README table
    python scripts/bench_generate.py --sizes 30x16x130 --boards 50 --budget 10
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from sizes import parse_size

from mineshafted.generate import GenerationError, generate

DEFAULT_SIZES = ["9x9x10", "16x16x40", "30x16x99", "30x16x130", "60x60x540", "200x200x5000"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", nargs="+", type=parse_size, default=[parse_size(s) for s in DEFAULT_SIZES]
    )
    parser.add_argument(
        "--boards",
        type=int,
        default=30,
        help="boards per size (default 30; a quarter for 10,000+ cells)",
    )
    parser.add_argument(
        "--budget", type=float, default=30.0, help="seconds allowed per board (default 30)"
    )
    args = parser.parse_args(argv)
    print(f"# python {sys.version.split()[0]}, budget {args.budget:g} s per board")
    print("| board | made | median | p90 | perturbations (median) |")
    print("|---|---:|---:|---:|---:|")
    for rows, cols, mines in args.sizes:
        boards = args.boards if rows * cols < 10_000 else max(3, args.boards // 4)
        seconds: list[float] = []
        perturbations: list[int] = []
        for seed in range(boards):
            began = time.perf_counter()
            try:
                made = generate(rows, cols, mines, seed=seed, timeout=args.budget)
            except GenerationError:
                continue
            seconds.append(time.perf_counter() - began)
            perturbations.append(made.perturbations)
        if not seconds:
            print(f"| {rows}x{cols}/{mines} | 0/{boards} | - | - | - |", flush=True)
            continue
        p90 = (
            statistics.quantiles(seconds, n=10, method="inclusive")[-1]
            if len(seconds) > 1
            else seconds[0]
        )
        print(
            f"| {rows}x{cols}/{mines} | {len(seconds)}/{boards} | "
            f"{statistics.median(seconds) * 1e3:.1f} ms | "
            f"{p90 * 1e3:.1f} ms | {statistics.median(perturbations):g} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
