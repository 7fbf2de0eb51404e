"""The sweep's report, its clock, its proofs and its log, pinned on one board that needs AC-3,
the search and a guess (gaps found by mutation testing)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from mineshafted import Board, BoardManager
from mineshafted.errors import ManagerError
from mineshafted.solver import Stage, Status, Sweep, SweepReport
from mineshafted.solver import sweep as sweep_module

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

LOG = [
    "explore: 12 cell(s) explored, 6 clue(s) became variables",
    "propagate: AC-3 decided 1 cell(s)",
    "explore: 1 cell(s) explored, 1 clue(s) became variables",
    "propagate: AC-3 decided 3 cell(s)",
    "explore: 9 cell(s) explored, 5 clue(s) became variables",
    "propagate: AC-3 decided 1 cell(s)",
    "explore: 1 cell(s) explored, 1 clue(s) became variables",
    "propagate: AC-3 decided 0 cell(s)",
    "search: 1 component(s) searched, news: True",
    "explore: 0 cell(s) explored, 0 clue(s) became variables",
    "propagate: AC-3 decided 0 cell(s)",
    "search: 1 component(s) searched, news: False",
]
"""What the sweep logs at DEBUG on :data:`STALLS` (without the total)."""


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
    assert report.proven_by == {"start": 1, "propagation": 5, "search": 1, "clue": 21}


def test_the_seconds_of_every_advance_add_up(ticking: None) -> None:
    sweep = Sweep(BoardManager(STALLS))
    assert sweep.run().seconds == 1.0
    sweep.guess(30)
    assert sweep.advance().seconds == 2.0


def test_a_guess_is_a_safe_proof_by_the_guess_stage() -> None:
    sweep = Sweep(BoardManager(STALLS))
    sweep.run()
    sweep.guess(30)
    assert sweep.proofs[-1] == (30, False, Stage.GUESS)
    assert sweep.proofs[-1][1] is False


def test_the_position_carries_the_board_as_known() -> None:
    sweep = Sweep(BoardManager(STALLS))
    sweep.run()
    position = sweep.position()
    assert position.board == STALLED_BOARD
    assert position.unconstrained == [30, 31]
    assert position.mines_found == 5


def test_the_sweep_logs_each_stage_and_how_it_ended(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="mineshafted.solver.sweep")
    Sweep(BoardManager(STALLS), mines=9).run()
    messages = [r.getMessage() for r in caplog.records if r.name == "mineshafted.solver.sweep"]
    assert messages == [
        *LOG,
        "total: the mine count decided 0 cell(s)",
        "stalled after 23 move(s): 8 undetermined cell(s), 6 beside a clue",
    ]


def test_a_solved_sweep_logs_its_moves_and_proofs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="mineshafted.solver.sweep")
    Sweep(BoardManager([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]])).run()
    assert [r.getMessage() for r in caplog.records] == [
        "solved: 10 move(s), cells proven by stage {'start': 1, 'propagation': 1, 'clue': 10}"
    ]


def test_a_manager_without_a_size_is_named() -> None:
    with pytest.raises(ManagerError, match=r"size is None, not two positive ints"):
        Sweep(object())  # type: ignore[arg-type]
