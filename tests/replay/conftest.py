"""Records to replay: a solve from a puzzle file, and games played with guesses at exact odds."""

from __future__ import annotations

from pathlib import Path

import pytest

from mineshafted.formats import read_puzzles
from mineshafted.game import Game, GameRecord, Rules
from mineshafted.probability import odds
from mineshafted.solver import Sweep
from mineshafted.solver.recording import record_solve

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def play(game: Game, start: int) -> GameRecord:
    """Sweep ``game`` from ``start``; at each stall guess the safest cell, its odds recorded.

    Each guess is a reveal with ``guess``, its ``probability`` and ``detail["odds"]``: the
    exact mine probability of every unknown cell, as the play command records them.
    """
    sweep = Sweep(game.manager(), start=start, mines=game.mines)
    report = sweep.run()
    while not game.over and not report.solved:
        chances = odds(sweep.position(), game.mines).floats()
        cell = min(chances, key=lambda c: (chances[c], c))
        event = game.reveal(
            cell,
            guess=True,
            probability=chances[cell],
            reason="guess",
            detail={"odds": chances},
        )
        sweep.tell(cell, mine=event.hit)
        if not game.over:
            report = sweep.advance()
    return game.record


def solved(name: str) -> GameRecord:
    """The recorded solve of the first puzzle in ``puzzles/name``."""
    puzzle = read_puzzles(PUZZLES / name)[0]
    return record_solve(puzzle.board, start=puzzle.start)


@pytest.fixture(scope="session")
def small_solve() -> GameRecord:
    """A 9x9 no-guess solve with reasons: start, counting, AC-3."""
    return solved("no-guess/9x9-10/01.json")


@pytest.fixture(scope="session")
def guessing_game() -> GameRecord:
    """A classic 9x9 game won after four guesses, each carrying its odds."""
    return play(Game.draw(9, 9, 10, rules=Rules.CLASSIC, seed=8), start=40)


@pytest.fixture(scope="session")
def lost_game() -> GameRecord:
    """A classic 9x9 game lost on its second guess."""
    return play(Game.draw(9, 9, 10, rules=Rules.CLASSIC, seed=15), start=40)


@pytest.fixture(scope="session")
def expert_game() -> GameRecord:
    """A classic 30x16 expert game (99 mines), won after seven guesses at exact odds."""
    return play(Game.draw(16, 30, 99, rules=Rules.CLASSIC, seed=4), start=0)
