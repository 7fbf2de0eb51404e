"""The endgame search: details mutation testing found unchecked (enumeration, limits, ties)."""

from __future__ import annotations

import logging

import pytest

from mineshafted.errors import PartialGrid
from mineshafted.probability import Safest, best_reveal, odds, play_game
from mineshafted.probability.view import position_of
from mineshafted.solver import Position

from .test_endgame import best_play
from .test_policy import Recording


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
    ([[1, None, None, None, None, None, None, None, None]], 3),
    ([[None, 1, None, 1, None, None, None, None, None, 1, None, 1, None]], 6),
    ([[None, None, None, None], [None, 2, 2, None]], 3),
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
    view: PartialGrid = [[None, None, None], [None, 4, None], [None, None, None]]
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
