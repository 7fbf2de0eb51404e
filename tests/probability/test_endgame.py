"""The endgame search: its best reveal wins as often as best play can, by an independent search."""

from __future__ import annotations

import logging
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import Board, BoardManager, Sweep
from mineshafted.board import PartialGrid
from mineshafted.probability import Best, Endgame, Safest, best_reveal, odds, play_game
from mineshafted.probability import policy as policy_module
from mineshafted.probability.endgame import PLACEMENTS
from mineshafted.probability.policy import DEEP_NODES, DEEP_PLACEMENTS
from mineshafted.probability.view import position_of
from mineshafted.solver import Position

from ..conftest import view_of
from .conftest import Recording, best_play


@st.composite
def small_boards(draw: st.DrawFn) -> Board:
    """A board of at most 12 cells whose start cell 0 is safe."""
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(2, 4))
    cells = rows * cols
    mines = draw(st.sets(st.integers(1, cells - 1), min_size=1, max_size=cells - 1))
    return Board.from_mines(rows, cols, mines)


@settings(max_examples=80, deadline=None)
@given(small_boards())
def test_best_reveal_wins_as_often_as_best_play(board: Board) -> None:
    sweep = Sweep(BoardManager(board.to_grid()), mines=board.mine_count)
    report = sweep.run()
    if report.solved:
        return
    position = sweep.position()
    mines_left = board.mine_count - position.mines_found
    placements, wins, by_first = best_play(position.board, mines_left)
    found = best_reveal(position, position.board, mines_left)
    assert found is not None
    assert (found.placements, found.wins) == (placements, wins)
    assert by_first[found.cell] == wins


def test_an_end_cell_beats_the_middle_of_three() -> None:
    # 1 * ? ? ? with one mine left: the middle cell shows 1 either way and leaves a 50/50.
    view = view_of("1*???")
    found = best_reveal(position_of(view), view, 1)
    assert found is not None
    assert found.cell in (2, 4)
    assert (found.wins, found.placements) == (2, 3)


def test_too_many_placements_are_left_to_the_heuristic() -> None:
    view: PartialGrid = [[None] * 8 for _ in range(8)]
    view[0][0] = 0
    view[0][1] = view[1][0] = view[1][1] = 0
    position = position_of(view)
    assert odds(position, 10).placements > 750
    assert best_reveal(position, view, 10) is None


def test_a_search_out_of_nodes_gives_up() -> None:
    view = view_of("1????????")
    position = position_of(view)
    assert best_reveal(position, view, 3, nodes=1) is None
    found = best_reveal(position, view, 3)
    assert isinstance(found, Endgame)
    assert 0 < found.chance < 1


def test_best_plays_the_endgame_and_can_switch_it_off() -> None:
    # Only the endgame tells an end cell (wins 2 in 3) from the middle one (1 in 3): the
    # heuristic's tie-breaks take the corner-most cell first, and the middle one is in the
    # heuristic's reach too, so check the endgame choice is the end cell every time.
    view = view_of("1*???")
    position = position_of(view)
    chances = odds(position, 2)
    for seed in range(10):
        cell = Best().choose(position, chances, view, random.Random(seed))
        assert cell in (2, 4)
    assert Best(endgame=False).name == "best-endgame"


def test_a_position_with_nothing_to_guess_has_no_endgame() -> None:
    # The only unknown cell is decided: cell 0 is the mine the clue 1 beside it needs.
    view = view_of("?1.")
    assert best_reveal(position_of(view), view, 1) is None
    # And a position no placement fits.
    assert best_reveal(position_of(view), view, 0) is None


def real_stalls() -> list[tuple[Position, PartialGrid, int]]:
    """Stalls met playing small games with the safest policy, as (position, view, mines left)."""
    recording = Recording(Safest(), 6)
    for seed in range(40):
        play_game(4, 5, 6, seed=seed, policy=recording)
    return [
        (s.position, s.position.board, s.mines - s.position.mines_found)
        for s in recording.stalls
        if s.odds.placements <= 60
    ]


HAND_MADE: list[tuple[PartialGrid, int]] = [
    (view_of("1????????"), 3),
    (view_of("?1?1?????1?1?"), 6),
    (view_of("????\n?22?"), 3),
]


