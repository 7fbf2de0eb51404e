"""sweep_mines: the sample, the course's manager, soundness, completeness, and stalls."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mineshafted import (
    Board,
    BoardManager,
    ConstraintSearch,
    ContradictionError,
    NeedsGuess,
    Status,
    Sweep,
    sweep_mines,
)

from ..conftest import SAMPLE, CourseManager, Recorder


def test_sample_board(sample: list[list[int]]) -> None:
    assert sweep_mines(BoardManager(sample)) == SAMPLE


def test_works_with_the_course_manager(sample: list[list[int]]) -> None:
    assert sweep_mines(CourseManager(sample)) == SAMPLE


def test_moves_every_safe_cell_exactly_once() -> None:
    board = Board.from_text(
        """
        . . . . . .
        . . . * . .
        . . . . . *
        * . . . . .
        """
    )
    recorder = Recorder(BoardManager(board), board)
    assert sweep_mines(recorder) == board.to_grid()
    assert sorted(recorder.moves) == [c for c, v in enumerate(board.values) if v >= 0]
    assert recorder.moves[0] == 0


def test_starts_from_a_nonzero_index_0() -> None:
    board = Board.from_text(
        """
        . * .
        . . .
        . . .
        """
    )
    assert board.values[0] == 1
    with pytest.raises(NeedsGuess) as info:
        sweep_mines(BoardManager(board))
    # Index 0 says 1: one of its three neighbours is a mine, and nothing tells which.
    assert info.value.board[0][0] == 1
    assert info.value.undetermined == [1, 2, 3, 4, 5, 6, 7, 8]
    assert info.value.frontier == [1, 3, 4]


class NoSearch:
    """An engine that never proves anything: the sweep without its completeness stage."""

    def __call__(self, component: object, graph: object) -> dict[int, bool]:
        return {}


def test_search_is_what_solves_a_board_arc_consistency_cannot() -> None:
    board = Board.from_grid(HUNTED)
    report = Sweep(BoardManager(board)).run()
    assert report.solved and report.proven_by["search"] > 0
    assert report.board == HUNTED
    assert not Sweep(BoardManager(board), search=NoSearch()).run().solved


def test_needs_guess_carries_the_partial_board() -> None:
    board = Board.from_text(
        """
        . . * .
        . . . .
        . . . *
        . . . .
        """
    )
    with pytest.raises(NeedsGuess) as info:
        sweep_mines(BoardManager(board))
    error = info.value
    # The 2 at (1, 3) needs one mine in 3 or 11; nothing can tell which, nor what 15 is.
    assert error.board == [[0, 1, -1, None], [0, 1, 2, 2], [0, 0, 1, None], [0, 0, 1, None]]
    assert error.undetermined == [3, 11, 15]
    assert error.frontier == [3, 11, 15]
    assert error.moves == 12


def test_report_counts_moves_and_stages(sample: list[list[int]]) -> None:
    report = Sweep(BoardManager(sample)).run()
    assert report.status is Status.SOLVED
    assert report.moves == 10 and report.seconds > 0
    assert sum(report.proven_by.values()) == 12


def test_contradictory_manager_is_reported() -> None:
    class Liar:
        """A 1x4 strip whose third clue claims two mines beside it, with room for one."""

        size = (1, 4)

        def move(self, index: int) -> int:
            return [0, 0, 2, 0][index]

        def get_adjacent(self, index: int) -> list[int]:
            return [i for i in (index - 1, index + 1) if 0 <= i < 4]

    with pytest.raises(ContradictionError, match="clue 2 at cell 2 cannot hold"):
        sweep_mines(Liar())


def test_start_on_a_mine_raises_the_managers_error() -> None:
    with pytest.raises(RuntimeError):
        sweep_mines(CourseManager([[-1, 1], [1, 1]]))


def test_python_constraint_engine_agrees() -> None:
    board = Board.from_grid(HUNTED)
    assert sweep_mines(BoardManager(board), search=ConstraintSearch()) == HUNTED


@st.composite
def boards(draw: st.DrawFn, max_side: int = 9) -> Board:
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    cells = rows * cols
    mines = draw(st.sets(st.integers(1, max(cells - 1, 1)), max_size=cells // 3))
    return Board.from_mines(rows, cols, {m for m in mines if m < cells})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_never_moves_onto_a_mine_and_is_exact_or_stalls(board: Board) -> None:
    recorder = Recorder(CourseManager(board.to_grid()), board)
    try:
        result = sweep_mines(recorder)
    except NeedsGuess as stall:
        assert stall.undetermined
        assert len(recorder.moves) == stall.moves
        for cell, value in enumerate(v for row in stall.board for v in row):
            assert value is None or value == board.values[cell]
    else:
        assert result == board.to_grid()
        assert len(recorder.moves) == board.safe_count


@settings(max_examples=150, deadline=None)
@given(boards(max_side=5))
def test_stalls_only_when_no_undetermined_cell_is_forced(board: Board) -> None:
    """Completeness: at a stall, every undetermined cell can be a mine and can be safe."""
    report = Sweep(BoardManager(board)).run()
    if report.solved:
        return
    known = {c: v for c, v in enumerate(v for row in report.board for v in row) if v is not None}
    cells = report.undetermined
    assume(len(cells) <= 12)
    seen: dict[int, set[bool]] = {c: set() for c in cells}
    proven_mines = {c for c, v in known.items() if v == -1}
    for bits in product((False, True), repeat=len(cells)):
        mines = proven_mines | {c for c, b in zip(cells, bits, strict=True) if b}
        world = Board.from_mines(board.geometry.rows, board.geometry.cols, mines)
        if all(world.values[c] == v for c, v in known.items() if v >= 0):
            for c, b in zip(cells, bits, strict=True):
                seen[c].add(b)
    assert all(values == {False, True} for values in seen.values())


# A board that AC-3 alone cannot finish: the component search proves the way through.
HUNTED = [
    [0, 0, 0, 1, -1, 1, 0, 0, 0],
    [0, 0, 0, 2, 2, 3, 2, 2, 1],
    [0, 0, 1, 2, -1, 3, -1, -1, 1],
    [0, 0, 1, -1, 4, -1, 4, 4, 2],
    [0, 0, 1, 3, -1, 4, -1, 3, -1],
    [0, 0, 0, 2, -1, 4, 2, 4, -1],
    [1, 1, 0, 1, 1, 2, -1, 3, 2],
    [-1, 1, 0, 0, 0, 1, 2, -1, 1],
]
