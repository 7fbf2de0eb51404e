"""record_solve: a sweep as a game record whose reveals and flags carry the deciding stage."""

from __future__ import annotations

import gc
import io
import random
import weakref
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import Board, BoardManager
from mineshafted.errors import NoPlacementError
from mineshafted.formats import read_puzzles
from mineshafted.game import (
    Flag,
    Game,
    GameRecord,
    GameStatus,
    Outcome,
    Reveal,
    Rules,
    read_record,
    rebuild,
    views_of,
    write_record,
)
from mineshafted.probability import Safest, loop
from mineshafted.solver import Stage, Sweep, recording
from mineshafted.solver.recording import ReasonedManager, record_solve

pytestmark = pytest.mark.usefixtures("each_core")  # every test under each core

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
STAGES = {stage.value for stage in Stage}
SLOW = pytest.mark.slow


def _puzzle_board(name: str) -> tuple[Board, int]:
    puzzle = read_puzzles(PUZZLES / name)[0]
    return puzzle.board, puzzle.start


def _stage_of(board: Board, start: int, mines: int | None = None) -> dict[int, str]:
    """Each cell a separate sweep proved, with the stage that proved it."""
    sweep = Sweep(BoardManager(board.to_grid()), start=start, mines=mines)
    sweep.run()
    return {cell: stage.value for cell, _, stage in sweep.decisions}


def test_a_solved_board_is_won_and_replays_to_the_same_game() -> None:
    board, start = _puzzle_board("no-guess/30x16-99/01.json")
    record = record_solve(board, start=start)
    game = rebuild(record)
    assert game.status is GameStatus.WON
    assert isinstance(record.events[-1], Outcome)
    assert record.events[-1].mines == tuple(sorted(board.mines))


def test_each_reveal_names_the_stage_a_separate_sweep_proved_its_cell_by() -> None:
    board, start = _puzzle_board("needs-guess/30x16-99-01.json")
    record = record_solve(board, start=start)
    stages = _stage_of(board, start)
    reveals = [e for e in record.events if isinstance(e, Reveal)]
    assert reveals[0].cell == start and reveals[0].reason == "start"
    assert {e.reason for e in reveals} <= STAGES
    for event in reveals:
        assert event.reason == stages.get(event.cell, Stage.COUNT.value)
    assert "complete" in {e.reason for e in record.events}


def test_flags_are_proven_mines_with_their_stage_and_never_a_safe_cell() -> None:
    board, start = _puzzle_board("needs-guess/16x16-40-02.json")
    record = record_solve(board, start=start)
    stages = _stage_of(board, start)
    flags = [e for e in record.events if isinstance(e, Flag)]
    assert flags
    assert {e.cell for e in flags} <= board.mines
    for event in flags:
        assert event.reason == stages.get(event.cell, Stage.COUNT.value)


def test_a_stalled_solve_ends_in_play_without_an_outcome_and_reads_back() -> None:
    board, start = _puzzle_board("needs-guess/9x9-10-01.json")
    record = record_solve(board, start=start)
    assert not any(isinstance(e, Outcome) for e in record.events)
    assert rebuild(record).status is GameStatus.PLAYING
    out = io.StringIO()
    write_record(record, out)
    assert read_record(io.StringIO(out.getvalue())) == record


def test_the_mine_total_is_shown_and_its_stage_recorded() -> None:
    # 0 1 * ?: the last cell is walled in; with the total (1) it is proven safe by the count.
    board = Board.from_grid([[0, 1, -1, 1]])
    without = record_solve(board)
    assert rebuild(without).status is GameStatus.PLAYING
    record = record_solve(board, mines=1)
    assert record.header.rules.total_known
    assert [(e.cell, e.reason) for e in record.events if isinstance(e, Reveal)][-1] == (
        3,
        "total",
    )
    assert rebuild(record).status is GameStatus.WON


def test_a_start_on_a_mine_is_recorded_as_lost() -> None:
    record = record_solve(Board.from_grid([[-1, 1]]))
    assert [e.kind for e in record.events] == ["reveal", "mine", "outcome"]
    assert rebuild(record).status is GameStatus.LOST


@pytest.mark.parametrize("name", ["no-guess/9x9-10/01.json", "needs-guess/5x5-4-01.json"])
def test_no_flag_lands_on_a_revealed_cell_and_each_position_is_reachable(name: str) -> None:
    board, start = _puzzle_board(name)
    record = record_solve(board, start=start)
    views = list(views_of(record))  # replaying refuses a flag on a revealed cell
    assert len(views) == len(record.events) - (views[-1].status is not GameStatus.PLAYING) + 1


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_board_records_a_valid_game_whose_reveals_are_safe(data: st.DataObject) -> None:
    board, start, total = _drawn(data, 6)
    record = record_solve(board, start=start, mines=total)
    game = rebuild(record)
    assert game.mines_hit == ()
    assert game.flags <= board.mines
    report = Sweep(BoardManager(board.to_grid()), start=start, mines=total).run()
    assert game.won == (set(report.undetermined) <= board.mines)  # every safe cell revealed


