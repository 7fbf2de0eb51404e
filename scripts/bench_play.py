"""Benchmark classic play: win rates on the standard levels, what each ingredient adds, speed.

Strength: every policy plays the same games (the same base seed, so game ``i`` is the same
board for each) on beginner 8x8/10 and 9x9/10, intermediate 16x16/40 and expert 30x16/99,
first reveal safe at the corner (Tu et al. 2017's rules), and expert with an opening at (3,3)
too. Printed as a Markdown table: games, wins, win rate and its 95% Wilson interval, and the
published figure to compare with; then, with two policies or more, each policy paired game by
game with the first one (the difference of win rates with its 95% Newcombe interval, the games
only one of them won, McNemar's exact p). ``--ablation`` adds expert rows for ``best`` with each
ingredient switched off in turn. ``--speed`` times expert games of ``--speed-policy`` (default
``best``): the median, p90, p99 and slowest time of one game in this process, and games per
second with ``--jobs`` processes.

``--against DIR`` plays the same rows again with the package of an older commit extracted in
``DIR`` (``git archive 20e24f7 | tar -x -C DIR``), by that commit's own copy of this script,
keeping its games under ``OUT/against-DIR/``, and pairs each row with it game by game: the
new code against the old on identical boards.

``--boards FILE`` plays the boards of a file (``mineshafted play --boards``'s format) with each
policy instead of the levels, and pairs them the same way. ``--compare A B`` pairs two results
files game by game: two of ours (``--out``), or one of another program's harness that played
the same boards (one JSON line a game, with ``index`` and ``outcome``); ``--indices START:END``
pairs only games START to END-1. ``--write-boards FILE``
writes the boards a level's games are played on (the first level of ``--levels``, its number
of games, ``--seed``) as a boards file, for another program to play, and plays nothing.

    python scripts/bench_play.py                                 # 2,000 games a row, 2 jobs
    python scripts/bench_play.py --games 20000 --expert-games 100000 --jobs 2
    python scripts/bench_play.py --games 200 --levels expert --ablation --speed
    python scripts/bench_play.py ... --out bench/   # keep the games; an interrupted run resumes
    python scripts/bench_play.py --levels expert --games 1000 --write-boards expert.jsonl
    python scripts/bench_play.py --boards expert.jsonl --policies best,safest --out bench/
    python scripts/bench_play.py --compare bench/best.jsonl theirs.jsonl
    python scripts/bench_play.py --compare new.jsonl expert-corner.jsonl --indices 25000:125000
    python scripts/bench_play.py --levels expert --policies best --expert-games 100000 \
        --seed 3 --jobs 1 --out bench/ --against /tmp/mineshafted-20e24f7
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from random import Random

from mineshafted.board import PartialGrid
from mineshafted.errors import MineshaftedError
from mineshafted.game import AfterMine, FirstMove, Game, GameStatus, Rules
from mineshafted.probability import Odds, Policy, play_game, policy_named, start_cell
from mineshafted.probability.endgame import PLACEMENTS
from mineshafted.solver import Position
from mineshafted.studies import (
    BoardsStudy,
    GameLine,
    Paired,
    Study,
    SummaryFold,
    boards_study,
    compare,
    game_seed,
    pair,
    read_results,
    run_study,
    wilson,
)


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

HEADING = [
    "| level | policy | games | wins | win rate | 95% CI | guesses/game | published |",
    "|---|---|---|---|---|---|---|---|",
]
"""The strength table's head."""

PAIRED_HEADING = [
    "| level | policy | vs | games | wins | vs wins | difference | 95% CI | only policy won "
    "| only vs won | McNemar p |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
]
"""The paired table's head: each policy against the first, game by game."""


@dataclass(frozen=True)
class Row:
    """One policy's games on one level: its strength row, whether it won each game (by index,
    for the paired table) and the seconds taken."""

    row: str
    won: dict[int, bool]
    seconds: float


def strength(
    level: Level, policy: str, games: int, seed: int, jobs: int, out: Path | None = None
) -> Row:
    """``policy`` on ``level``: its Markdown row and games; with ``out`` (a directory) the
    games are kept there, one JSON Lines file a row, and a run resumes."""
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
    name = f"{level.rows}x{level.cols}-{level.mines}-{level.start}-{policy}-{seed}.jsonl"
    return played(study, level.name, level.target, jobs, out, name)


