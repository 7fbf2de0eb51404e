"""Where a policy loses: the guess that ended each lost game, by the kind of position it was in.

Plays expert games (30x16/99, first reveal safe at the corner, the seeds ``play`` uses) with
a policy and sorts each lost game by its last guess:

- *endgame*: the position had at most ``PLACEMENTS`` placements left, where ``best`` searches
  every sequence of reveals: its play from there wins as often as any play can (when the
  search finished within its node budget);
- *even odds*: a guess at exactly 1/2 outside the endgame, most of them unavoidable 50/50s;
- *first guess*: the game's first guess (right after the first reveal), outside the above;
- *later guess*: any other.

It prints the games, the wins with their 95% interval, the mean number of guesses and their
mean chance of a mine, and for each kind the lost games, their share of all games, the mean
chance of a mine of the losing guess and how often it was a cell of the lowest chance then. The
losses a better policy could still avoid are among the first and later guesses: the others
are either played best already or are even odds whatever the order of play.

    python scripts/losses.py                       # best, 2,000 games
    python scripts/losses.py --games 5000 --policy best-endgame --seed 1
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from mineshafted.board import Cell, PartialGrid
from mineshafted.probability import Odds, Policy, play_game, policy_named
from mineshafted.probability.endgame import PLACEMENTS
from mineshafted.probability.loop import Guess
from mineshafted.solver import Position
from mineshafted.studies import game_seed, wilson

KINDS = ("endgame", "even odds", "first guess", "later guess")
"""The kinds of losing guess, in the order printed."""


@dataclass
class Watched:
    """A policy that notes the placements left at each stall it is asked about, and guesses as
    ``inner`` does."""

    inner: Policy
    placements: list[int] = field(default_factory=list)
    safest: list[Fraction] = field(default_factory=list)
    """The lowest chance of a mine of any unknown cell, at each stall."""

    @property
    def name(self) -> str:
        """The inner policy's name."""
        return self.inner.name

    def choose(
        self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random
    ) -> Cell:
        """``inner``'s choice, the placements noted."""
        self.placements.append(odds.placements)
        self.safest.append(Fraction(min(odds.mined.values()), odds.placements))
        return self.inner.choose(position, odds, board, rng)


def kind(guesses: tuple[Guess, ...], placements: list[int]) -> str:
    """The kind of a lost game's last guess (see the module).

    >>> kind((Guess(3, Fraction(1, 2), True),), [10_000])
    'even odds'
    >>> kind((Guess(3, Fraction(1, 5), False), Guess(4, Fraction(1, 5), True)), [10_000, 700])
    'endgame'
    """
    if placements[-1] <= PLACEMENTS:
        return "endgame"
    if guesses[-1].probability == Fraction(1, 2):
        return "even odds"
    return "first guess" if len(guesses) == 1 else "later guess"


def main() -> None:
    """Play the games and print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games to play")
    parser.add_argument("--seed", type=int, default=0, help="base seed (as play's)")
    parser.add_argument("--policy", default="best", help="the policy, as play names it")
    args = parser.parse_args()
    lost: Counter[str] = Counter()
    chance: dict[str, Fraction] = {name: Fraction(0) for name in KINDS}
    at_safest: Counter[str] = Counter()
    wins = guesses = 0
    risk = Fraction(0)
    for index in range(args.games):
        watched = Watched(policy_named(args.policy))
        played = play_game(16, 30, 99, seed=game_seed(args.seed, index), policy=watched)
        assert len(watched.placements) == len(played.guesses)
        wins += played.won
        guesses += len(played.guesses)
        risk += sum((g.probability or Fraction(0)) for g in played.guesses)
        if not played.won:
            name = kind(played.guesses, watched.placements)
            last = played.guesses[-1].probability or Fraction(0)
            lost[name] += 1
            chance[name] += last
            at_safest[name] += last == watched.safest[-1]
    low, high = wilson(wins, args.games)
    print(
        f"Command: python scripts/losses.py --games {args.games} --seed {args.seed} "
        f"--policy {args.policy}"
    )
    print()
    print(
        f"{args.games:,} expert games (30x16/99, first reveal safe at the corner), "
        f"policy {args.policy}: won {wins:,} ({100 * wins / args.games:.2f}%, "
        f"95% CI {100 * low:.2f}-{100 * high:.2f})"
    )
    print(
        f"guesses per game {guesses / args.games:.2f}, mean chance of a mine per guess "
        f"{float(risk) / max(guesses, 1):.3f}"
    )
    print()
    print(
        "| lost at | games | share of all games | its mean chance of a mine | at the safest odds |"
    )
    print("|---|---:|---:|---:|---:|")
    for name in KINDS:
        n = lost[name]
        mean = f"{float(chance[name]) / n:.3f}" if n else "-"
        safest = f"{100 * at_safest[name] / n:.1f}%" if n else "-"
        print(f"| {name} | {n:,} | {100 * n / args.games:.2f}% | {mean} | {safest} |")


if __name__ == "__main__":
    main()
