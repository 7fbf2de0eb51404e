"""Benchmark the generator's technique options (--technique, --needs, --uniform) and rate.

Each case is timed on seeded boards, one seed per board (``--seed``, ``--seed`` + 1, ...),
once each: a generated board's time is the whole ``generate`` call, a rating's time one
``rate`` of a board made beforehand (outside the timing). Reported per case: the boards made
within ``--budget``, the median and p90 wall-clock seconds, the median processor seconds
(what other work on a shared machine moves less), and for ``--uniform`` the acceptance rate
(boards over draws). The targets table checks the medians the issue asks for; ``--ladder``
adds every technique at one size. Run it on a quiet machine; compare medians of one run,
never single timings.

    python scripts/bench_techniques.py               # the targets, 30 boards a case
    python scripts/bench_techniques.py --quick       # 10 boards a case
    python scripts/bench_techniques.py --ladder --size 30x16x99
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sizes import parse_size

from mineshafted import Technique, rate
from mineshafted.generate import Generated, GenerationError, generate


@dataclass
class Case:
    """One line of a table: what is timed, on which size, and the target median."""

    label: str
    rows: int
    cols: int
    mines: int
    run: Callable[[int], Generated | None]
    """One seed's timed work; returns the board made, or ``None`` for a rating."""
    target: float | None = None
    """Seconds the median should not exceed."""
    prepare: Callable[[int], object] | None = None
    """One seed's work before the timing (making the board a rating times)."""


@dataclass
class Timings:
    """What one case measured."""

    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    """Processor seconds of the same runs: less moved by other work on a shared machine."""
    failed: int = 0
    boards: int = 0
    draws: int = 0

    def row(self, case: Case) -> str:
        """The case as a markdown table row."""
        made = f"{len(self.seconds)}/{len(self.seconds) + self.failed}"
        label = f"{case.label} {case.rows}x{case.cols}/{case.mines}"
        if not self.seconds:
            return f"| {label} | {made} | - | - | - | - | {_target(case, None)} |"
        median = statistics.median(self.seconds)
        p90 = (
            statistics.quantiles(self.seconds, n=10, method="inclusive")[-1]
            if len(self.seconds) > 1
            else self.seconds[0]
        )
        rate_ = f"{self.boards / self.draws:.1%}" if self.draws else "-"
        cpu = _ms(statistics.median(self.cpu))
        return (
            f"| {label} | {made} | {_ms(median)} | {_ms(p90)} | {cpu} | {rate_} | "
            f"{_target(case, median)} |"
        )


def making(
    rows: int,
    cols: int,
    mines: int,
    budget: float,
    technique: Technique = Technique.COMPLETE,
    *,
    needs: bool = False,
    uniform: bool = False,
) -> Callable[[int], Generated | None]:
    """One seed's ``generate`` with these options."""

    def run(seed: int) -> Generated | None:
        return generate(
            rows,
            cols,
            mines,
            seed=seed,
            timeout=budget,
            technique=technique,
            needs=needs,
            uniform=uniform,
        )

    return run


def rating(rows: int, cols: int, mines: int) -> Case:
    """``rate`` of the default board of each seed, made before the timing."""
    boards: dict[int, Generated] = {}

    def prepare(seed: int) -> Generated:
        if seed not in boards:
            boards[seed] = generate(rows, cols, mines, seed=seed, timeout=None)
        return boards[seed]

    def run(seed: int) -> Generated | None:
        made = boards[seed]
        rate(made.board, start=made.start)
        return None

    return Case("rate", rows, cols, mines, run, 0.020, prepare)


def measure(case: Case, seeds: range) -> Timings:
    """Time ``case`` once per seed, after a garbage collection each time."""
    timings = Timings()
    for seed in seeds:
        if case.prepare is not None:
            case.prepare(seed)
        gc.collect()
        began, cpu = time.perf_counter(), time.process_time()
        try:
            made = case.run(seed)
        except GenerationError:
            timings.failed += 1
            continue
        timings.seconds.append(time.perf_counter() - began)
        timings.cpu.append(time.process_time() - cpu)
        if made is not None and made.uniform:
            timings.boards += 1
            timings.draws += made.draws
    return timings


def targets(budget: float) -> list[Case]:
    """The four medians the issue sets."""
    return [
        Case(
            "generate --technique ac3",
            *(30, 16, 99),
            making(30, 16, 99, budget, technique=Technique.AC3),
            0.010,
        ),
        Case(
            "generate --needs complete",
            *(16, 16, 40),
            making(16, 16, 40, budget, technique=Technique.COMPLETE, needs=True),
            1.0,
        ),
        Case("generate --uniform", *(30, 16, 99), making(30, 16, 99, budget, uniform=True), 0.050),
        rating(30, 16, 99),
    ]


def ladder(rows: int, cols: int, mines: int, budget: float) -> list[Case]:
    """Every technique with each option at one size."""
    cases = []
    for technique in Technique.solving():
        name = technique.value
        for label, needs, uniform in (
            (f"--technique {name}", False, False),
            (f"--needs {name}", True, False),
            (f"--uniform --technique {name}", False, True),
        ):
            run = making(rows, cols, mines, budget, technique, needs=needs, uniform=uniform)
            cases.append(Case(label, rows, cols, mines, run))
    return cases


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=30, help="seeds per case (default 30)")
    parser.add_argument(
        "--quick", action="store_true", help="10 seeds per case (overrides --boards)"
    )
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument(
        "--budget", type=float, default=60.0, help="seconds allowed per board (default 60)"
    )
    parser.add_argument(
        "--ladder", action="store_true", help="also time every technique with each option"
    )
    parser.add_argument(
        "--size",
        type=parse_size,
        default=parse_size("16x16x40"),
        help="the size of the --ladder table (default 16x16x40)",
    )
    args = parser.parse_args(argv)
    boards = 10 if args.quick else args.boards
    if boards < 1:
        parser.error("--boards must be at least 1")
    seeds = range(args.seed, args.seed + boards)
    print(
        f"# python {sys.version.split()[0]}, seeds {seeds.start}..{seeds.stop - 1}, "
        f"one run each, budget {args.budget:g} s per board"
    )
    tables = [("targets", targets(args.budget))]
    if args.ladder:
        rows, cols, mines = args.size
        table = ladder(rows, cols, mines, args.budget)
        tables.append((f"every technique at {rows}x{cols}/{mines}", table))
    for title, cases in tables:
        print(f"\n{title}:\n")
        print("| case | made | median | p90 | median CPU | acceptance | target (median) |")
        print("|---|---:|---:|---:|---:|---:|---|")
        for case in cases:
            print(measure(case, seeds).row(case), flush=True)


def _ms(seconds: float) -> str:
    """Seconds as milliseconds, to a tenth."""
    return f"{seconds * 1e3:.1f} ms"


def _target(case: Case, median: float | None) -> str:
    """The target and whether the median met it.

    >>> _target(Case("x", 1, 1, 0, lambda seed: None, 0.01), 0.004)
    '≤ 10.0 ms: met'
    >>> _target(Case("x", 1, 1, 0, lambda seed: None), 0.004)
    ''
    """
    if case.target is None:
        return ""
    verdict = "no board made" if median is None else "met" if median <= case.target else "missed"
    return f"≤ {_ms(case.target)}: {verdict}"


if __name__ == "__main__":
    main()
