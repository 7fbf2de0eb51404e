"""sweep_mines: the sample, the course's manager, soundness, completeness, and stalls; the sweep's
report, its clock, its decisions and what it logs at the end, on one board that needs AC-3, the
search and a guess."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from itertools import product
from pathlib import Path

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
    Technique,
    read_puzzles,
    sweep_mines,
)
from mineshafted.errors import ManagerError
from mineshafted.solver import Stage, SweepReport
from mineshafted.solver import sweep as sweep_module

from ..conftest import HUNTED, SAMPLE, CourseManager, Recorder

pytestmark = pytest.mark.usefixtures("each_core")  # every test under each core

NEEDS_GUESS = Path(__file__).resolve().parents[2] / "puzzles" / "needs-guess"


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
    assert report.solved and report.proven_by["complete"] > 0
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
    assert report.status is Status.SOLVED and report.solved
    assert report.moves == 10 and report.seconds > 0
    # The start, then the clues of the left column; AC-3 proves the first cell of the right.
    assert report.proven_by == {"start": 1, "ac3": 1, "count": 10}
    assert report.searches == 0 and report.undetermined == [] and report.frontier == []


def test_decisions_list_each_cell_decided_outside_the_counting_in_order(
    sample: list[list[int]],
) -> None:
    sweep = Sweep(BoardManager(sample))
    sweep.run()
    assert [(cell, mine, stage.value) for cell, mine, stage in sweep.decisions] == [
        (0, False, "start"),
        (8, True, "ac3"),
    ]


def test_report_of_a_stall_and_of_searches() -> None:
    board = Board.from_grid(HUNTED)
    report = Sweep(BoardManager(board), search=NoSearch()).run()
    assert report.status is Status.NEEDS_GUESS and not report.solved
    assert report.searches > 0 and report.proven_by["complete"] == 0
    assert report.frontier and set(report.frontier) <= set(report.undetermined)
    solved = Sweep(BoardManager(board)).run()
    assert solved.proven_by["complete"] > 0 and solved.searches > 0


def test_sweep_mines_uses_the_search_it_is_given() -> None:
    with pytest.raises(NeedsGuess):
        sweep_mines(BoardManager(Board.from_grid(HUNTED)), search=NoSearch())


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


@pytest.mark.slow  # over 0.5 s on a quiet machine: CI runs it
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


def play_to_the_end(board: Board, manager: object) -> Sweep:
    """Sweep, and at every stall tell the sweep the truth of the lowest undetermined cell."""
    sweep = Sweep(manager)  # type: ignore[arg-type]
    report = sweep.run()
    while not report.solved:
        cell = report.undetermined[0]
        if board.values[cell] == -1:
            sweep.tell(cell, mine=True)
        else:
            sweep.guess(cell)
        report = sweep.advance()
    return sweep


@pytest.mark.parametrize("name", ["9x9-10-01", "16x16-40-01", "30x16-99-01", "30x16-99-02"])
def test_a_needs_guess_board_is_played_to_the_end_when_told_each_stall(name: str) -> None:
    (puzzle,) = read_puzzles(NEEDS_GUESS / f"{name}.json")
    board = puzzle.board
    recorder = Recorder(BoardManager(board), board)  # fails on a mine or a repeated move
    sweep = play_to_the_end(board, recorder)
    report = sweep.report
    assert report.board == board.to_grid()
    assert report.moves == board.safe_count == len(recorder.moves)
    assert report.proven_by["guess"] + report.proven_by["told"] >= 1
    assert sum(report.proven_by.values()) == board.geometry.cells


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_resuming_after_each_stall_solves_any_board_exactly(data: st.DataObject) -> None:
    board = data.draw(boards())
    assume(board.values[0] != -1)
    recorder = Recorder(CourseManager(board.to_grid()), board)
    report = play_to_the_end(board, recorder).report
    assert report.board == board.to_grid()
    assert len(recorder.moves) == board.safe_count


def test_telling_the_opposite_of_a_decided_cell_raises() -> None:
    sweep = Sweep(BoardManager(SAMPLE))
    sweep.run()
    with pytest.raises(ContradictionError):
        sweep.tell(5, mine=False)


@settings(max_examples=150, deadline=None)
@given(boards(max_side=5))
@pytest.mark.slow
def test_a_stalls_position_allows_exactly_the_placements_the_clues_allow(board: Board) -> None:
    assume(board.values[0] != -1)
    sweep = Sweep(BoardManager(board))
    report = sweep.run()
    assume(not report.solved)
    position = sweep.position()
    assert position.unknown == report.undetermined
    assert position.mines_found == sum(v == -1 for row in report.board for v in row)
    cells_of = [{c for scope, _ in comp for c in scope} for comp in position.components]
    assert sum(map(len, cells_of)) == len(set().union(*cells_of))  # components share no cell
    assert not set(position.unconstrained) & set().union(*cells_of)
    # Brute force: placements of the unknown cells that the clues allow are exactly those
    # that the position's constraints allow.
    cells = report.undetermined
    assume(len(cells) <= 11)
    known = {c: v for c, v in enumerate(v for row in report.board for v in row) if v is not None}
    proven = {c for c, v in known.items() if v == -1}
    constraints = [item for comp in position.components for item in comp]
    for bits in product((False, True), repeat=len(cells)):
        mines = {c for c, b in zip(cells, bits, strict=True) if b}
        world = Board.from_mines(board.geometry.rows, board.geometry.cols, proven | mines)
        by_clues = all(world.values[c] == v for c, v in known.items() if v >= 0)
        by_position = all(len(mines.intersection(scope)) == m for scope, m in constraints)
        assert by_clues == by_position


# One board that needs AC-3, the search and a guess.
STALLS = Board.from_mines(6, 6, [26, 34, 35, 16, 24, 21, 13, 31, 32])
"""6x6 with 9 mines: AC-3 decides 5 cells, one search decides one, then it stalls on 8."""

STALLED_BOARD = [
    [0, 0, 0, 0, 0, 0],
    [1, 1, 1, 1, 1, 1],
    [1, -1, 2, 2, -1, 1],
    [2, 3, None, None, 2, 1],
    [None, None, None, None, 3, 2],
    [None, None, -1, 3, -1, -1],
]


@pytest.fixture
def ticking(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock for the sweep that moves on one second at each reading."""
    ticks: Iterator[float] = iter(range(1000))
    monkeypatch.setattr(sweep_module, "perf_counter", lambda: float(next(ticks)))


