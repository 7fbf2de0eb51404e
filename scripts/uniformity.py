"""Is `generate --uniform` uniform, and how biased is the perturbation generator? (docs' figures)

1. **Exact test on a small size.** Enumerate every layout of ROWSxCOLS/MINES with the start
   cell (0, 0) and its neighbours clear, and keep those the technique solves: the population
   `--uniform` must draw from evenly. Draw boards with `generate(..., uniform=True)` and count
   how often each layout comes up; a chi-square goodness-of-fit test against equal counts gives
   a p-value (a uniform generator gives p-values spread evenly on [0, 1]; a biased one, p
   near 0). The perturbation generator (`generate` without `uniform`) is put to the same test.
2. **Where the mines go.** On the same boards, the share of mines in the corners, on the other
   edge cells and inside, against the exact shares over the population.
3. **At a real size** (30x16/99 by default, too many layouts to enumerate): the same shares from
   uniform boards and from perturbed boards, side by side, and how clustered the mines are
   (mined neighbours per mine, averaged over boards), with 95% intervals.

    python scripts/uniformity.py                       # the docs' figures
    python scripts/uniformity.py --small 4x4x3 --draws 4000 --large 16x16x40 --boards 500
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator

from sizes import parse_size

from mineshafted import Board, BoardManager, Geometry, Sweep, Technique
from mineshafted.generate import Generated, generate
from mineshafted.studies.summary import wilson

REGIONS = ("corner", "edge", "inside")


def population(rows: int, cols: int, mines: int, technique: Technique) -> list[frozenset[int]]:
    """Every layout (start area clear) that ``technique`` solves from (0, 0)."""
    geometry = Geometry(rows, cols)
    clear = {0, *geometry.neighbours(0)}
    cells = [c for c in range(geometry.cells) if c not in clear]
    kept = []
    for layout in itertools.combinations(cells, mines):
        board = Board.from_mines(rows, cols, layout)
        total = mines if technique is Technique.TOTAL else None
        report = Sweep(BoardManager(board), mines=total, technique=technique).run()
        if report.solved:
            kept.append(frozenset(layout))
    return kept


def boards(
    rows: int, cols: int, mines: int, count: int, seed: int, *, uniform: bool, technique: Technique
) -> Iterator[Generated]:
    """``count`` generated boards, each from its own seed drawn from ``seed``."""
    seeds = random.Random(seed)
    for _ in range(count):
        yield generate(
            rows,
            cols,
            mines,
            seed=seeds.randrange(2**63),
            technique=technique,
            uniform=uniform,
            timeout=None,
        )


def chi_square(counts: Iterable[int], expected: float) -> tuple[float, int, float]:
    """The statistic, its degrees of freedom and the p-value of equal expected counts."""
    observed = list(counts)
    statistic = sum((o - expected) ** 2 / expected for o in observed)
    freedom = len(observed) - 1
    return statistic, freedom, upper_gamma(freedom / 2, statistic / 2)


def upper_gamma(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x): the chi-square tail.

    >>> round(upper_gamma(1.0, 2.0), 6) == round(math.exp(-2.0), 6)
    True

    Notes
    -----
    The power series of P below ``x < a + 1``, else Lentz's continued fraction for Q; both to
    a relative error of 1e-14.
    """
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-14:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    i = 0
    while True:
        i += 1
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-14:
            break
    return math.exp(log_front) * h


def region(geometry: Geometry, cell: int) -> str:
    """Whether ``cell`` is a corner, another edge cell, or inside."""
    row, col = geometry.coords(cell)
    on_rows = row in (0, geometry.rows - 1)
    on_cols = col in (0, geometry.cols - 1)
    if on_rows and on_cols:
        return "corner"
    return "edge" if on_rows or on_cols else "inside"


