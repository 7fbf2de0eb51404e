"""The explore loop names each lie of a manager exactly: the reason, the cell and the answer
(gaps found by mutation testing)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from mineshafted import Board, BoardManager, ContradictionError, Sweep
from mineshafted.errors import ManagerError
from mineshafted.solver import Explorer, Knowledge

OPEN = Board.from_mines(6, 7, [40, 41, 33])
"""A 6x7 board whose mines are far from the start at 0 (neighbours 1, 7, 8)."""

WHERE = "the board manager is at fault: get_adjacent(0) on the 6x7 board the manager's size gives"


class Lying:
    """A true ``BoardManager`` that gives a chosen ring for cell 0 and chosen clues."""

    def __init__(
        self, board: Board, ring: object = None, clues: dict[int, int] | None = None
    ) -> None:
        self.true = BoardManager(board)
        self.size = self.true.size
        self.ring = ring
        self.clues = clues or {}

    def move(self, index: int) -> int:
        clue = self.true.move(index)
        return self.clues.get(index, clue)

    def get_adjacent(self, index: int) -> object:
        if index == 0 and self.ring is not None:
            return self.ring
        return self.true.get_adjacent(index)


def _sweep(manager: object) -> None:
    Sweep(manager).run()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("ring", "why"),
    [
        ([1, 7, 42], "lists 42 off the board"),
        ([0, 1, 42], "lists 42 off the board"),
        ([-1, 7, 8], "lists -1 off the board"),
        ([7, 8, 1, 42, 43], "lists 42 off the board"),
        ([0, 1, 8], "lists the cell itself"),
        ([1, 1, 7], "lists a cell twice"),
        ([1, 7, 9], "lists [9] (not neighbours) and misses [8]"),
        ([1, 7], "misses [8]"),
        ([1, 7, 8, 9], "lists [9] (not neighbours)"),
    ],
)
def test_a_wrong_ring_is_named_with_its_reason_cell_and_value(ring: list[int], why: str) -> None:
    with pytest.raises(ManagerError) as caught:
        _sweep(Lying(OPEN, ring))
    assert str(caught.value) == f"{WHERE} {why}"
    assert caught.value.cell == 0
    assert caught.value.value == tuple(ring)


def test_a_ring_that_cannot_be_iterated_is_named_with_its_cell_and_value() -> None:
    with pytest.raises(ManagerError, match=r"get_adjacent\(0\) answered 5, not a list") as caught:
        _sweep(Lying(OPEN, 5))
    assert caught.value.cell == 0
    assert caught.value.value == 5


def test_a_ring_of_nine_is_named_with_its_cell_and_the_nine_read() -> None:
    with pytest.raises(ManagerError, match="lists more than 8 cells") as caught:
        _sweep(Lying(OPEN, iter(range(1, 20))))
    assert caught.value.cell == 0
    assert caught.value.value == tuple(range(1, 10))


class Tuples(Lying):
    """An honest manager whose rings are tuples, not lists: they go through the slow reader."""

    def get_adjacent(self, index: int) -> Iterable[int]:
        return tuple(self.true.get_adjacent(index))


def test_an_inner_cell_with_eight_neighbours_as_a_tuple_is_accepted() -> None:
    board = Board.from_mines(4, 4, [15])
    report = Sweep(Tuples(board)).run()  # type: ignore[arg-type]
    assert report.solved
    assert report.board == board.to_grid()


def test_a_clue_too_large_for_its_ring_is_named_with_its_cell_and_value() -> None:
    with pytest.raises(ManagerError, match="clue 4 at cell 0, which has 3 neighbour") as caught:
        _sweep(Lying(OPEN, clues={0: 4}))
    assert caught.value.cell == 0
    assert caught.value.value == 4


def test_a_clue_the_others_leave_no_room_for_names_its_cell() -> None:
    # 2x2, no mines: 0 says 0, so 1, 2 and 3 are safe; then 1 says 1 with no unknown neighbour.
    board = Board.from_mines(2, 2, [])
    with pytest.raises(ContradictionError) as caught:
        _sweep(Lying(board, clues={1: 1}))
    assert str(caught.value) == (
        "clue 1 at cell 1 cannot hold: 1 mine(s) left to place among 0 unknown neighbour(s)"
    )
    assert caught.value.cells == (1,)


@pytest.mark.parametrize(
    ("proofs", "message"),
    [
        ([(0, True), (1, True)], "-1 mine(s) left to place among 1 unknown neighbour(s)"),
        ([(0, False), (1, False), (4, False)], "1 mine(s) left to place among 0"),
    ],
)
def test_proofs_that_break_a_registered_clue_name_it_as_they_are_counted(
    proofs: list[tuple[int, bool]], message: str
) -> None:
    # Clue 1 at cell 3 sees 0, 1 and 4: two mines, or three safe cells, are too many for it.
    board = Board.from_text(
        """
        . * .
        . . .
        """
    )
    knowledge = Knowledge(2, 3)
    explorer, bm = Explorer(knowledge), BoardManager(board)
    knowledge.prove_safe(3)
    assert explorer.explore(bm.move, bm.get_adjacent) == [3]
    for cell, mine in proofs:
        (knowledge.prove_mine if mine else knowledge.prove_safe)(cell)
    with pytest.raises(ContradictionError) as caught:
        explorer.explore(bm.move, bm.get_adjacent)
    assert str(caught.value).startswith(f"clue 1 at cell 3 cannot hold: {message}")
    assert caught.value.cells == (3,)