def test_a_report_before_any_advance_is_empty_and_stalled() -> None:
    report = Sweep(BoardManager(STALLS)).report
    assert report == SweepReport(Status.NEEDS_GUESS, [], [], [], moves=0, seconds=0.0)
    assert (report.searches, report.proven_by) == (0, {})


def test_a_stalled_report_has_every_field(ticking: None) -> None:
    report = Sweep(BoardManager(STALLS)).run()
    assert report.status is Status.NEEDS_GUESS
    assert report.board == STALLED_BOARD
    assert report.undetermined == [20, 21, 24, 25, 26, 27, 30, 31]
    assert report.frontier == [20, 21, 24, 25, 26, 27]
    assert (report.moves, report.seconds, report.searches) == (23, 1.0, 2)
    assert report.proven_by == {"start": 1, "ac3": 5, "complete": 1, "count": 21}


def test_the_seconds_of_every_advance_add_up(ticking: None) -> None:
    sweep = Sweep(BoardManager(STALLS))
    assert sweep.run().seconds == 1.0
    sweep.guess(30)
    assert sweep.advance().seconds == 2.0


def test_a_guess_is_a_safe_decision_by_the_guess_stage() -> None:
    sweep = Sweep(BoardManager(STALLS))
    sweep.run()
    sweep.guess(30)
    assert sweep.decisions[-1] == (30, False, Stage.GUESS)
    assert sweep.decisions[-1][1] is False