def shares(geometry: Geometry, layouts: Iterable[Iterable[int]]) -> tuple[Counter[str], int]:
    """Mines per region over ``layouts``, and the number of mines in all."""
    tally: Counter[str] = Counter()
    for layout in layouts:
        for cell in layout:
            tally[region(geometry, cell)] += 1
    return tally, sum(tally.values())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=parse_size, default=parse_size("5x5x4"))
    parser.add_argument("--draws", type=int, default=0, help="boards drawn (default: 10 a layout)")
    parser.add_argument("--large", type=parse_size, default=parse_size("30x16x99"))
    parser.add_argument("--boards", type=int, default=2000, help="boards at the large size")
    parser.add_argument("--technique", type=Technique.parse, default=Technique.COMPLETE)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rows, cols, mines = args.small
    technique: Technique = args.technique
    began = time.perf_counter()
    kept = population(rows, cols, mines, technique)
    if not kept:
        sys.exit(f"no {rows}x{cols}/{mines} layout is solved by {technique.value}")
    draws = args.draws or 10 * len(kept)
    geometry = Geometry(rows, cols)
    print(
        f"# python {sys.version.split()[0]}, technique {technique.value}, seed {args.seed}, "
        f"start (0, 0) and its neighbours clear"
    )
    print(
        f"\n{rows}x{cols}/{mines}: {len(kept):,} layouts solved by {technique.value}; "
        f"{draws:,} boards from each generator ({draws / len(kept):.1f} per layout expected)\n"
    )
    print("| generator | distinct layouts drawn | chi-square | df | p-value |")
    print("|---|---:|---:|---:|---:|")
    drawn: dict[str, list[frozenset[int]]] = {}
    for name, uniform in (("uniform", True), ("perturbation", False)):
        layouts = [
            g.board.mines
            for g in boards(
                rows, cols, mines, draws, args.seed, uniform=uniform, technique=technique
            )
        ]
        drawn[name] = layouts
        counts = Counter(layouts)
        stray = set(counts) - set(kept)
        if stray:
            sys.exit(f"{name}: drew {len(stray)} layout(s) outside the population")
        statistic, freedom, p = chi_square((counts[k] for k in kept), draws / len(kept))
        shown = f"{p:.3g}" if p > 0 else "< 1e-300"
        print(f"| {name} | {len(counts):,} | {statistic:,.1f} | {freedom:,} | {shown} |")
    print("\nShare of mines by region (95% intervals):\n")
    print("| boards | " + " | ".join(REGIONS) + " |")
    print("|---|" + "---:|" * len(REGIONS))
    exact, total = shares(geometry, kept)
    print(
        "| every solvable layout (exact) | "
        + " | ".join(f"{exact[r] / total:.1%}" for r in REGIONS)
        + " |"
    )
    for name, layouts in drawn.items():
        print(_shares_row(f"{name} ({len(layouts):,})", geometry, layouts))
    rows, cols, mines = args.large
    geometry = Geometry(rows, cols)
    print(f"\n{rows}x{cols}/{mines}, {args.boards:,} boards from each generator:\n")
    print("| boards | " + " | ".join(REGIONS) + " | mined neighbours per mine | mean draws |")
    print("|---|" + "---:|" * (len(REGIONS) + 2))
    for name, uniform in (("uniform", True), ("perturbation", False)):
        made = list(
            boards(rows, cols, mines, args.boards, args.seed, uniform=uniform, technique=technique)
        )
        mean = sum(g.draws for g in made) / len(made)
        row = _shares_row(name, geometry, [g.board.mines for g in made])
        print(f"{row} {_clustering(geometry, made)} | {mean:.1f} |")
    print(f"# {time.perf_counter() - began:.0f} s", file=sys.stderr)


def _clustering(geometry: Geometry, made: list[Generated]) -> str:
    """The mean number of mined neighbours of a mine, with a 95% interval over boards."""
    means = []
    for g in made:
        mines = g.board.mines
        around = sum(n in mines for m in mines for n in geometry.neighbours(m))
        means.append(around / len(mines))
    mean = sum(means) / len(means)
    spread = math.sqrt(sum((x - mean) ** 2 for x in means) / (len(means) - 1))
    half = 1.96 * spread / math.sqrt(len(means))
    return f"{mean:.3f} ({mean - half:.3f}-{mean + half:.3f})"


def _shares_row(name: str, geometry: Geometry, layouts: list[frozenset[int]]) -> str:
    """A table row: the share of mines in each region, with its 95% Wilson interval."""
    tally, total = shares(geometry, layouts)
    cells = []
    for r in REGIONS:
        low, high = wilson(tally[r], total)
        cells.append(f"{tally[r] / total:.1%} ({low:.1%}-{high:.1%})")
    return f"| {name} | " + " | ".join(cells) + " |"


if __name__ == "__main__":
    main()
