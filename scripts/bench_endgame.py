"""The endgame's budget: what it costs on a small board, and how often it runs out on any.

Plays games of one board (first reveal safe at the corner, seeds 0, 1, ...) with ``best``, once
for each budget of sets of placements given to a small board
(:data:`mineshafted.probability.endgame.SMALL_NODES`, read by ``nodes_for``), and prints the
games won, the time of a guess and of a game (median / p99 / slowest, as ``bench_play.py
--speed`` gives them) and a game's mean. The same seeds for every budget, so the games differ
only where a budget changes a choice.

    python scripts/bench_endgame.py                       # 5x5/5, 200 games, 20,000 and 100,000
    python scripts/bench_endgame.py --board 4x5x5 --games 500 --budgets 20000,100000,200000

``--ran-out`` asks instead how often a search runs out of its budget on a board (expert, say):
it plays the games with the budgets as they are and counts, from the endgame's own log, the
searches (of the whole board or of an isolated region) that stopped unfinished, and the games
in which one did, with how many of those were won: the most a rule that used an unfinished
search could change. A region's search met again in the same game is remembered, not run
again, so it counts once in that game.

    python scripts/bench_endgame.py --board 16x30x99 --games 2000 --ran-out
"""

from __future__ import annotations

import argparse
import logging
import statistics

from bench_play import Timed, spread
from sizes import parse_size

from mineshafted.probability import Best, endgame, play_game, regions

BUDGETS = "20000,100000"
"""The budgets timed when none are given."""


def run(rows: int, cols: int, mines: int, games: int, budget: int) -> str:
    """One line: ``games`` games of the board with ``budget`` sets on a small board."""
    usual = endgame.SMALL_NODES
    endgame.SMALL_NODES = budget  # read by nodes_for at every search
    try:
        timed = Timed(Best())
        played = [play_game(rows, cols, mines, seed=seed, policy=timed) for seed in range(games)]
    finally:
        endgame.SMALL_NODES = usual
    took = [game.seconds for game in played]
    return (
        f"{rows}x{cols}/{mines}, budget {budget:,}: {sum(game.won for game in played)}/{games} "
        f"won; a guess {spread([t for t, _ in timed.guesses])} ({len(timed.guesses)} guesses); "
        f"a game {spread(took)}, mean {statistics.fmean(took) * 1000:.1f} ms"
    )


class _Counter(logging.Handler):
    """Counts the endgame's "over N nodes" records: one per search that ran out."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("endgame: over"):
            self.count += 1


def ran_out(rows: int, cols: int, mines: int, games: int) -> str:
    """One line: of ``games`` games with the budgets as they are, those in which a search ran
    out (and how many of them were won), and how many searches ran out in all."""
    log = logging.getLogger(endgame.__name__)
    counter = _Counter()
    level, propagate = log.level, log.propagate
    log.addHandler(counter)
    log.setLevel(logging.DEBUG)
    log.propagate = False  # counted here, shown nowhere
    touched = won = 0
    try:
        for seed in range(games):
            before = counter.count
            regions._region_searched.cache_clear()  # each game's searches run in it
            game = play_game(rows, cols, mines, seed=seed)
            if counter.count > before:
                touched += 1
                won += game.won
    finally:
        log.removeHandler(counter)
        counter.close()
        log.setLevel(level)
        log.propagate = propagate
    return (
        f"{rows}x{cols}/{mines}, seeds 0-{games - 1}: a search ran out in {touched} of {games} "
        f"games ({touched / games:.1%}; {won} of them won), {counter.count} searches in all"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--board", type=parse_size, default=(5, 5, 5), help="ROWSxCOLSxMINES (default 5x5x5)"
    )
    parser.add_argument("--games", type=int, default=200, help="games per budget (default 200)")
    parser.add_argument(
        "--budgets", default=None, help=f"comma-separated budgets (default {BUDGETS})"
    )
    parser.add_argument(
        "--ran-out",
        action="store_true",
        help="count the searches that run out of their budget, instead of timing budgets",
    )
    args = parser.parse_args(argv)
    rows, cols, mines = args.board
    if args.ran_out:
        if args.budgets is not None:
            parser.error("--ran-out plays with the budgets as they are: give no --budgets")
        print(ran_out(rows, cols, mines, args.games), flush=True)
        return
    for budget in (int(part) for part in (args.budgets or BUDGETS).split(",")):
        print(run(rows, cols, mines, args.games, budget), flush=True)


if __name__ == "__main__":
    main()
