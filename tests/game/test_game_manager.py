"""GameManager: the solver plays games through it; under Mine Shafted rules it is a BoardManager."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mineshafted import Board, BoardManager, Sweep, sweep_mines
from mineshafted.game import Game, GameStatus, Reveal, Rules
from mineshafted.generate import generate

from ..conftest import SAMPLE


def outcome(call: Callable[[object], object], cell: object) -> object:
    """What ``call(cell)`` returns, or the type and message of what it raises."""
    try:
        return call(cell)
    except Exception as error:  # the point is to compare them
        return (type(error), str(error))


def test_the_solver_plays_a_classic_game_to_a_win() -> None:
    made = generate(9, 9, 10, seed=1)
    game = Game.on(made.board, rules=Rules.CLASSIC, seed=1)
    report = Sweep(game.manager(), start=made.start).run()
    assert report.solved
    assert game.won and game.board == made.board
    assert report.board == made.board.to_grid()
    reveals = [e for e in game.record.events if isinstance(e, Reveal)]
    assert reveals[0].cell == made.start and len(reveals[0].revealed) > 1  # the opening expanded
    assert sum(len(e.revealed) for e in reveals) == made.board.safe_count


def test_under_mine_shafted_rules_the_manager_is_a_board_manager() -> None:
    board = Board.from_grid(SAMPLE)
    ours, theirs = Game.on(board, rules=Rules.MINE_SHAFTED).manager(), BoardManager(board)
    assert ours.size == theirs.size
    for cell in [-1, 12, "1", 0, 1, 4, 4, 10, 5, 0, 5, 99]:
        assert outcome(ours.get_adjacent, cell) == outcome(theirs.get_adjacent, cell)
        assert outcome(ours.move, cell) == outcome(theirs.move, cell)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_solver_sees_the_same_board_through_either_manager(seed: int) -> None:
    board = generate(8, 8, 9, seed=seed).board
    game = Game.on(board, rules=Rules.MINE_SHAFTED)
    assert sweep_mines(game.manager()) == sweep_mines(BoardManager(board))
    assert game.won
    assert [e.cell for e in game.record.events if isinstance(e, Reveal)] != []


def test_a_cell_revealed_by_expansion_just_returns_its_clue() -> None:
    board = Board.from_text(
        """
        . . . .
        . . . .
        . . . *
        """
    )
    game = Game.on(board, rules=Rules.CLASSIC, seed=1)
    bm = game.manager()
    assert bm.move(0) == 0
    events = list(game.record.events)
    assert bm.move(6) == 1 and bm.move(1) == 0
    assert game.record.events == events


def test_after_a_mine_play_goes_on_under_cs440_rules() -> None:
    board = Board.from_text(
        """
        . . . .
        . * . .
        . . . *
        """
    )
    game = Game.on(board, rules=Rules.CS440, seed=1)
    bm = game.manager()
    assert bm.move(3) == 0
    with pytest.raises(RuntimeError, match=r"cell 5 \(row 1, column 1\) is a mine$"):
        bm.move(5)
    assert bm.move(0) == 1
    with pytest.raises(RuntimeError, match="is a mine"):
        bm.move(5)
    for cell in (1, 4, 8, 9, 10):
        bm.move(cell)
    assert game.status is GameStatus.LOST and game.mines_hit == (5,)
    with pytest.raises(RuntimeError, match="the game is over: it was lost"):
        bm.move(11)


def test_a_mine_revealed_on_the_game_itself_ends_play_through_the_manager() -> None:
    game = Game.on(Board.from_grid(SAMPLE), rules=Rules.MINE_SHAFTED)
    bm = game.manager()
    assert game.reveal(5).hit
    for cell in (5, 0, 99):
        with pytest.raises(RuntimeError, match=r"the game is over: a mine was hit at cell 5$"):
            bm.move(cell)


def test_the_manager_answers_cells_revealed_on_the_game_itself() -> None:
    game = Game.on(Board.from_grid(SAMPLE), rules=Rules.MINE_SHAFTED)
    bm = game.manager()
    game.reveal(4)
    events = list(game.record.events)
    assert bm.move(4) == 2
    assert game.record.events == events  # nothing revealed again
