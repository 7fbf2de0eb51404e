"""Knowledge: exploring, counting, ripe clues, news for the CSP, and contradictions."""

from __future__ import annotations

import pytest

from mineshafted import Board, BoardManager, ContradictionError
from mineshafted.solver.knowledge import CellState, Knowledge


def knowledge_of(board: Board) -> tuple[Knowledge, BoardManager]:
    rows, cols = board.geometry.rows, board.geometry.cols
    return Knowledge(rows, cols), BoardManager(board)


def test_a_zero_cascade_opens_its_whole_region_in_one_explore() -> None:
    board = Board.from_text(
        """
        . . . .
        . . . .
        . . . *
        """
    )
    k, bm = knowledge_of(board)
    k.prove_safe(0)
    assert k.explore(bm.move, bm.get_adjacent) == []
    # Every safe cell explored, and the mine found by counting (its clues need it).
    assert k.explored == 11
    assert k.partial_grid() == board.to_grid()
    assert k.undetermined() == []


def test_a_proof_takes_effect_at_the_next_explore() -> None:
    board = Board.from_text(
        """
        . * .
        . . .
        """
    )
    k, bm = knowledge_of(board)
    k.prove_safe(3)  # bottom left: clue 1 among 0, 1, 4
    assert k.explore(bm.move, bm.get_adjacent) == [3]
    assert k.prove_mine(1)
    assert k.state[1] is CellState.MINE
    assert k.open_neighbours(3) == ([0, 4], 1)  # counts not updated yet
    assert k.explore(bm.move, bm.get_adjacent) == []
    # Now clue 3 had its mine: 0 and 4 are safe and explored, and they settle the rest.
    assert k.partial_grid() == board.to_grid()


def test_news_are_the_decided_cells_that_a_registered_clue_sees() -> None:
    board = Board.from_text(
        """
        . . * .
        . . . .
        """
    )
    k, bm = knowledge_of(board)
    k.prove_safe(0)
    assert k.explore(bm.move, bm.get_adjacent) == [1, 5]  # both: one mine among 2, 6
    # 1, 4 and 5 were decided by a zero, which never waits on anything: no news.
    assert k.take_news() == []
    assert k.undetermined() == [2, 3, 6, 7]
    k.prove_safe(6)
    k.explore(bm.move, bm.get_adjacent)
    news = k.take_news()
    # 6 and 2 were waited on by the clues at 1 and 5; 3 and 7, decided by 6's clue on
    # sight, by no clue: only a waiting clue can be a CSP variable.
    assert news == [(6, False), (2, True)]
    assert k.take_news() == []
    assert k.partial_grid() == board.to_grid()


def test_proving_a_cell_both_ways_raises() -> None:
    k = Knowledge(2, 2)
    k.prove_mine(3)
    assert not k.prove_mine(3)  # not news
    with pytest.raises(ContradictionError, match="both"):
        k.prove_safe(3)


def test_a_clue_that_cannot_hold_raises_at_explore() -> None:
    board = Board.from_text(
        """
        . . .
        . . *
        """
    )
    k, bm = knowledge_of(board)
    k.prove_safe(0)
    k.prove_mine(1)  # false: the clue at 0 is 0
    with pytest.raises(ContradictionError, match="cannot hold"):
        k.explore(bm.move, bm.get_adjacent)
