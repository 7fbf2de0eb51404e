"""What the endgame's budget costs on a small board: the time of each of ``best``'s guesses.

Plays games of one board (first click safe at the corner, seeds 0, 1, ...) with ``best``, once
for each budget of sets of placements given to a small board
(:data:`mineshafted.probability.endgame.SMALL_NODES`, read by ``nodes_for``), and prints the
games won, the time of a guess (median, 99th percentile, slowest) and of a game (median, 99th
percentile, mean). The same seeds for every budget, so the games differ only where a budget
changes a choice.

    python scripts/bench_endgame.py                       # 5x5/5, 200 games, 20,000 and 100,000
    python scripts/bench_endgame.py --board 4x5x5 --games 500 --budgets 20000,100000,200000
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field

from sizes import parse_size

from mineshafted.board import Cell, PartialGrid
from mineshafted.probability import Best, Odds, endgame, play_game
from mineshafted.solver import Position


@dataclass
class Timed:
    """``best``, with the time each choice took."""

    inner: Best = field(default_factory=Best)
    seconds: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.inner.name

    def choose(
        self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random
    ) -> Cell:
        began = time.perf_counter()
        cell = self.inner.choose(position, odds, board, rng)
        self.seconds.append(time.perf_counter() - began)
        return cell


def percentile(values: list[float], share: int) -> float:
    """The ``share``-th percentile of ``values``, inclusive (a single value is every one).

    >>> percentile([1.0, 2.0, 3.0], 50), percentile([5.0], 99)
    (2.0, 5.0)
    """
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[share - 1]


def run(rows: int, cols: int, mines: int, games: int, budget: int) -> str:
    """One line: ``games`` games of the board with ``budget`` sets on a small board."""
    usual = endgame.SMALL_NODES
    endgame.SMALL_NODES = budget  # read by nodes_for at every search
    try:
        policy = Timed()
        won, took = 0, []
        for seed in range(games):
            began = time.perf_counter()
            won += play_game(rows, cols, mines, seed=seed, policy=policy).won
            took.append(time.perf_counter() - began)
    finally:
        endgame.SMALL_NODES = usual
    guesses = policy.seconds or [0.0]
    return (
        f"{rows}x{cols}/{mines}, budget {budget:,}: {won}/{games} won; a guess "
        f"{statistics.median(guesses) * 1000:.1f} ms median, p99 "
        f"{percentile(guesses, 99) * 1000:.0f} ms, slowest {max(guesses) * 1000:.0f} ms "
        f"({len(policy.seconds)} guesses); a game {statistics.median(took) * 1000:.1f} ms "
        f"median, p99 {percentile(took, 99) * 1000:.0f} ms, mean "
        f"{statistics.mean(took) * 1000:.0f} ms"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--board", type=parse_size, default=(5, 5, 5), help="ROWSxCOLSxMINES (default 5x5x5)"
    )
    parser.add_argument("--games", type=int, default=200, help="games per budget (default 200)")
    parser.add_argument(
        "--budgets", default="20000,100000", help="comma-separated budgets (default 20000,100000)"
    )
    args = parser.parse_args(argv)
    rows, cols, mines = args.board
    for budget in (int(part) for part in args.budgets.split(",")):
        print(run(rows, cols, mines, args.games, budget), flush=True)


if __name__ == "__main__":
    main()