def cases() -> list[tuple[Position, PartialGrid, int]]:
    made = [(position_of(view), view, mines) for view, mines in HAND_MADE]
    return made + real_stalls()


def test_best_reveal_wins_as_often_as_best_play_on_bigger_stalls() -> None:
    searched = 0
    for position, view, mines_left in cases():
        placements, wins, by_first = best_play(view, mines_left)
        if placements < 2:
            continue
        found = best_reveal(position, view, mines_left)
        assert found is not None
        assert (found.placements, found.wins) == (placements, wins)
        assert by_first[found.cell] == wins
        # Between reveals that win equally often, the safest is taken.
        chances = odds(position, mines_left + position.mines_found)
        tied = [cell for cell, n in by_first.items() if n == wins]
        assert chances.mined[found.cell] == min(chances.mined[cell] for cell in tied)
        searched += placements > 4
    assert searched >= 10


def test_placements_that_leave_too_many_mines_for_the_free_cells_are_skipped_not_the_rest() -> None:
    # Components {0, 2, 4} (1 mine on 2, or 2 on 0 and 4) and {8, 10, 12} alike; 5, 6, 7 free.
    # With 6 mines the first combination (1 + 1) leaves 4 for the 3 free cells: skip it, and
    # count 1 + 1 + 3 placements from the others.
    view, mines = HAND_MADE[1]
    position = position_of(view)
    found = best_reveal(position, view, mines)
    assert found is not None
    assert found.placements == odds(position, mines).placements == 5


def test_at_most_the_placement_limit_is_searched() -> None:
    view, mines = HAND_MADE[1]
    position = position_of(view)
    assert best_reveal(position, view, mines, placements=5) is not None
    assert best_reveal(position, view, mines, placements=4) is None


def test_a_component_of_many_placements_within_the_limit_is_searched() -> None:
    # A 4 in the middle of a 3x3 board, 4 mines: C(8, 4) = 70 placements of one component.
    view = view_of("???\n?4?\n???")
    found = best_reveal(position_of(view), view, 4)
    assert found is not None
    assert found.placements == 70


def test_a_search_out_of_nodes_logs_its_budget_and_placements(
    caplog: pytest.LogCaptureFixture,
) -> None:
    view, mines = HAND_MADE[0]
    with caplog.at_level(logging.DEBUG, logger="mineshafted.probability.endgame"):
        assert best_reveal(position_of(view), view, mines, nodes=1) is None
    assert caplog.messages == ["endgame: over 1 nodes on 21 placements"]


def test_the_deep_endgame_searches_past_the_shallow_limit() -> None:
    # A 1 on a 3x6 board, 5 mines: 1,008 placements, over the shallow limit of 750.
    view = view_of("??????\n?1????\n??????")
    position = position_of(view)
    chances = odds(position, 5)
    assert PLACEMENTS < chances.placements <= DEEP_PLACEMENTS
    assert best_reveal(position, view, 5) is None
    deep = best_reveal(position, view, 5, placements=DEEP_PLACEMENTS, nodes=DEEP_NODES)
    assert deep is not None
    assert Best(deep=True).choose(position, chances, view, random.Random(0)) == deep.cell


def test_the_deep_endgame_plays_best_where_the_shallow_one_leaves_the_heuristic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With the shallow limit at 0 only the deep endgame searches: it must win as often as
    # best play (an independent search), where the shallow policy's heuristic sometimes
    # does not.
    monkeypatch.setattr(policy_module, "PLACEMENTS", 0)
    recording = Recording(Safest(), 6)
    for seed in range(40):
        play_game(4, 5, 6, seed=seed, policy=recording)
    worse = 0
    for number, stall in enumerate(recording.stalls):
        if stall.odds.placements > 60 or stall.odds.safe:
            continue
        _, wins, by_first = best_play(stall.board, stall.mines - stall.position.mines_found)
        deep = Best(deep=True).choose(
            stall.position, stall.odds, stall.board, random.Random(number)
        )
        shallow = Best().choose(stall.position, stall.odds, stall.board, random.Random(number))
        assert by_first[deep] == wins
        worse += by_first[shallow] < wins
    assert worse >= 5
