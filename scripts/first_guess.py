"""Which first guess wins most: ``best`` played on, after each candidate first guess, paired.

After a first reveal at the corner shows a clue (not a 0), the position is the same in every
game that shows that clue: one revealed cell, the rest unknown. So which cell to guess first
is one question per clue, and it can be answered by playing many games out: for each board
whose corner shows ``--clue``, each candidate cell is guessed first and ``best`` plays the rest;
the candidates are compared game by game on the same boards (the difference in games won,
with its 95% Newcombe interval and McNemar's exact p, as ``bench_play.py --compare`` reports a
pair of policies).

The boards are those of ``--seed`` (game ``i`` drawn from ``seed * 10**9 + i``): study one seed,
then confirm on the games of another, since the best of several candidates on one set of
boards is flattered by chance.

Examples::

    python scripts/first_guess.py --clue 1 --games 20000 --candidates 2,0 0,2 2,2 0,29 15,29
    python scripts/first_guess.py --clue 1 --games 200 --candidates 2,0 0,29 --jobs 1
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from time import perf_counter

from mineshafted.board import Cell, PartialGrid
from mineshafted.game import Game, Rules
from mineshafted.probability.odds import Odds
from mineshafted.probability.play import play_game
from mineshafted.probability.policy import Best
from mineshafted.solver import Position
from mineshafted.studies.compare import pair


class NotThisPosition(Exception):
    """The game's first stall is not the one studied: the game is left out."""


class FirstGuess:
    """Guesses ``cell`` at the first stall (which must be the corner showing ``clue`` and
    nothing else), then plays as ``best``."""

    def __init__(self, cell: Cell, clue: int) -> None:
        self.cell, self.clue = cell, clue
        self.first = True
        self.base = Best()

    @property
    def name(self) -> str:
        return f"first-{self.cell}"

    def choose(
        self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random
    ) -> Cell:
        if self.first:
            self.first = False
            shown = sum(value is not None for row in board for value in row)
            if shown != 1 or board[0][0] != self.clue:
                raise NotThisPosition
            return self.cell
        return self.base.choose(position, odds, board, rng)


def corner_clue(rows: int, cols: int, mines: int, seed: int) -> int | None:
    """The clue the corner shows in game ``seed`` when it shows no 0 (``None`` for a 0)."""
    game = Game.draw(rows, cols, mines, rules=Rules.CLASSIC, seed=seed)
    game.reveal(0)
    shown = sum(value is not None for value in game.shown_values)
    return None if shown > 1 else game.shown(0)


def play(args: tuple[int, int, int, int, int, Cell]) -> bool:
    """Whether game ``seed`` is won with ``cell`` guessed first (classic play's own game:
    :func:`~mineshafted.probability.play.play_game`, safe at the corner)."""
    rows, cols, mines, seed, clue, cell = args
    return play_game(rows, cols, mines, seed=seed, policy=FirstGuess(cell, clue)).won


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="16,30,99", help="ROWS,COLS,MINES")
    parser.add_argument("--clue", type=int, default=1)
    parser.add_argument("--games", type=int, default=2000, help="boards showing the clue")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--candidates", nargs="+", default=["2,0", "0,29"], help="R,C cells")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    rows, cols, mines = (int(part) for part in args.level.split(","))
    cells = [int(r) * cols + int(c) for r, c in (cand.split(",") for cand in args.candidates)]
    began = perf_counter()
    seeds: list[int] = []
    index = 0
    while len(seeds) < args.games:
        seed = args.seed * 10**9 + index
        if corner_clue(rows, cols, mines, seed) == args.clue:
            seeds.append(seed)
        index += 1
    print(f"{len(seeds)} boards show {args.clue} at the corner, of {index} drawn", flush=True)
    won: dict[Cell, list[bool]] = {}
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    for cell in cells:
        work = [(rows, cols, mines, seed, args.clue, cell) for seed in seeds]
        won[cell] = list(pool.map(play, work, chunksize=50) if pool else map(play, work))
        wins = sum(won[cell])
        print(f"{divmod(cell, cols)}: {wins / len(seeds):.2%} won ({wins} of {len(seeds)}), "
              f"{perf_counter() - began:.0f} s", flush=True)  # fmt: skip
    if pool:
        pool.shutdown()
    first = cells[0]
    for cell in cells[1:]:
        paired = pair(dict(enumerate(won[cell])), dict(enumerate(won[first])))
        print(paired.text(str(divmod(cell, cols)), str(divmod(first, cols))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
