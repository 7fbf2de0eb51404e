"""Benchmark exact mine probabilities on the stalls of uniformly drawn boards.

For each game: draw the mines uniformly (seeded ``random.Random(seed).sample``; the start
cell 0 and its neighbours kept clear), sweep to the first stall with
:class:`mineshafted.Sweep`, and time :func:`mineshafted.probability.odds` on that position.
Then play on: tell the sweep the cells the mine total decides, or else guess the safest cell
(the first of the least likely), advance, and time the next stall's odds; a guess on a mine
ends the game.

The counts of components are remembered (:func:`mineshafted.solver.counted`, a cache), so
what a call costs depends on what came before it. Each stall is timed three ways, in this
order, one call each:

- *cold*: the cache of counts emptied first: what a user pays for a position new to the
  process (``mineshafted probabilities`` on a file; the binomials' small cache stays warm);
- *in play*: the first call on the position with the cache as the game's earlier stalls
  left it (its components met before are not counted again);
- *again*: the same position once more, every count cached (what a best-of-N timing sees).

Printed: the number of positions timed and the median, p90, p99 and max of each, in ms.

    python scripts/bench_probability.py                      # expert, 200 games
    python scripts/bench_probability.py --size 16x16x40 --games 500 --seed 7
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time

from sizes import parse_size

from mineshafted import MINE, Board, BoardManager, Sweep
from mineshafted.probability import Odds, odds
from mineshafted.solver import Position, counted

WAYS = ("cold", "in play", "again")
"""How each stall is timed (see the module's docstring)."""


def draw(rows: int, cols: int, mines: int, seed: int) -> Board:
    """A board of ``mines`` mines drawn uniformly, the start cell 0 and its ring kept clear.

    >>> draw(9, 9, 10, seed=1).mine_total
    10
    """
    board = Board.from_mines(rows, cols, [])
    clear = {0, *board.geometry.neighbours(0)}
    candidates = [cell for cell in range(rows * cols) if cell not in clear]
    return Board.from_mines(rows, cols, random.Random(seed).sample(candidates, mines))


def play(board: Board) -> list[tuple[float, float, float]]:
    """Play one game to its end, timing the odds of every stall (cold, in play, again); seconds
    per stall.

    >>> len(play(draw(9, 9, 10, seed=1)))  # solved without a stall
    0
    >>> len(play(draw(9, 9, 10, seed=4)))  # one stall, then solved or lost
    1
    """
    mines = board.mine_total
    sweep = Sweep(BoardManager(board.to_grid()))
    report = sweep.run()
    timings = []
    while not report.solved:
        position = sweep.position()
        in_play, result = _timed(position, mines)
        counted.cache_clear()
        cold, _ = _timed(position, mines)
        again, _ = _timed(position, mines)
        timings.append((cold, in_play, again))
        facts = result.certain()
        if facts:
            for cell, mine in facts:
                sweep.tell(cell, mine=mine)
        else:
            cell = result.safest()[0]
            if board.values[cell] == MINE:
                break
            sweep.guess(cell)
        report = sweep.advance()
    return timings


def _timed(position: Position, mines: int) -> tuple[float, Odds]:
    """One call of :func:`odds`: its seconds and its result."""
    began = time.perf_counter()
    result = odds(position, mines)
    return time.perf_counter() - began, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, default=(30, 16, 99), help="ROWSxCOLSxMINES")
    parser.add_argument("--games", type=int, default=200, help="games to play")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    args = parser.parse_args()
    rows, cols, mines = args.size
    timings: list[tuple[float, float, float]] = []
    gc.disable()
    for game in range(args.games):
        counted.cache_clear()  # each game starts from an empty cache, as a new process does
        timings += play(draw(rows, cols, mines, args.seed + game))
        gc.collect()
    gc.enable()
    if not timings:
        print("no position to time: every game was solved without a stall")
        return
    print(f"{rows}x{cols}/{mines}: {args.games} games, {len(timings)} positions")
    for way, column in zip(WAYS, zip(*timings, strict=True), strict=True):
        ms = sorted(t * 1000 for t in column)
        q = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else ms * 99
        print(
            f"odds ms, {way}: median {statistics.median(ms):.3f}  p90 {q[89]:.3f}  "
            f"p99 {q[98]:.3f}  max {ms[-1]:.3f}"
        )


if __name__ == "__main__":
    main()
