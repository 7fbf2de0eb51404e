"""play_game and play_board: a whole classic game, drawn or given, reproducible, with every guess
(and its odds, if asked) in the record; its rules, time and seed; the start cells and boards it
accepts; a given board played exactly as it is."""

from __future__ import annotations

import itertools

import pytest

from mineshafted.board import Board
from mineshafted.errors import IllegalMoveError, InvalidBoardError
from mineshafted.game import AfterMine, FirstMove, GameStatus, MineHit, Outcome, Reveal, Rules
from mineshafted.probability import Start, play_board, play_game, start_cell
from mineshafted.probability import play as play_module
from mineshafted.probability.play import check_game


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


def guesses_of(played: play_module.Played) -> list[Reveal]:
    return [e for e in played.record.events if isinstance(e, Reveal) and e.guess]


def test_a_classic_game_expands_zeros_shows_the_total_and_ends_on_a_mine() -> None:
    played = play_game(9, 9, 10, seed=2, first=FirstMove.OPENING)
    want = Rules(FirstMove.OPENING, auto_expand=True, after_mine=AfterMine.END, total_known=True)
    assert played.record.header.rules == want


def test_guesses_carry_no_odds_unless_asked() -> None:
    played = play_game(9, 9, 10, seed=2)
    assert guesses_of(played) and all(e.detail is None for e in guesses_of(played))


def test_recorded_odds_give_every_unknown_cell_and_the_guess_its_probability() -> None:
    played = play_game(9, 9, 10, seed=2, record_odds=True)
    reveals = guesses_of(played)
    assert len(reveals) == len(played.guesses) > 0
    for event, guess in zip(reveals, played.guesses, strict=True):
        assert event.detail is not None
        odds = event.detail["odds"]
        assert isinstance(odds, dict)
        assert odds[str(guess.cell)] == float(guess.probability)
        assert len(odds) > 1 and all(0.0 <= p <= 1.0 for p in odds.values())


def test_a_start_on_a_mine_loses_at_once_without_a_guess() -> None:
    # 8 mines on 3x3 with no first-move protection: find a seed whose corner is a mine.
    for seed in range(50):
        played = play_game(3, 3, 8, seed=seed, first=FirstMove.NONE)
        if not played.won:
            break
    else:
        pytest.fail("no game started on a mine")
    assert played.guesses == ()
    assert played.view.grid[0][0] == -1


def test_the_game_time_is_measured_from_start_to_end(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = itertools.count(10, 3.5)
    monkeypatch.setattr(play_module, "perf_counter", lambda: float(next(ticks)))
    assert play_game(4, 4, 2, seed=1).seconds == 3.5


def test_the_played_game_keeps_its_seed() -> None:
    assert play_game(5, 5, 3, seed=17).seed == 17


@pytest.mark.parametrize(("start", "cell"), [(0, 0), ("0,2", 2), ("2,0", 6), ("2,2", 8)])
def test_the_first_row_column_and_index_are_on_the_board(start: str | int, cell: int) -> None:
    assert start_cell(start, 3, 3) == cell


@pytest.mark.parametrize("start", [9, -1, "3,0", "0,3", "x"])
def test_a_refused_start_names_itself(start: str | int) -> None:
    with pytest.raises(IllegalMoveError, match=str(start)) as caught:
        start_cell(start, 3, 3)
    assert caught.value.cell == start


def test_a_start_off_the_board_is_told_the_rows_and_columns_there_are() -> None:
    with pytest.raises(IllegalMoveError, match=r"rows 0\.\.3, columns 0\.\.5"):
        start_cell("4,0", 4, 6)


@pytest.mark.parametrize(("rows", "cols"), [(0, 4), (4, 0), (0, 0), (-1, 3)])
def test_a_board_without_cells_is_refused(rows: int, cols: int) -> None:
    with pytest.raises(InvalidBoardError, match=f"not {rows}x{cols}"):
        check_game(rows, cols, 0, first=FirstMove.NONE, start=0)


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "first", "start"),
    [
        (1, 1, 0, FirstMove.SAFE, 0),  # one row, one column, no mines
        (1, 3, 2, FirstMove.SAFE, 0),
        (2, 2, 4, FirstMove.NONE, 0),  # no zone: every cell may hold a mine
        (3, 3, 5, FirstMove.OPENING, 0),  # the corner's zone is itself and 3 neighbours
    ],
)
def test_games_that_just_fit_are_allowed(
    rows: int, cols: int, mines: int, first: FirstMove, start: int
) -> None:
    check_game(rows, cols, mines, first=first, start=start)


