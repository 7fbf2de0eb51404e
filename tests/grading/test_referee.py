"""The referee: its replies before and after a loss, how its judgement quotes a wrong cell and
counts them, and the moves it keeps after the last new cell (no child process here)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import Board
from mineshafted.grading.protocol import Reply, Unreadable
from mineshafted.grading.referee import LOOP_KEPT, Referee
from mineshafted.grading.result import Loop
from mineshafted.grading.wording import CONTRACT


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
    assert referee.judge([[value, -1], [1, 1]]) == f"cell 0 (row 0, column 0) is {shown}, not 1"


def test_a_wrong_cell_is_named_by_its_index_then_its_row_and_column() -> None:
    referee = Referee(Board.from_grid([[0, 0, 0], [0, 1, 1], [0, 1, -1]]))
    assert (
        referee.judge([[0, 0, 0], [0, 1, 1], [0, 2, -1]]) == "cell 7 (row 2, column 1) is 2, not 1"
    )


def test_every_wrong_cell_is_counted_though_only_the_first_are_kept() -> None:
    referee = Referee(Board.from_grid([[0] * 5] * 4))
    returned = [[None] * 5] * 4
    assert referee.wrong_count(returned) == 20
    assert len(referee.differences(returned, 3)) == 3
    assert referee.wrong_count([[0] * 5] * 4) == 0
    assert referee.wrong_count([[0]]) == 0  # not the board's shape: judged, not counted


def test_the_safe_cells_never_moved_onto_are_named_in_index_order(referee: Referee) -> None:
    referee.answer(3)
    assert referee.unexplored_cells() == [0, 2]


@pytest.mark.parametrize("kind", ["generator", "coroutine", "async_generator"])
def test_an_older_interface_s_iterator_is_told_the_contract(referee: Referee, kind: str) -> None:
    said = referee.judge(Unreadable(kind, "<generator object sweep_mines at 0x7f>"))
    assert said == f"returned a {kind}, not the board: {CONTRACT}"


def test_a_value_json_cannot_carry_is_quoted(referee: Referee) -> None:
    assert referee.judge(Unreadable("set", "{1}")) == "returned a set that is not JSON: {1}"


def _moved(moves: list[int], cells: int = 6) -> Referee:
    referee = Referee(Board.from_grid([[0] * cells]))
    for cell in moves:
        referee.answer(cell)
    return referee


def test_no_loop_when_the_last_move_was_onto_a_new_cell() -> None:
    assert _moved([]).loop is None
    assert _moved([0, 1, 0, 1, 2]).loop is None  # a new cell starts the count afresh


def test_a_long_loop_is_counted_whole_and_its_cycle_kept_once() -> None:
    loop = _moved([0, 1, 2] + [1, 2] * 35_505 + [1]).loop
    assert loop == Loop(first=4, moves=71_011, cells=(1, 2), periodic=True, distinct=2)
    assert (loop.last, loop.repeats) == (71_014, 35_505)


def test_a_cycle_broken_after_the_moves_kept_is_no_cycle() -> None:
    moves = [0, 1, 2] + [1, 2] * LOOP_KEPT + [0]
    loop = _moved(moves).loop
    assert loop is not None and not loop.periodic
    assert loop.cells == tuple(([1, 2] * LOOP_KEPT)[:LOOP_KEPT]) and loop.distinct == 3


def _plain_loop(moves: list[int]) -> Loop | None:
    """The loop of ``moves`` by its definition: the moves after the last one onto a new cell;
    periodic when they all follow a cycle of at most half the kept moves, made twice."""
    seen: set[int] = set()
    last_new = 0
    for number, cell in enumerate(moves, 1):
        if cell not in seen:
            seen.add(cell)
            last_new = number
    tail = moves[last_new:]
    if not tail:
        return None
    for period in range(1, min(LOOP_KEPT // 2, len(tail) // 2) + 1):
        if all(tail[i] == tail[i - period] for i in range(period, len(tail))):
            return Loop(last_new + 1, len(tail), tuple(tail[:period]), True, len(set(tail)))
    return Loop(last_new + 1, len(tail), tuple(tail[:LOOP_KEPT]), False, len(set(tail)))


@settings(max_examples=50)
@given(
    st.lists(st.integers(0, 5), max_size=12),
    st.lists(st.integers(0, 5), min_size=1, max_size=5),
    st.integers(0, 80),
    st.lists(st.integers(0, 5), max_size=3),
)
def test_the_loop_kept_online_is_the_loop_of_the_whole_list_of_moves(
    start: list[int], cycle: list[int], times: int, end: list[int]
) -> None:
    moves = [0, *start, *(cycle * times), *end]
    assert _moved(moves).loop == _plain_loop(moves)