def _drawn(data: st.DataObject, most: int) -> tuple[Board, int, int | None]:
    """A board of up to ``most`` rows and columns, any mines but on its start, the start, and
    its mine total or ``None`` (not told)."""
    rows, cols = data.draw(st.integers(1, most)), data.draw(st.integers(1, most))
    cells = rows * cols
    start = data.draw(st.integers(0, cells - 1))
    mines = data.draw(st.sets(st.integers(0, cells - 1).filter(lambda c: c != start)))
    total = data.draw(st.sampled_from([None, len(mines)]))
    return Board.from_mines(rows, cols, mines), start, total


def _recorded(board: Board, start: int, mines: int | None, *, plain: bool) -> GameRecord:
    """:func:`record_solve`, with the plain watch or the search for the mines counting proved."""
    rules = Rules.MINE_SHAFTED if mines is None else replace(Rules.MINE_SHAFTED, total_known=True)
    game = Game.on(board, rules=rules, seed=0)
    recorder = ReasonedManager(game, plain=plain)
    recorder.sweep = Sweep(recorder, start=start, mines=mines)
    try:
        recorder.sweep.run()
    except RuntimeError:  # the start cell held a mine
        return game.record
    recorder.flag_news()
    return game.record


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_search_flags_what_the_plain_watch_flags_on_any_board(data: st.DataObject) -> None:
    board, start, total = _drawn(data, 9)
    searched = _recorded(board, start, total, plain=False)
    assert searched == _recorded(board, start, total, plain=True)


@pytest.mark.parametrize(
    "name",
    [
        "needs-guess/30x16-99-01.json",
        "needs-guess/16x16-40-02.json",
        "no-guess/30x16-130/02.json",
        "no-guess/16x16-40/03.json",
        "no-guess/tier-5-mines/01.json",
    ],
)
def test_the_search_flags_what_the_plain_watch_flags_on_shipped_puzzles(name: str) -> None:
    board, start = _puzzle_board(name)
    for total in (None, len(board.mines)):
        searched = _recorded(board, start, total, plain=False)
        assert searched == _recorded(board, start, total, plain=True)
        assert any(isinstance(e, Flag) and e.reason == "count" for e in searched.events)


def test_classic_play_flags_what_the_plain_watch_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    # Guesses open zero regions outside the sweep, told through border_around.
    def played(seed: int) -> GameRecord:
        game = Game.draw(16, 16, 40, rules=Rules.CLASSIC, seed=seed)
        loop.play_out(game, Safest(), random.Random(seed), start=0, stages=True)
        return game.record

    searched = [played(seed) for seed in range(6)]
    monkeypatch.setattr(loop, "ReasonedManager", partial(ReasonedManager, plain=True))
    assert searched == [played(seed) for seed in range(6)]
    events = [e for record in searched for e in record.events]
    assert any(isinstance(e, Reveal) and e.guess and len(e.revealed) > 1 for e in events)
    assert any(isinstance(e, Flag) and e.reason == "count" for e in events)


@pytest.mark.parametrize(
    "name",
    ["no-guess/60x60-540/01.json", pytest.param("no-guess/200x200-5000/01.json", marks=SLOW)],
)
def test_the_search_reads_a_few_cells_per_cell_of_the_board_whatever_its_size(name: str) -> None:
    # The watch read every hidden cell beside a clue at each move: 240 cells a move on
    # average on the 200x200 board, 8.5 million in all. The search reads each ring once
    # per change beside it.
    board, start = _puzzle_board(name)
    game = Game.on(board, rules=Rules.MINE_SHAFTED, seed=0)
    recorder = ReasonedManager(game)
    recorder.sweep = Sweep(recorder, start=start)
    assert recorder.sweep.run().solved
    recorder.flag_news()
    assert recorder.reads <= 10 * board.geometry.cells
    assert len(game.record.events) == board.geometry.cells + 1  # a reveal or flag each, the end


@pytest.mark.parametrize("enabled", [True, False])
def test_a_recording_leaves_the_garbage_collector_as_it_found_it(enabled: bool) -> None:
    # record_solve pauses the collector during the sweep, and resumes it only if it ran.
    board, start = _puzzle_board("needs-guess/9x9-10-01.json")
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        record_solve(board, start=start)
        assert gc.isenabled() is enabled
        record_solve(Board.from_grid([[-1, 1]]))  # a start on a mine
        assert gc.isenabled() is enabled
        with pytest.raises(NoPlacementError):  # a mine total the clues refuse
            record_solve(Board.from_grid([[0, 1, -1, 1]]), mines=3)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_a_recording_frees_its_sweep_when_it_returns(monkeypatch: pytest.MonkeyPatch) -> None:
    # The sweep and the recorder hold each other: without the cycle broken, they would wait
    # for a collection (the collector is off here, so only reference counts free anything).
    made: list[weakref.ref[Sweep]] = []

    class Watched(Sweep):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(weakref.ref(self))

    monkeypatch.setattr(recording, "Sweep", Watched)
    board, start = _puzzle_board("no-guess/9x9-10/01.json")
    was = gc.isenabled()
    gc.disable()
    try:
        record = record_solve(board, start=start)
        assert len(made) == 1 and made[0]() is None
    finally:
        gc.enable() if was else gc.disable()
    assert rebuild(record).status is GameStatus.WON
