"""How often a uniform random board can be swept without a guess, per size.

For each size, draw boards uniformly at random with the start cell (0, 0) and its neighbours
kept clear of mines, exactly as the no-guess generator's first draw does (each draw has its
own seed, taken from the base seed, and is the board ``generate`` would start from with that
seed). Sweep each one from the start through a ``BoardManager``, without the mine total, and
count the boards the sweep finishes. Printed as a markdown table: the share solved with its
95% Wilson score interval, and the same as "1 in X".

    python scripts/solvable_share.py                          # the README's figures
    python scripts/solvable_share.py --sizes 30x16x99 --draws 5000 --seed 7
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator

from sizes import parse_size

from mineshafted import Board, BoardManager, Geometry, Sweep
from mineshafted.studies.summary import wilson

DEFAULT_SIZES = ["9x9x10", "16x16x40", "30x16x99", "30x16x130"]


def uniform_layouts(rows: int, cols: int, mines: int, draws: int, seed: int) -> Iterator[list[int]]:
    """The mines of ``draws`` seeded uniform boards, the start (0, 0) and its neighbours clear
    (each draw seeded from ``seed`` in turn: the draws ``ratings.py`` rates too)."""
    geometry = Geometry(rows, cols)
    keep_clear = {0, *geometry.neighbours(0)}
    open_cells = [c for c in range(geometry.cells) if c not in keep_clear]
    if mines > len(open_cells):
        sys.exit(f"{mines} mines do not fit on {rows}x{cols} outside the start and its neighbours")
    seeds = random.Random(seed)
    for _ in range(draws):
        yield random.Random(seeds.randrange(2**63)).sample(open_cells, mines)


def solved_draws(rows: int, cols: int, mines: int, draws: int, seed: int) -> int:
    """How many of ``draws`` seeded uniform boards the sweep finishes from (0, 0)."""
    solved = 0
    for layout in uniform_layouts(rows, cols, mines, draws, seed):
        board = Board.from_mines(rows, cols, layout)
        solved += Sweep(BoardManager(board)).run().solved
    return solved


def one_in(share: float) -> str:
    """A share as "1 in X", to three figures: ``0.25`` -> ``"1 in 4.00"``; ``0`` -> ``"none"``.

    >>> one_in(0.25), one_in(1 / 13.7), one_in(0.0004), one_in(0)
    ('1 in 4.00', '1 in 13.7', '1 in 2,500', 'none')
    """
    if share <= 0:
        return "none"
    x = 1 / share
    return f"1 in {x:#.3g}" if x < 100 else f"1 in {x:,.0f}"


def one_in_range(low: float, high: float) -> str:
    """An interval of shares as "1 in A to B", the commoner end first.

    >>> one_in_range(0.05, 0.1), one_in_range(0.0, 0.0002)
    ('1 in 10.0 to 20.0', '1 in 5,000 or rarer')
    """
    if low <= 0:
        return f"{one_in(high)} or rarer"
    return f"{one_in(high)} to {one_in(low).removeprefix('1 in ')}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", nargs="+", type=parse_size, default=[parse_size(s) for s in DEFAULT_SIZES]
    )
    parser.add_argument(
        "--draws", type=int, default=20_000, help="uniform boards per size (default 20,000)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="base seed (default 2026)")
    args = parser.parse_args(argv)
    if args.draws < 1:
        parser.error("--draws must be at least 1")
    print(
        f"# python {sys.version.split()[0]}, {args.draws} uniform draws per size, seed "
        f"{args.seed}, start (0, 0) and its neighbours clear, 95% Wilson intervals"
    )
    print("| board | draws | solved | share solved (95% CI) | about | 1 in X, 95% CI |")
    print("|---|---:|---:|---:|---:|---:|")
    for rows, cols, mines in args.sizes:
        began = time.perf_counter()
        solved = solved_draws(rows, cols, mines, args.draws, args.seed)
        low, high = wilson(solved, args.draws)
        seconds = time.perf_counter() - began
        print(
            f"| {rows}x{cols}/{mines} | {args.draws:,} | {solved:,} | "
            f"{solved / args.draws:.2%} ({low:.2%} to {high:.2%}) | "
            f"{one_in(solved / args.draws)} | {one_in_range(low, high)} |",
            flush=True,
        )
        print(f"# {rows}x{cols}/{mines}: {seconds:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
