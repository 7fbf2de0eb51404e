"""play_game: a whole classic game, reproducible, with every guess in the record."""

from __future__ import annotations

import pytest

from mineshafted.errors import IllegalMoveError, InvalidBoardError
from mineshafted.game import FirstMove, GameStatus, MineHit, Outcome, Reveal
from mineshafted.probability import Start, play_game, start_cell


@pytest.mark.parametrize("policy", ["best", "safest", "random"])
def test_the_same_seed_plays_the_same_game(policy: str) -> None:
    for seed in range(5):
        first = play_game(16, 16, 40, seed=seed, policy=policy)
        again = play_game(16, 16, 40, seed=seed, policy=policy)
        assert first.record == again.record and first.won == again.won
        assert first.guesses == again.guesses


def test_the_record_notes_each_guess_with_its_probability() -> None:
    for seed in range(4):
        played = play_game(16, 30, 99, seed=seed)
        guessed = [e for e in played.record.events if isinstance(e, Reveal) and e.guess]
        assert [(e.cell, e.probability) for e in guessed] == [
            (g.cell, float(g.probability)) for g in played.guesses
        ]
        assert all(e.reason == "best guess" for e in guessed)


def test_a_mine_ends_the_game_lost_on_the_last_guess() -> None:
    lost = [p for p in (play_game(16, 30, 99, seed=s) for s in range(6)) if not p.won]
    assert lost
    for played in lost:
        assert played.guesses[-1].hit and not any(g.hit for g in played.guesses[:-1])
        events = played.record.events
        assert events[-2] == MineHit(played.guesses[-1].cell)
        assert isinstance(events[-1], Outcome) and events[-1].status is GameStatus.LOST


def test_a_won_game_reveals_every_safe_cell() -> None:
    played = play_game(9, 9, 10, seed=2)
    assert played.won and played.view.status is GameStatus.WON
    hidden = sum(value is None for row in played.view.grid for value in row)
    assert hidden == 10


def test_an_opening_first_move_shows_a_zero_at_the_start() -> None:
    for seed in range(5):
        played = play_game(16, 30, 99, seed=seed, first=FirstMove.OPENING, start="3,3")
        first = played.record.events[0]
        assert isinstance(first, Reveal) and first.cell == 3 * 30 + 3
        assert first.revealed[0] == (93, 0)


def test_start_cells_by_name_and_by_row_and_column() -> None:
    assert start_cell(Start.CORNER, 9, 9) == 0
    assert start_cell(Start.CENTRE, 9, 9) == 40
    assert start_cell("8,0", 9, 9) == 72
    assert start_cell(5, 9, 9) == 5


@pytest.mark.parametrize("start", ["9,0", "0,-1", "centre-ish", "1,2,3", 81])
def test_a_start_off_the_board_is_refused(start: str | int) -> None:
    with pytest.raises(IllegalMoveError):
        play_game(9, 9, 10, seed=0, start=start)


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "first"),
    [(0, 9, 1, FirstMove.SAFE), (9, 9, 81, FirstMove.SAFE), (9, 9, 78, FirstMove.OPENING)],
)
def test_mines_that_do_not_fit_are_refused(
    rows: int, cols: int, mines: int, first: FirstMove
) -> None:
    with pytest.raises(InvalidBoardError):
        play_game(rows, cols, mines, seed=0, first=first)


def test_a_crowded_board_still_plays_to_the_end() -> None:
    played = play_game(4, 4, 15, seed=1)
    assert played.won and played.guesses == ()