def played(
    study: Study | BoardsStudy, name: str, target: str, jobs: int, out: Path | None, file: str
) -> Row:
    """``study`` run (kept in ``out / file`` when ``out`` is given): its row and games."""
    began = time.perf_counter()
    path = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        path = out / file
    fold = SummaryFold()
    won: dict[int, bool] = {}

    def keep(line: GameLine) -> None:  # the summary, and each game's outcome for the pairing
        fold.add(line)
        won[line.index] = line.outcome is GameStatus.WON

    run_study(study, fold=keep, jobs=jobs, out=path)
    summary = fold.summary()
    took = time.perf_counter() - began
    low, high = summary.ci95
    row = (
        f"| {name} | {study.policy} | {summary.games} | {summary.wins} | "
        f"{summary.win_rate:.2%} | {low:.2%} - {high:.2%} | {summary.guesses_per_game:.2f} | "
        f"{target} |"
    )
    return Row(row, won, took)


def paired_row(name: str, policy: str, base: str, result: Paired) -> str:
    """One Markdown row: ``policy`` against ``base`` on the same games."""
    low, high = result.ci95
    return (
        f"| {name} | {policy} | {base} | {result.games} | {result.first_wins} | "
        f"{result.second_wins} | {result.difference * 100:+.2f} points | "
        f"{low * 100:+.2f} to {high * 100:+.2f} | {result.first_only} | {result.second_only} | "
        f"{result.p_value:.3g} |"
    )


def paired_table(name: str, rows: dict[str, Row]) -> list[str]:
    """Each policy of ``rows`` after the first, paired with the first on ``name``'s games."""
    (base, first), *others = rows.items()
    return [paired_row(name, policy, base, pair(row.won, first.won)) for policy, row in others]


def boards(
    path: Path, policies: list[str], first: FirstMove, seed: int, jobs: int, out: Path | None
) -> Iterator[str]:
    """The boards of ``path`` played by each policy: the strength table, a row as each policy
    finishes, then each policy paired with the first."""
    rows: dict[str, Row] = {}
    yield from HEADING
    for policy in policies:
        study = boards_study(path, first=first, policy=policy, seed=seed)
        file = f"{path.stem}-{first.value}-{policy}-{seed}.jsonl"
        rows[policy] = played(study, path.name, "", jobs, out, file)
        print(f"  ({rows[policy].seconds:.0f} s)", file=sys.stderr, flush=True)
        yield rows[policy].row
    if len(rows) > 1:
        yield from ["", *PAIRED_HEADING, *paired_table(path.name, rows)]


def write_boards(path: Path, level: Level, games: int, seed: int) -> None:
    """The boards of ``level``'s first ``games`` games from ``seed``, as ``play`` draws them
    (the mines drawn at the first reveal, outside its zone), one mine list a line."""
    with path.open("w", encoding="utf-8") as stream:
        for index in range(games):
            rules = Rules(level.first, auto_expand=True, after_mine=AfterMine.END, total_known=True)
            game = Game.draw(
                level.rows, level.cols, level.mines, rules=rules, seed=game_seed(seed, index)
            )
            start = start_cell(level.start, level.rows, level.cols)
            game.reveal(start)
            assert game.board is not None
            mines = [list(game.geometry.coords(cell)) for cell in sorted(game.board.mines)]
            first = list(game.geometry.coords(start))
            line = {"rows": level.rows, "cols": level.cols, "mines": mines, "first": first}
            stream.write(json.dumps(line, separators=(",", ":")) + "\n")


def _indices(text: str) -> range:
    """``"25000:125000"`` -> ``range(25000, 125000)``; an argparse error otherwise."""
    start, colon, end = text.partition(":")
    try:
        indices = range(int(start), int(end)) if colon else None
    except ValueError:
        indices = None
    if indices is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not START:END")
    if indices.start < 0 or not indices:
        raise argparse.ArgumentTypeError(
            f"{text!r} holds no game: START must be 0 or more and below END"
        )
    return indices


