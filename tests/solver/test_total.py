"""The mine total in deduction: the cells the count decides, and the sweep's total stage."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import Board, BoardManager, NeedsGuess, NoPlacementError, Sweep, sweep_mines
from mineshafted.probability import position_of
from mineshafted.solver import Fact, Position, tally


def certain(stall: Sweep | Position, mines: int) -> list[Fact]:
    position = stall.position() if isinstance(stall, Sweep) else stall
    return tally(position, mines).certain()


@pytest.fixture
def walled() -> Sweep:
    """``0 1 * ?``: cell 3 is walled in by the mine and seen by no clue; stalled."""
    sweep = Sweep(BoardManager([[0, 1, -1, 1]]))
    assert sweep.run().undetermined == [3]
    return sweep


def test_a_walled_in_cell_is_safe_when_the_mines_are_all_found(walled: Sweep) -> None:
    assert certain(walled, 1) == [(3, False)]


def test_a_walled_in_cell_is_a_mine_when_one_mine_is_left_for_it(walled: Sweep) -> None:
    assert certain(walled.position(), 2) == [(3, True)]


@pytest.mark.parametrize(("mines", "expected"), [(3, True), (0, False)])
def test_the_last_unknown_cells_hold_all_the_mines_left_or_none(mines: int, expected: bool) -> None:
    # Three unknown cells that no clue sees: the bottom clues see only the known mines.
    position = position_of([[None, None, None], [-1, -1, -1], [2, 3, 2]])
    assert position.unconstrained == [0, 1, 2]
    assert certain(position, mines + 3) == [(0, expected), (1, expected), (2, expected)]


def test_a_frontier_option_that_needs_more_mines_than_remain_is_ruled_out() -> None:
    # One mine on 20 or 21 (either); a chain (10, 11), (11, 12) of one mine each: 11 alone,
    # or 10 and 12. With two mines left the chain can hold only one: 11.
    pair = [((20, 21), 1)]
    chain = [((10, 11), 1), ((11, 12), 1)]
    position = Position([[None] * 22], [chain, pair], [], 0)
    assert certain(position, 2) == [(10, False), (11, True), (12, False)]
    assert certain(position, 3) == [(10, True), (11, False), (12, True)]


def test_the_total_decides_nothing_when_both_options_fit() -> None:
    position = Position([[None] * 13], [[((10, 11), 1), ((11, 12), 1)]], [0], 0)
    assert certain(position, 2) == []


def test_a_total_that_does_not_fit_raises(walled: Sweep) -> None:
    with pytest.raises(NoPlacementError):
        certain(walled, 3)


def test_the_total_opens_a_region_walled_off_by_mines() -> None:
    board = Board.from_text(
        """
        . . * . .
        . . * . .
        """
    )
    with pytest.raises(NeedsGuess):
        sweep_mines(BoardManager(board.to_grid()))
    assert sweep_mines(BoardManager(board.to_grid()), mines=2) == board.to_grid()
    report = Sweep(BoardManager(board.to_grid()), mines=board.mine_count).run()
    assert report.solved
    assert report.board == board.to_grid()
    assert report.proven_by["total"] == 4


def test_the_total_stage_stops_where_the_total_decides_nothing() -> None:
    board = Board.from_text(
        """
        . . * .
        . . * *
        """
    )
    report = Sweep(BoardManager(board.to_grid()), mines=board.mine_count).run()
    assert not report.solved
    assert report.undetermined == [3, 7]  # one mine on 3 or 7: a true 50/50
    assert report.proven_by["total"] == 0


@st.composite
def small_boards(draw: st.DrawFn) -> Board:
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(2, 5))
    cells = rows * cols
    return Board.from_mines(
        rows, cols, draw(st.sets(st.integers(1, cells - 1), max_size=cells // 2))
    )


@settings(max_examples=80, deadline=None)
@given(small_boards())
def test_the_total_stage_is_right_and_leaves_nothing_the_total_decides(board: Board) -> None:
    alone = Sweep(BoardManager(board.to_grid())).run()
    sweep = Sweep(BoardManager(board.to_grid()), mines=board.mine_count)
    report = sweep.run()
    truth = board.to_grid()
    for row, known in zip(truth, report.board, strict=True):
        assert all(k is None or k == t for k, t in zip(known, row, strict=True))
    assert set(report.undetermined) <= set(alone.undetermined)
    if not report.solved:
        assert certain(sweep, board.mine_count) == []


def test_a_total_the_clues_cannot_hold_raises_from_the_sweep() -> None:
    with pytest.raises(NoPlacementError, match="at most"):
        sweep_mines(BoardManager([[0, 1, -1, 1]]), mines=3)


def test_without_the_total_the_sweep_never_counts() -> None:
    report = Sweep(BoardManager([[0, 1, -1, 1]])).run()
    assert report.undetermined == [3] and report.proven_by["total"] == 0
