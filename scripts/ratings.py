"""The distribution of ratings over uniform random boards, per size (the docs' techniques page).

For each size, draw boards uniformly with the start cell (0, 0) and its neighbours clear of
mines (the same draws as ``solvable_share.py`` with the same seed), rate each one with
``mineshafted.rate`` from (0, 0), and print two markdown tables: the share of all draws rated
each technique, and the same shares among the boards some technique solves (rated ``total``
or below) — that is, the ratings of no-guess boards drawn uniformly. Shares carry 95% Wilson
intervals; the second table says on how many boards it rests.

    python scripts/ratings.py                              # the docs' figures
    python scripts/ratings.py --sizes 30x16x99 --draws 2000 --seed 7
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

from sizes import parse_size
from solvable_share import uniform_layouts

from mineshafted import Board, Technique, rate
from mineshafted.game import LEVELS
from mineshafted.studies.summary import wilson

DEFAULT_SIZES = ["9x9x10", "16x16x40", "30x16x99"]
NAMES = {(rows, cols, mines): name for name, (rows, cols, mines) in LEVELS.items()}
"""A level's name by its size, either way round (the expert board is run as 30x16 here)."""
NAMES |= {(cols, rows, mines): name for (rows, cols, mines), name in list(NAMES.items())}


def ratings(
    rows: int, cols: int, mines: int, draws: int, seed: int
) -> tuple[Counter[Technique], list[float]]:
    """The ratings of ``draws`` seeded uniform boards from (0, 0), and each rating's seconds."""
    tally: Counter[Technique] = Counter()
    seconds = []
    for layout in uniform_layouts(rows, cols, mines, draws, seed):
        rating = rate(Board.from_mines(rows, cols, layout))
        tally[rating.technique] += 1
        seconds.append(rating.seconds)
    return tally, seconds


def share(count: int, total: int) -> str:
    """``count`` of ``total`` as a percentage with its 95% Wilson interval."""
    if not total:
        return "-"
    low, high = wilson(count, total)
    return f"{count / total:.1%} ({low:.1%}-{high:.1%})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", nargs="+", type=parse_size, default=[parse_size(s) for s in DEFAULT_SIZES]
    )
    parser.add_argument("--draws", type=int, default=5000, help="boards per size (default 5,000)")
    parser.add_argument("--seed", type=int, default=2026, help="base seed (default 2026)")
    args = parser.parse_args(argv)
    if args.draws < 1:
        parser.error("--draws must be at least 1")
    results = []
    for rows, cols, mines in args.sizes:
        began = time.perf_counter()
        tally, seconds = ratings(rows, cols, mines, args.draws, args.seed)
        results.append(((rows, cols, mines), tally))
        print(
            f"# {rows}x{cols}/{mines}: {time.perf_counter() - began:.1f} s, median rate "
            f"{statistics.median(seconds) * 1000:.2f} ms",
            file=sys.stderr,
        )
    print(
        f"# python {sys.version.split()[0]}, {args.draws:,} uniform draws per size, seed "
        f"{args.seed}, start (0, 0) and its neighbours clear, 95% Wilson intervals"
    )
    names = [t.value for t in Technique]
    print("\nAll draws, by rating:\n")
    print(f"| board | {' | '.join(names)} |")
    print("|---|" + "---:|" * len(names))
    for (rows, cols, mines), tally in results:
        cells = [share(tally[t], args.draws) for t in Technique]
        print(f"| {_name(rows, cols, mines)} | {' | '.join(cells)} |")
    solving = Technique.solving()
    print("\nNo-guess draws (rated total or below), by rating:\n")
    print(f"| board | boards | {' | '.join(t.value for t in solving)} |")
    print("|---|---:|" + "---:|" * len(solving))
    for (rows, cols, mines), tally in results:
        total = sum(tally[t] for t in solving)
        cells = [share(tally[t], total) for t in solving]
        print(f"| {_name(rows, cols, mines)} | {total:,} | {' | '.join(cells)} |")


def _name(rows: int, cols: int, mines: int) -> str:
    """The size as written, with its level's name when it is one."""
    level = NAMES.get((rows, cols, mines))
    return f"{rows}x{cols}/{mines}" + (f" ({level})" if level else "")


if __name__ == "__main__":
    main()