@pytest.mark.parametrize(
    ("mines", "first", "message"),
    [
        (9, FirstMove.SAFE, "with a safe first move at row 0, column 0: at most 8"),
        (6, FirstMove.OPENING, "with an opening first move at row 0, column 0: at most 5"),
        (10, FirstMove.NONE, "with a none first move at row 0, column 0: at most 9"),
        (-1, FirstMove.NONE, "-1 mines do not fit"),
    ],
)
def test_mines_that_do_not_fit_are_told_the_room_there_is(
    mines: int, first: FirstMove, message: str
) -> None:
    with pytest.raises(InvalidBoardError, match=message):
        check_game(3, 3, mines, first=first, start=0)


# -- given boards -------------------------------------------------------------------------------


def drawn_board(played: play_module.Played) -> Board:
    """The board a drawn game was played on, from its record's outcome."""
    outcome = played.record.events[-1]
    assert isinstance(outcome, Outcome)
    header = played.record.header
    return Board.from_mines(header.rows, header.cols, outcome.mines)


@pytest.mark.parametrize("first", [FirstMove.SAFE, FirstMove.OPENING])
def test_a_given_board_plays_as_the_same_board_drawn(first: FirstMove) -> None:
    # One game loop: the board play_game drew, given to play_board with the same seed, is the
    # same game, guess for guess.
    for seed in range(6):
        drawn = play_game(16, 30, 99, seed=seed, first=first, start="3,3")
        given = play_board(drawn_board(drawn), start=93, seed=seed, first=first)
        assert (given.won, given.guesses) == (drawn.won, drawn.guesses)
        assert given.record.events == drawn.record.events


def test_a_given_board_is_played_exactly_as_it_is() -> None:
    board = Board.from_text("""
        . * . .
        . . . .
        . . . *
    """)
    for seed in range(8):
        played = play_board(board, start=4, seed=seed, policy="random")
        outcome = played.record.events[-1]
        assert isinstance(outcome, Outcome) and set(outcome.mines) == board.mines
        assert played.record.header.layout == (1, 11)


def test_a_given_first_reveal_must_be_what_the_first_move_promises() -> None:
    board = Board.from_text("""
        . . . .
        . . * .
    """)
    with pytest.raises(IllegalMoveError, match=r"^the first reveal \[1, 2\] is a mine$"):
        play_board(board, start=6, seed=0)
    with pytest.raises(IllegalMoveError, match=r"^the first reveal \[0, 1\] shows 1, not 0"):
        play_board(board, start=1, seed=0, first=FirstMove.OPENING)
    with pytest.raises(IllegalMoveError, match=r"^the first reveal 8 is not a cell of the 2x4"):
        play_board(board, start=8, seed=0)
    assert play_board(board, start=0, seed=0, first=FirstMove.OPENING).won
    assert play_board(board, start=1, seed=0).won


def test_flagging_marks_the_proven_mines_and_changes_no_move() -> None:
    for seed in range(6):
        plain = play_game(16, 30, 99, seed=seed)
        flagged = play_game(16, 30, 99, seed=seed, flag=True)
        assert (flagged.won, flagged.guesses) == (plain.won, plain.guesses)
        assert plain.view.flags == frozenset()
        assert flagged.view.flags and flagged.view.flags <= drawn_board(plain).mines