def _print_compared(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--compare``'s table (``--indices`` alone is an error)."""
    if args.compare is None:
        parser.error("--indices chooses the games --compare pairs: give --compare too")
    first, second = args.compare
    print("\n".join(compared(first, second, args.indices)))


def compared(first: Path, second: Path, indices: range | None = None) -> list[str]:
    """Two results files of the same games: each one's wins, then the two paired; only the
    games of ``indices`` when given."""
    ours, theirs = read_results(first), read_results(second)
    if indices is not None:
        ours, theirs = (
            replace(results, won={i: w for i, w in results.won.items() if i in indices})
            for results in (ours, theirs)
        )
    result = compare(ours, theirs)
    lines = ["| results | games | wins | win rate | 95% CI |", "|---|---|---|---|---|"]
    for name, results in (("A", ours), ("B", theirs)):
        wins, games = sum(results.won.values()), len(results.won)
        low, high = wilson(wins, games)
        lines.append(
            f"| {name} | {games} | {wins} | {wins / max(games, 1):.2%} | {low:.2%} - {high:.2%} |"
        )
    alone = len(ours.won.keys() ^ theirs.won.keys())
    low, high = result.ci95
    lines += [
        "",
        "| games in both | A wins | B wins | A - B | 95% CI | only A won | only B won "
        "| McNemar p |",
        "|---|---|---|---|---|---|---|---|",
        f"| {result.games} | {result.first_wins} | {result.second_wins} | "
        f"{result.difference * 100:+.2f} points | {low * 100:+.2f} to {high * 100:+.2f} | "
        f"{result.first_only} | {result.second_only} | {result.p_value:.3g} |",
        "",
        f"A is {first}, B {second}.",
        f"Paired by index: {result.games} games in both"
        + ("" if indices is None else f" of games {indices.start} to {indices.stop - 1}")
        + (f"; {alone} in one file only, left out" if alone else "")
        + (
            ""
            if ours.study and theirs.study
            else "; a file without a study line is taken on trust to hold the same boards"
        ),
    ]
    return lines


@dataclass
class Timed:
    """A policy that guesses as ``inner`` does, keeping the seconds of each choice and the
    stall's number of placements."""

    inner: Policy
    guesses: list[tuple[float, int]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.inner.name

    def choose(self, position: Position, odds: Odds, board: PartialGrid, rng: Random) -> int:
        """``inner``'s choice, timed."""
        began = time.perf_counter()
        cell = self.inner.choose(position, odds, board, rng)
        self.guesses.append((time.perf_counter() - began, odds.placements))
        return cell


def spread(seconds: list[float]) -> str:
    """Median / p99 / slowest of ``seconds``, in ms."""
    ms = sorted(t * 1000 for t in seconds)
    if not ms:
        return "none"
    p99 = ms[int(0.99 * (len(ms) - 1))]
    return f"{statistics.median(ms):.1f} / {p99:.1f} / {ms[-1]:.1f} ms"


def speed(games: int, seed: int, jobs: int, policy: str = "best") -> list[str]:
    """Expert (corner, safe) with ``policy``: median ms per game here; games/s with ``jobs``;
    the time of each guess, and of those where the endgame applies."""
    timed = Timed(policy_named(policy))
    times = [
        play_game(16, 30, 99, seed=game_seed(seed, i), policy=timed).seconds for i in range(games)
    ]
    times.sort()
    endgame = [t for t, placements in timed.guesses if placements <= PLACEMENTS]
    study = Study(16, 30, 99, games=games, seed=seed + 1, policy=policy)
    began = time.perf_counter()
    run_study(study, jobs=jobs)
    wall = time.perf_counter() - began
    p90 = times[int(0.9 * (len(times) - 1))]
    p99 = times[int(0.99 * (len(times) - 1))]
    return [
        "| measure | value |",
        "|---|---|",
        f"| expert game, median (1 process, {games} games) | "
        f"{statistics.median(times) * 1000:.1f} ms |",
        f"| expert game, p90 / mean | {p90 * 1000:.1f} ms / "
        f"{statistics.fmean(times) * 1000:.1f} ms |",
        f"| expert games per second, --jobs {jobs} ({games} games) | {games / wall:.1f} |",
        f"| expert game, p99 / slowest ({policy}) | {p99 * 1000:.1f} ms / "
        f"{times[-1] * 1000:.1f} ms |",
        f"| a guess, median / p99 / slowest ({len(timed.guesses)} guesses) | "
        f"{spread([t for t, _ in timed.guesses])} |",
        f"| a guess at a stall of at most {PLACEMENTS:,} placements (the endgame's reach), "
        f"median / p99 / slowest ({len(endgame)} guesses) | {spread(endgame)} |",
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
    parser.add_argument("--speed-policy", default="best", help="the policy --speed times")
    parser.add_argument(
        "--out", type=Path, default=None, help="keep every row's games here, and resume from them"
    )
    parser.add_argument(
        "--boards", type=Path, default=None, help="play this boards file instead of the levels"
    )
    parser.add_argument(
        "--first",
        choices=[FirstMove.SAFE.value, FirstMove.OPENING.value],
        default=FirstMove.SAFE.value,
        help="with --boards: the first move (opening: every first reveal must be a 0)",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        nargs=2,
        metavar=("A.jsonl", "B.jsonl"),
        default=None,
        help="pair two results files of the same games, game by game, and play nothing",
    )
    parser.add_argument(
        "--indices",
        type=_indices,
        default=None,
        metavar="START:END",
        help="with --compare: only the games START to END-1 (say, those after the games a "
        "change was chosen on)",
    )
    parser.add_argument(
        "--against",
        type=Path,
        default=None,
        metavar="DIR",
        help="also play the rows with the package of an older commit extracted in DIR (needs "
        "--out), and pair each row with it",
    )
    parser.add_argument(
        "--write-boards",
        type=Path,
        default=None,
        metavar="FILE.jsonl",
        help="write the boards of the first level's games as a boards file, and play nothing",
    )
    args = parser.parse_args(argv)
    expert_games = args.expert_games if args.expert_games is not None else args.games
    print(
        f"Command: python scripts/bench_play.py {' '.join(sys.argv[1:] if argv is None else argv)}"
    )
    print()
    try:
        if args.compare is not None or args.indices is not None:
            _print_compared(parser, args)
            return
        if args.write_boards is not None:
            key = next(filter(None, args.levels.split(",")))
            games = expert_games if key.startswith("expert") else args.games
            write_boards(args.write_boards, LEVELS[key], games, args.seed)
            print(f"{games} boards of {LEVELS[key].name} (seed {args.seed}) in {args.write_boards}")
            return
        if args.boards is not None:
            policies = args.policies.split(",")
            first = FirstMove(args.first)
            for line in boards(args.boards, policies, first, args.seed, args.jobs, args.out):
                print(line, flush=True)
            return
    except MineshaftedError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    print("\n".join(HEADING))
    rows: dict[tuple[str, str], Row] = {}
    for key in filter(None, args.levels.split(",")):
        level = LEVELS[key]
        games = expert_games if key.startswith("expert") else args.games
        for policy in args.policies.split(","):
            rows[key, policy] = strength(level, policy, games, args.seed, args.jobs, args.out)
            print(rows[key, policy].row, flush=True)
            print(f"  ({rows[key, policy].seconds:.0f} s)", file=sys.stderr, flush=True)
    paired = [
        line
        for key in filter(None, args.levels.split(","))
        for line in paired_table(
            LEVELS[key].name, {p: row for (k, p), row in rows.items() if k == key}
        )
    ]
    if paired:
        print()
        print("Each policy against the first, game by game on the same boards:")
        print()
        print("\n".join([*PAIRED_HEADING, *paired]), flush=True)
    if args.ablation:
        print()
        print("What each ingredient of best adds (expert 30x16/99, safe corner, same seeds):")
        print()
        print("\n".join(HEADING))
        ablated: dict[str, Row] = {}
        for policy in ABLATION:
            ablated[policy] = rows.get(("expert", policy)) or strength(
                LEVELS["expert"], policy, expert_games, args.seed, args.jobs, args.out
            )
            print(ablated[policy].row, flush=True)
        print()
        print("\n".join([*PAIRED_HEADING, *paired_table(LEVELS["expert"].name, ablated)]))
    if args.speed:
        print()
        for line in speed(args.speed_games, args.seed, args.jobs, args.speed_policy):
            print(line, flush=True)
    if args.against is not None:
        print()
        for line in against(args.against, args.out, list(sys.argv[1:] if argv is None else argv)):
            print(line, flush=True)


def against(old: Path, out: Path | None, argv: list[str]) -> list[str]:
    """The same rows played by the copy of this script in ``old`` (an older commit's files),
    its games kept under ``out/against-<old's name>/``; then each row of ours paired with
    its row there, game by game."""
    if out is None:
        raise SystemExit("error: --against needs --out (both runs keep their games there)")
    theirs = out / f"against-{old.resolve().name}"
    rest: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--against", "--out"):
            skip = True
        elif not arg.startswith(("--against=", "--out=")):
            rest.append(arg)
    script = old / "scripts" / "bench_play.py"
    env = {**os.environ, "PYTHONPATH": str(old.resolve())}
    print(f"The same rows with the package in {old}:", flush=True)
    print(flush=True)
    subprocess.run([sys.executable, str(script), *rest, "--out", str(theirs)], env=env, check=True)
    lines = ["", "Ours against theirs, game by game on the same boards:", "", *PAIRED_HEADING]
    for ours in sorted(out.glob("*.jsonl")):
        other = theirs / ours.name
        if other.exists():
            result = compare(read_results(ours), read_results(other))
            lines.append(paired_row(ours.stem, "ours", "theirs", result))
    return lines


if __name__ == "__main__":
    main()
