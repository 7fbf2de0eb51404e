"""The referee: its replies before and after a loss, and how its judgement quotes a wrong cell
(no child process here)."""

from __future__ import annotations

import pytest

from mineshafted import Board
from mineshafted.grading.protocol import Reply
from mineshafted.grading.referee import Referee


@pytest.fixture
def referee() -> Referee:
    return Referee(Board.from_grid([[1, -1], [1, 1]]))


def test_a_move_onto_a_mine_is_recorded_and_answered_as_a_loss(referee: Referee) -> None:
    assert referee.answer(1) == (Reply.MINE, True)
    assert referee.exploded == 1
    assert referee.answer(0) == (Reply.OVER, True)
    assert referee.answer(3) == (Reply.OVER, True)
    assert referee.moves == 0


def test_every_move_after_a_loss_is_answered_over(referee: Referee) -> None:
    assert referee.answer(0) == (Reply.CLUE, 1)
    assert referee.answer(1) == (Reply.MINE, True)
    assert [referee.answer(i) for i in (0, 2, 1)] == [(Reply.OVER, True)] * 3
    assert (referee.moves, referee.exploded) == (1, 1)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("x" * 58, repr("x" * 58)),  # 60 characters quoted: shown whole
        ("x" * 59, repr("x" * 59)[:57] + "..."),  # 61: cut to 57 and an ellipsis
    ],
)
def test_a_wrong_cell_is_quoted_up_to_sixty_characters(
    referee: Referee, value: str, shown: str
) -> None:
    assert referee.judge([[value, -1], [1, 1]]) == f"(0, 0) is {shown}, not 1"
