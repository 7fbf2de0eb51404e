"""scripts/first_guess.py: each candidate first guess is played on the same boards, paired."""

from __future__ import annotations

import random

import pytest

from mineshafted.game import Game, Rules
from mineshafted.probability.loop import play_out

from ..conftest import script

SCRIPT = script("first_guess.py")
EXPERT = (16, 30, 99)


def _seed_showing(clue: int | None) -> int:
    """The first seed whose expert board shows ``clue`` at the corner (``None``: a 0)."""
    return next(s for s in range(1000) if SCRIPT["corner_clue"](*EXPERT, s) == clue)


def test_the_candidate_is_the_game_s_first_guess_and_best_plays_the_rest() -> None:
    seed = _seed_showing(1)
    game = Game.draw(*EXPERT, rules=Rules.CLASSIC, seed=seed)
    guesses = play_out(game, SCRIPT["FirstGuess"](59, 1), random.Random(0), start=0)
    assert guesses[0].cell == 59
    assert game.over


def test_a_board_showing_another_clue_is_left_out() -> None:
    seed = _seed_showing(2)
    game = Game.draw(*EXPERT, rules=Rules.CLASSIC, seed=seed)
    with pytest.raises(SCRIPT["NotThisPosition"]):
        play_out(game, SCRIPT["FirstGuess"](59, 1), random.Random(0), start=0)


def test_a_board_opening_at_the_corner_is_left_out() -> None:
    seed = _seed_showing(None)
    game = Game.draw(*EXPERT, rules=Rules.CLASSIC, seed=seed)
    try:
        play_out(game, SCRIPT["FirstGuess"](59, 1), random.Random(0), start=0)
    except SCRIPT["NotThisPosition"]:
        return
    assert game.won  # no stall at all: the opening swept the board


@pytest.mark.slow
def test_the_study_pairs_every_candidate_with_the_first(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--clue", "1", "--games", "4", "--candidates", "2,0", "0,29", "--jobs", "1"]
    assert SCRIPT["main"](argv) == 0
    out = capsys.readouterr().out
    assert "4 boards show 1 at the corner" in out
    assert "4 games: (0, 29) won" in out and "(2, 0)" in out