def test_the_position_carries_the_board_as_known() -> None:
    sweep = Sweep(BoardManager(STALLS))
    sweep.run()
    position = sweep.position()
    assert position.board == STALLED_BOARD
    assert position.unconstrained == [30, 31]
    assert position.mines_found == 5


def test_a_stalled_sweep_logs_where_it_stopped(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="mineshafted.solver.sweep")
    Sweep(BoardManager(STALLS), mines=9).run()
    assert [r.getMessage() for r in caplog.records] == [
        "stalled after 23 move(s): 8 undetermined cell(s), 6 beside a clue"
    ]


def test_a_solved_sweep_logs_its_moves_and_proofs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="mineshafted.solver.sweep")
    Sweep(BoardManager([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]])).run()
    assert [r.getMessage() for r in caplog.records] == [
        "solved: 10 move(s), cells proven by stage {'start': 1, 'ac3': 1, 'count': 10}"
    ]


def test_a_manager_without_a_size_is_named() -> None:
    with pytest.raises(ManagerError, match=r"size is None, not two positive ints"):
        Sweep(object())  # type: ignore[arg-type]


# -- the rungs a sweep climbs, its rating, its deadline ---------------------------------------


@pytest.mark.parametrize(
    ("technique", "mines", "rungs"),
    [
        (None, None, ["ac3", "complete"]),
        (None, 2, ["ac3", "complete", "total"]),
        ("count", None, []),
        ("subset", None, ["subset"]),
        ("ac3", 2, ["subset", "ac3"]),
        ("total", 2, ["subset", "ac3", "complete", "total"]),
    ],
)
def test_a_sweep_climbs_the_rungs_up_to_its_technique(
    technique: str | None, mines: int | None, rungs: list[str]
) -> None:
    chosen = None if technique is None else Technique(technique)
    sweep = Sweep(BoardManager(SAMPLE), mines=mines, technique=chosen)
    assert [t.value for t in sweep.rungs] == rungs


def test_the_rating_a_sweep_tells_is_the_strongest_rung_it_needed_or_none_if_it_skipped_below() -> (
    None
):
    ladder = Sweep(BoardManager(SAMPLE), technique=Technique.AC3)
    ladder.run()
    assert ladder.rating() is Technique.SUBSET
    plain_sweep = Sweep(BoardManager(SAMPLE))  # no subset rung: AC-3 may have done its work
    plain_sweep.run()
    assert plain_sweep.report.proven_by["ac3"] and plain_sweep.rating() is None
    stalled = Sweep(BoardManager(SAMPLE), technique=Technique.COUNT)
    assert not stalled.run().solved and stalled.rating() is Technique.GUESS


def test_a_sweep_past_its_deadline_gives_up_and_carries_on_when_given_time() -> None:
    sweep = Sweep(BoardManager(SAMPLE), deadline=0.0)
    with pytest.raises(TimeoutError):
        sweep.advance()
    assert sweep.report.seconds > 0
    sweep.deadline = None
    assert sweep.advance().board == SAMPLE


def test_a_total_too_wide_to_count_decides_nothing_and_says_so(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mineshafted.solver import ladder as ladder_module
    from mineshafted.solver.weights import CountTooLargeError

    def too_wide(*_: object) -> list[tuple[int, bool]]:
        raise CountTooLargeError(cells=432, memory=512)

    board = [[0, 1, -1, -1]]  # the last mine is walled in by the first: only the total finds it
    assert Sweep(BoardManager(board), mines=2).run().solved
    monkeypatch.setattr(ladder_module, "decided_by_total", too_wide)
    with caplog.at_level("WARNING", logger="mineshafted.solver.sweep"):
        report = Sweep(BoardManager(board), mines=2).run()
    assert report.status is Status.NEEDS_GUESS and report.undetermined == [3]
    assert "total: not counted, counting the placements would take more than 512" in caplog.text
