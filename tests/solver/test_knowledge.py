"""Knowledge and the explore loop: exploring, counting, ripe clues, facts for the CSP,
contradictions."""

from __future__ import annotations

import pytest

from mineshafted import Board, BoardManager, ContradictionError
from mineshafted.solver import CellState, Explorer, Knowledge

pytestmark = pytest.mark.usefixtures("each_core")  # every test under each core


def explorer_of(board: Board) -> tuple[Knowledge, Explorer, BoardManager]:
    knowledge = Knowledge(board.geometry.rows, board.geometry.cols)
    return knowledge, Explorer(knowledge), BoardManager(board)


def test_a_zero_cascade_opens_its_whole_region_in_one_explore() -> None:
    board = Board.from_text(
        """
        . . . .
        . . . .
        . . . *
        """
    )
    k, explorer, bm = explorer_of(board)
    k.prove_safe(0)
    assert explorer.explore(bm.move, bm.get_adjacent) == []
    # Every safe cell explored, and the mine found by counting (its clues need it).
    assert k.explored == 11
    assert k.partial_grid() == board.to_grid()
    assert k.undetermined() == []


def test_a_cell_proven_takes_effect_at_the_next_explore() -> None:
    board = Board.from_text(
        """
        . * .
        . . .
        """
    )
    k, explorer, bm = explorer_of(board)
    k.prove_safe(3)  # bottom left: clue 1 among 0, 1, 4
    assert explorer.explore(bm.move, bm.get_adjacent) == [3]
    assert k.prove_mine(1)
    assert k.state[1] is CellState.MINE
    assert explorer.constraint(3) == ([0, 4], 1)  # counts not updated yet
    assert explorer.explore(bm.move, bm.get_adjacent) == []
    # Now clue 3 had its mine: 0 and 4 are safe and explored, and they decide the rest.
    assert k.partial_grid() == board.to_grid()


def test_facts_are_the_decided_cells_that_a_registered_clue_sees() -> None:
    board = Board.from_text(
        """
        . . * .
        . . . .
        """
    )
    k, explorer, bm = explorer_of(board)
    k.prove_safe(0)
    assert explorer.explore(bm.move, bm.get_adjacent) == [1, 5]  # both: one mine among 2, 6
    # 1, 4 and 5 were decided by a zero, which never waits on anything: no facts.
    assert explorer.take_facts() == []
    assert k.undetermined() == [2, 3, 6, 7]
    assert explorer.frontier() == [2, 6]
    assert sorted(explorer.clues_beside(2)) == [1, 5]
    k.prove_safe(6)
    explorer.explore(bm.move, bm.get_adjacent)
    facts = explorer.take_facts()
    # 6 and 2 were waited on by the clues at 1 and 5; 3 and 7, decided by 6's clue on
    # sight, by no clue: only a waiting clue can be a CSP variable.
    assert facts == [(6, False), (2, True)]
    assert explorer.take_facts() == []
    assert k.partial_grid() == board.to_grid()
    assert explorer.frontier() == [] and explorer.clues_beside(2) == []


def test_the_journal_hands_each_proven_cell_over_once() -> None:
    k = Knowledge(2, 3)
    k.prove_safe(4)
    k.prove_mine(1)
    k.prove_safe(4)  # not news: not journalled again
    assert k.take_journal() == [4, 1]
    assert k.take_journal() == []
    assert k.mines_found() == 1


def test_proving_a_cell_both_ways_raises() -> None:
    k = Knowledge(2, 2)
    k.prove_mine(3)
    assert not k.prove_mine(3)  # not news
    with pytest.raises(ContradictionError, match="both a mine and safe"):
        k.prove_safe(3)
    k.prove_safe(0)
    with pytest.raises(ContradictionError, match="both safe and a mine"):
        k.prove_mine(0)


def test_a_clue_that_cannot_hold_raises_when_explored() -> None:
    board = Board.from_text(
        """
        . . .
        . . *
        """
    )
    k, explorer, bm = explorer_of(board)
    k.prove_safe(0)
    k.prove_mine(1)  # false: the clue at 0 is 0
    with pytest.raises(ContradictionError, match="clue 0 at cell 0 cannot hold: -1 mine"):
        explorer.explore(bm.move, bm.get_adjacent)


def test_too_many_mines_counted_around_a_waiting_clue_raise() -> None:
    board = Board.from_text(
        """
        . * .
        . . .
        """
    )
    k, explorer, bm = explorer_of(board)
    k.prove_safe(3)
    assert explorer.explore(bm.move, bm.get_adjacent) == [3]  # clue 1 waits on 0, 1, 4
    k.prove_mine(0)
    k.prove_mine(1)  # two mines around a 1: the count goes below zero while counting
    with pytest.raises(ContradictionError, match="clue 1 at cell 3 cannot hold: -1 mine"):
        explorer.explore(bm.move, bm.get_adjacent)


def test_too_few_cells_left_for_a_waiting_clue_raise() -> None:
    board = Board.from_text(
        """
        * * .
        . . .
        """
    )
    k, explorer, bm = explorer_of(board)
    k.prove_safe(4)  # the middle of the bottom row: clue 2 among 0, 1, 2, 3, 5
    assert explorer.explore(bm.move, bm.get_adjacent) == [4]
    # 0, 2 and 3 safe leave 1 and 5 for two mines: fine; 5 safe too and it cannot hold.
    for cell in (0, 2, 3, 5):
        k.prove_safe(cell)
    with pytest.raises(ContradictionError, match="clue 2 at cell 4 cannot hold: 2 mine"):
        explorer.explore(bm.move, bm.get_adjacent)


def test_proving_a_cell_safe_again_is_no_news() -> None:
    k = Knowledge(1, 3)
    assert k.prove_safe(1) is True
    assert k.prove_safe(1) is False
    assert k.take_journal() == [1]


def test_proving_an_explored_cell_safe_is_no_news() -> None:
    k = Knowledge(1, 3)
    k.state[2] = CellState.EXPLORED
    assert k.prove_safe(2) is False
    assert k.take_journal() == []


def test_a_mine_proven_safe_names_its_cell() -> None:
    k = Knowledge(2, 2)
    k.prove_mine(3)
    with pytest.raises(ContradictionError) as caught:
        k.prove_safe(3)
    assert caught.value.cells == (3,)


def test_a_safe_cell_proven_a_mine_names_its_cell() -> None:
    k = Knowledge(2, 2)
    k.prove_safe(2)
    with pytest.raises(ContradictionError) as caught:
        k.prove_mine(2)
    assert caught.value.cells == (2,)


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ([(0, True), (1, True)], "-1 mine(s) left to place among 1 unknown neighbour(s)"),
        ([(0, False), (1, False), (4, False)], "1 mine(s) left to place among 0"),
    ],
)
def test_facts_that_break_a_registered_clue_name_it_as_they_are_counted(
    facts: list[tuple[int, bool]], message: str
) -> None:
    # Clue 1 at cell 3 sees 0, 1 and 4: two mines, or three safe cells, are too many for it.
    board = Board.from_text(
        """
        . * .
        . . .
        """
    )
    knowledge, explorer, bm = explorer_of(board)
    knowledge.prove_safe(3)
    assert explorer.explore(bm.move, bm.get_adjacent) == [3]
    for cell, mine in facts:
        (knowledge.prove_mine if mine else knowledge.prove_safe)(cell)
    with pytest.raises(ContradictionError) as caught:
        explorer.explore(bm.move, bm.get_adjacent)
    assert str(caught.value).startswith(f"clue 1 at cell 3 cannot hold: {message}")
    assert caught.value.cells == (3,)
