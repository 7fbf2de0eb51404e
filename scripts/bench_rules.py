"""Measure S4 rulesets on the contest set against the project's complete deduction.

Every ruleset plays each board of puzzles/contest/ with free safe guesses (seeded per board);
the complete deduction (the sweep, with the mine total) plays the same boards, guessing a
random safe undetermined square at each stall: the fewest guesses any sound deduction needs
with that guessing policy. Prints a Markdown table for the README:

    python scripts/bench_rules.py
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from mineshafted.board import Board
from mineshafted.formats import find_puzzle_files, read_puzzles
from mineshafted.game import BoardManager
from mineshafted.rules import Finish, Ruleset, play, read_rules
from mineshafted.solver import Sweep

ROOT = Path(__file__).resolve().parent.parent
CONTEST = ROOT / "puzzles" / "contest"
RULES = ROOT / "mineshafted" / "rules" / "data"


def deduction_guesses(board: Board, seed: int) -> int:
    """Free safe guesses the complete deduction needs on ``board`` (the first move counts).

    >>> deduction_guesses(Board.from_text('''
    ...     . . .
    ...     . . .
    ...     . . *
    ... '''), seed=1) >= 1
    True
    """
    rng = random.Random(seed)
    safe = [c for c in range(board.geometry.cells) if c not in board.mines]
    sweep = Sweep(BoardManager(board), start=rng.choice(safe), mines=board.mine_total)
    guesses = 1
    while True:
        report = sweep.advance()
        if report.solved:
            return guesses
        choices = [c for c in report.undetermined if c not in board.mines]
        sweep.guess(rng.choice(choices))
        guesses += 1


def main() -> None:
    """Print the comparison table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="base seed of the free guesses")
    args = parser.parse_args()
    boards = [p.board for f in find_puzzle_files([CONTEST]) for p in read_puzzles(f)]
    entries: list[tuple[str, Ruleset | None]] = [("no rules (all guesses)", Ruleset(()))]
    for path in sorted((RULES / "examples").glob("*.s4")):
        entries.append((f"examples/{path.name}", read_rules(path)))
    examples = Ruleset(
        tuple(
            r for path in sorted((RULES / "examples").glob("*.s4")) for r in read_rules(path).rules
        )
    )
    entries.append(("all three examples", examples))
    entries.append(("champion.s4", read_rules(RULES / "champion.s4")))
    entries.append(("complete deduction (sweep + total)", None))
    print(
        f"{len(boards)} boards, 30x30 at 20-25%, seeds {args.seed}..{args.seed + len(boards) - 1}\n"
    )
    print("| player | won | avg guesses | score | avg ms |")
    print("|---|---|---|---|---|")
    for label, ruleset in entries:
        started = time.perf_counter()
        if ruleset is None:
            guesses, score = [], 0.0
            for number, board in enumerate(boards):
                began = time.perf_counter()
                guesses.append(deduction_guesses(board, args.seed + number))
                spare = 1 - (time.perf_counter() - began) / 30
                score += board.safe_count - guesses[-1] + spare
            won = len(boards)
        else:
            plays = [play(ruleset, b, seed=args.seed + n) for n, b in enumerate(boards)]
            guesses = [p.guesses for p in plays]
            won = sum(p.finish is Finish.WON for p in plays)
            score = sum(p.score for p in plays)
        ms = (time.perf_counter() - started) * 1000 / len(boards)
        average = sum(guesses) / len(boards)
        print(f"| {label} | {won}/{len(boards)} | {average:.2f} | {score:.1f} | {ms:.0f} |")


if __name__ == "__main__":
    main()
