"""Benchmark classic play: win rates on the standard levels, what each ingredient adds, speed.

Strength: every policy plays the same games (the same base seed, so game ``i`` is the same
board for each) on beginner 8x8/10 and 9x9/10, intermediate 16x16/40 and expert 30x16/99,
first click safe at the corner (Tu et al. 2017's rules), and expert with an opening at (3,3)
too. Printed as a Markdown table: games, wins, win rate and its 95% Wilson interval, and the
published figure to compare with. ``--ablation`` adds expert rows for ``best`` with each
ingredient switched off in turn. ``--speed`` times expert games: the median time of one game
in this process, and games per second with ``--jobs`` processes.

    python scripts/bench_play.py                                 # 2,000 games a row, 2 jobs
    python scripts/bench_play.py --games 20000 --expert-games 100000 --jobs 2
    python scripts/bench_play.py --games 200 --levels expert --ablation --speed
    python scripts/bench_play.py ... --out bench/   # keep the games; an interrupted run resumes
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from mineshafted.game import FirstMove
from mineshafted.probability import play_game
from mineshafted.studies import Study, game_seed, run_study, summarise


@dataclass(frozen=True)
class Level:
    """A row group of the strength table: a board, a first move and the figure to beat."""

    name: str
    rows: int
    cols: int
    mines: int
    first: FirstMove
    start: str
    target: str
    """The published figure (and where from)."""


LEVELS = {
    "beginner8": Level("beginner 8x8/10", 8, 8, 10, FirstMove.SAFE, "corner", "81.79% (Tu)"),
    "beginner9": Level("beginner 9x9/10", 9, 9, 10, FirstMove.SAFE, "corner", "91.70% (Tu)"),
    "intermediate": Level(
        "intermediate 16x16/40", 16, 16, 40, FirstMove.SAFE, "corner", "78.22% (Tu)"
    ),
    "expert": Level("expert 30x16/99", 16, 30, 99, FirstMove.SAFE, "corner", "40.06% (Tu)"),
    "expert-opening": Level(
        "expert 30x16/99, opening at (3,3)",
        16,
        30,
        99,
        FirstMove.OPENING,
        "3,3",
        "54% (JSMinesweeper)",
    ),
}
"""The levels by their ``--levels`` name. Expert is 16 rows of 30 columns."""

ABLATION = [
    "best",
    "best-tolerance",
    "best-corners",
    "best-lookahead",
    "best-progress",
    "best-endgame",
    "best-fifty",
    "safest",
]
"""``best`` and each ingredient switched off in turn (``policy_named`` reads the names)."""


def strength(
    level: Level, policy: str, games: int, seed: int, jobs: int, out: Path | None = None
) -> tuple[str, float]:
    """One Markdown row for ``policy`` on ``level``, and the seconds it took; with ``out``
    (a directory) the games are kept there, one JSON Lines file a row, and a run resumes."""
    study = Study(
        level.rows,
        level.cols,
        level.mines,
        games=games,
        seed=seed,
        first=level.first,
        start=level.start,
        policy=policy,
    )
    began = time.perf_counter()
    path = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{level.rows}x{level.cols}-{level.mines}-{level.start}-{policy}-{seed}.jsonl"
    summary = summarise(run_study(study, jobs=jobs, out=path).lines)
    took = time.perf_counter() - began
    low, high = summary.ci95
    row = (
        f"| {level.name} | {policy} | {summary.games} | {summary.wins} | "
        f"{summary.win_rate:.2%} | {low:.2%} - {high:.2%} | {summary.guesses_per_game:.2f} | "
        f"{level.target} |"
    )
    return row, took


def speed(games: int, seed: int, jobs: int) -> list[str]:
    """Expert (corner, safe) with ``best``: median ms per game here; games/s with ``jobs``."""
    times = [play_game(16, 30, 99, seed=game_seed(seed, i)).seconds for i in range(games)]
    times.sort()
    study = Study(16, 30, 99, games=games, seed=seed + 1)
    began = time.perf_counter()
    run_study(study, jobs=jobs)
    wall = time.perf_counter() - began
    p90 = times[int(0.9 * (len(times) - 1))]
    return [
        "| measure | value |",
        "|---|---|",
        f"| expert game, median (1 process, {games} games) | "
        f"{statistics.median(times) * 1000:.1f} ms |",
        f"| expert game, p90 / mean | {p90 * 1000:.1f} ms / "
        f"{statistics.fmean(times) * 1000:.1f} ms |",
        f"| expert games per second, --jobs {jobs} ({games} games) | {games / wall:.1f} |",
    ]


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games a row (not expert)")
    parser.add_argument("--expert-games", type=int, default=None, help="games an expert row")
    parser.add_argument("--seed", type=int, default=0, help="base seed of every row")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--levels",
        default=",".join(LEVELS),
        help=f"comma-separated, of: {', '.join(LEVELS)} ('' for none: --speed alone)",
    )
    parser.add_argument("--policies", default="best,safest,random", help="comma-separated")
    parser.add_argument("--ablation", action="store_true", help="expert rows per ingredient")
    parser.add_argument("--speed", action="store_true", help="time expert games")
    parser.add_argument("--speed-games", type=int, default=400, help="games for --speed")
    parser.add_argument(
        "--out", type=Path, default=None, help="keep every row's games here, and resume from them"
    )
    args = parser.parse_args(argv)
    expert_games = args.expert_games if args.expert_games is not None else args.games
    print(
        f"Command: python scripts/bench_play.py {' '.join(sys.argv[1:] if argv is None else argv)}"
    )
    print()
    print("| level | policy | games | wins | win rate | 95% CI | guesses/game | published |")
    print("|---|---|---|---|---|---|---|---|")
    rows: dict[tuple[str, str], str] = {}
    for key in filter(None, args.levels.split(",")):
        level = LEVELS[key]
        games = expert_games if key.startswith("expert") else args.games
        for policy in args.policies.split(","):
            row, took = strength(level, policy, games, args.seed, args.jobs, args.out)
            rows[key, policy] = row
            print(row, flush=True)
            print(f"  ({took:.0f} s)", file=sys.stderr, flush=True)
    if args.ablation:
        print()
        print("What each ingredient of best adds (expert 30x16/99, safe corner, same seeds):")
        print()
        print("| level | policy | games | wins | win rate | 95% CI | guesses/game | published |")
        print("|---|---|---|---|---|---|---|---|")
        for policy in ABLATION:
            row = (
                rows.get(("expert", policy))
                or strength(LEVELS["expert"], policy, expert_games, args.seed, args.jobs, args.out)[
                    0
                ]
            )
            print(row, flush=True)
    if args.speed:
        print()
        for line in speed(args.speed_games, args.seed, args.jobs):
            print(line, flush=True)


if __name__ == "__main__":
    main()
