"""BoardManager: the Mine Shafted interface, its index checks and the end of the game."""

from __future__ import annotations

import pytest

from mineshafted import BoardManager, InvalidBoardError


def test_size_move_and_adjacent(sample: list[list[int]]) -> None:
    bm = BoardManager(sample)
    assert bm.size == (4, 3)
    assert bm.get_adjacent(3) == [0, 1, 4, 6, 7]
    assert [bm.move(i) for i in (0, 1, 4, 10)] == [0, 1, 2, 1]


def test_moving_again_returns_the_clue_again(sample: list[list[int]]) -> None:
    bm = BoardManager(sample)
    assert bm.move(4) == 2
    assert bm.move(4) == 2


def test_a_mine_ends_the_game(sample: list[list[int]]) -> None:
    bm = BoardManager(sample)
    with pytest.raises(RuntimeError, match=r"cell 5 \(row 1, column 2\) is a mine"):
        bm.move(5)
    for index in (0, 5, 4):
        with pytest.raises(RuntimeError, match="game is over"):
            bm.move(index)
    assert "over" in repr(bm)


@pytest.mark.parametrize("index", [-1, 12, 10**9, -13])
def test_out_of_range_indices_are_refused_without_wrapping(
    sample: list[list[int]], index: int
) -> None:
    bm = BoardManager(sample)
    with pytest.raises(IndexError, match=r"valid indices are 0\.\.11"):
        bm.move(index)
    with pytest.raises(IndexError, match=r"valid indices are 0\.\.11"):
        bm.get_adjacent(index)
    assert bm.move(0) == 0  # a refused index does not end the game


@pytest.mark.parametrize("index", [1.0, "1", True, None])
def test_non_integer_indices_are_refused(sample: list[list[int]], index: object) -> None:
    with pytest.raises(TypeError, match="must be an int"):
        BoardManager(sample).move(index)  # type: ignore[arg-type]


def test_board_is_validated_on_construction() -> None:
    with pytest.raises(InvalidBoardError, match="row 0, column 0: clue 1 but 0"):
        BoardManager([[1, 0], [0, 0]])


def test_manager_does_not_keep_a_reference_to_the_callers_lists(sample: list[list[int]]) -> None:
    bm = BoardManager(sample)
    sample[1][2] = 0
    with pytest.raises(RuntimeError):
        bm.move(5)
