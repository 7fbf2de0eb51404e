"""Optimal play: the fast search agrees with plain expectimax, board by board and rule by rule."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import Board, BoardManager, Sweep
from mineshafted.board import Geometry
from mineshafted.errors import InvalidBoardError, NoPlacementError
from mineshafted.game import FirstMove
from mineshafted.probability.errors import OutOfBudget
from mineshafted.probability.optimal import (
    MINE_BYTE,
    Budget,
    OptimalPlay,
    Placements,
    Search,
    TooManyPlacements,
    board_optimum,
    board_symmetries,
    position_optimum,
    table_mib,
)
from mineshafted.probability.optimal.reference import PlainSearch
from mineshafted.probability.optimal.search import STATE_BYTES
from mineshafted.probability.view import position_of

from ..conftest import view_of
from .conftest import best_play

SMALL = [(rows, cols) for rows in (1, 2, 3) for cols in (1, 2, 3, 4)]
"""Every board shape up to 3x4."""


def reference_table(rows: int, cols: int, mines: int) -> dict[tuple[FirstMove, int], int]:
    """Plain search's wins for every rule and first reveal that the mines fit."""
    plain = PlainSearch(rows, cols, mines)
    geometry = Geometry(rows, cols)
    found: dict[tuple[FirstMove, int], int] = {}
    for cell in range(geometry.cells):
        found[FirstMove.NONE, cell] = found[FirstMove.SAFE, cell] = plain.first_reveal(cell)
        if mines <= geometry.cells - 1 - len(geometry.neighbours(cell)):
            found[FirstMove.OPENING, cell] = plain.opening(cell)
    return found


def check_against_plain_search(rows: int, cols: int) -> None:
    """Every mine total, rule and first reveal of a shape: the same wins as plain search, and
    the best first reveals are those of the most wins over the placements each allows."""
    cells = rows * cols
    for mines in range(cells):
        play = OptimalPlay(rows, cols, mines)
        expected = reference_table(rows, cols, mines)
        for (first, cell), wins in expected.items():
            assert play.at(first, cell).wins == wins, (rows, cols, mines, first, cell)
        for first in FirstMove:
            chances = {
                cell: Fraction(wins, play.at(first, cell).placements)
                for (rule, cell), wins in expected.items()
                if rule is first
            }
            if not chances:
                with pytest.raises(InvalidBoardError):
                    play.best(first)
                continue
            best = play.best(first)
            top = max(chances.values())
            assert best.chance == top, (rows, cols, mines, first)
            assert best.moves == tuple(c for c, chance in chances.items() if chance == top)


@pytest.mark.parametrize(("rows", "cols"), [(1, 4), (2, 2), (2, 3)])
def test_small_boards_agree_with_plain_search(rows: int, cols: int) -> None:
    check_against_plain_search(rows, cols)


@pytest.mark.slow
@pytest.mark.parametrize(("rows", "cols"), SMALL)
def test_every_board_up_to_3x4_agrees_with_plain_search(rows: int, cols: int) -> None:
    check_against_plain_search(rows, cols)


def test_the_code_golf_board() -> None:
    # 4x4 with 4 mines, first reveal unprotected: 961 of 1,820, first on any edge's middle.
    best = board_optimum(4, 4, 4, first=FirstMove.NONE)
    assert (best.wins, best.placements) == (961, 1820)
    assert best.moves == (1, 2, 4, 7, 8, 11, 13, 14)
    safe = board_optimum(4, 4, 4, first=FirstMove.SAFE)
    assert (safe.wins, safe.placements, safe.moves) == (961, 1365, best.moves)


def test_the_code_golf_position() -> None:
    view = [[None] * 5, [None, 1, None, None, None], [None, 3, None, None, None], [None] * 5]
    best = position_optimum(view, 5)
    assert (best.wins, best.placements, best.moves) == (285, 360, (2,))


@st.composite
def small_stalls(draw: st.DrawFn) -> tuple[list[list[int | None]], int]:
    """A stall of a board of at most 12 cells, swept from a safe cell 0, and its mine total."""
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(2, 4))
    cells = rows * cols
    mines = draw(st.sets(st.integers(1, cells - 1), min_size=1, max_size=cells - 1))
    board = Board.from_mines(rows, cols, mines)
    sweep = Sweep(BoardManager(board.to_grid()), mines=len(board.mines))
    sweep.run()
    return sweep.position().board, len(board.mines)


@pytest.mark.slow  # a second: the plain search of 60 positions
@settings(max_examples=60, deadline=None)
@given(small_stalls())
def test_positions_agree_with_plain_search(stall: tuple[list[list[int | None]], int]) -> None:
    view, mines = stall
    known = sum(row.count(-1) for row in view)
    placements, wins, by_first = best_play(view, mines - known)
    found = position_optimum(view, mines)
    assert (found.placements, found.wins) == (placements, wins)
    cols = len(view[0])
    unknown = [c for c in by_first if view[c // cols][c % cols] is None]
    if wins == placements and any(by_first[c] == wins for c in unknown):
        return  # solved or free: any certainly safe cell is best
    assert set(found.moves) == {c for c in unknown if by_first[c] == wins}


def test_a_free_reveal_is_the_best_move() -> None:
    # 0 ? ?: both unknown cells are safe (no mine left); either is best and the game is won.
    found = position_optimum(view_of("1*??"), 1)
    assert (found.wins, found.placements, found.moves) == (1, 1, (2, 3))


def test_symmetry_changes_only_the_work() -> None:
    table = Placements.board(3, 4, 4)
    mirrored, plain = Search(table), Search(table, symmetric=False)
    assert mirrored.wins(mirrored.everything) == plain.wins(plain.everything)
    assert mirrored.states < plain.states


def test_the_board_symmetries() -> None:
    assert len(board_symmetries(4, 4)) == 8
    assert len(board_symmetries(3, 4)) == 4
    assert len(board_symmetries(1, 1)) == 1
    for image in board_symmetries(4, 5):
        assert sorted(image) == list(range(20))


def test_a_position_keeps_only_the_symmetries_that_fix_it() -> None:
    corners = view_of("1??\n???\n??1")
    table = Placements.position(position_of(corners), corners, 2)
    assert len(table.symmetries) == 4  # both diagonals' mirrors and the half turn keep them
    corner = view_of("1??\n???\n???")
    table = Placements.position(position_of(corner), corner, 2)
    assert len(table.symmetries) == 2  # the mirror in the main diagonal alone keeps it


@settings(max_examples=40, deadline=None)
@given(small_stalls())
def test_a_positions_placements_are_every_layout_that_fits(
    stall: tuple[list[list[int | None]], int],
) -> None:
    view, mines = stall
    rows, cols = len(view), len(view[0])
    geometry = Geometry(rows, cols)
    values = [v for row in view for v in row]
    unknown = [c for c, v in enumerate(values) if v is None]
    known = {c for c, v in enumerate(values) if v == -1}
    expected = set()
    for chosen in combinations(unknown, mines - len(known)):
        mined = set(chosen) | known
        if all(
            sum(n in mined for n in geometry.neighbours(c)) == v
            for c, v in enumerate(values)
            if v is not None and v != -1
        ):
            expected.add(frozenset(chosen))
    table = Placements.position(position_of(view), view, mines)
    assert table.cells == tuple(unknown)
    found = {
        frozenset(table.cells[i] for i, shown in enumerate(row) if shown == MINE_BYTE)
        for row in table.shown
    }
    assert found == expected
    for row in table.shown:
        mined = {table.cells[i] for i, shown in enumerate(row) if shown == MINE_BYTE} | known
        for i, cell in enumerate(table.cells):
            if cell not in mined:
                clue = sum(n in mined for n in geometry.neighbours(cell))
                assert row[i] == clue


def test_the_placement_limit() -> None:
    with pytest.raises(TooManyPlacements, match=r"C\(16, 4\) = 1,820 placements, more than 1,000"):
        Placements.board(4, 4, 4, limit=1000)
    with pytest.raises(TooManyPlacements, match="more than 10"):
        position_optimum([[None] * 5] * 2, 3, limit=10)


def test_the_state_budget() -> None:
    with pytest.raises(OutOfBudget, match="more than 10 belief states") as raised:
        board_optimum(4, 4, 4, budget=Budget(states=10))
    assert raised.value.limit == "states"
    assert raised.value.states >= 10


def test_the_memory_budget() -> None:
    # The table alone past the budget: refused before it is made.
    with pytest.raises(TooManyPlacements, match=r"would take about 0\.3 MiB") as refused:
        board_optimum(4, 4, 4, budget=Budget(memory=0.2))
    assert (refused.value.limit, refused.value.count) == ("memory", 1820)
    # The table fits, the belief states do not: the search stops.
    room = table_mib(1820, 16) + 20 * (STATE_BYTES + 16) / 2**20
    with pytest.raises(OutOfBudget, match="outgrew") as stopped:
        board_optimum(4, 4, 4, budget=Budget(memory=room))
    assert stopped.value.limit == "memory"
    assert stopped.value.states >= 20
    with pytest.raises(TooManyPlacements, match="MiB") as position:
        position_optimum([[None] * 5] * 4, 5, budget=Budget(memory=0.1))
    assert position.value.limit == "memory"
    assert board_optimum(4, 4, 4, budget=Budget(memory=room * 10)).wins == 961


def test_the_time_budget() -> None:
    with pytest.raises(OutOfBudget, match="not done within 0 s") as raised:
        board_optimum(4, 4, 4, budget=Budget(seconds=0.0))
    assert raised.value.limit == "time"


def test_impossible_boards_are_refused() -> None:
    with pytest.raises(InvalidBoardError, match="leave no safe cell"):
        OptimalPlay(2, 2, 4)
    with pytest.raises(InvalidBoardError, match="do not fit on a 3x3 board with an opening"):
        board_optimum(3, 3, 6, first=FirstMove.OPENING)
    with pytest.raises(InvalidBoardError, match="row 1, column 1"):
        board_optimum(3, 3, 1, first=FirstMove.OPENING, start=4)
    with pytest.raises(InvalidBoardError, match="off the 2x2 board"):
        board_optimum(2, 2, 1, start=4)
    with pytest.raises(NoPlacementError):
        position_optimum(view_of("1??"), 3)


def test_no_mines_is_won_from_any_first_reveal() -> None:
    best = board_optimum(2, 3, 0, first=FirstMove.NONE)
    assert (best.wins, best.placements, best.moves) == (1, 1, (0, 1, 2, 3, 4, 5))


def test_the_counts_of_the_rules() -> None:
    play = OptimalPlay(4, 4, 3)
    none, safe = play.at(FirstMove.NONE, 5), play.at(FirstMove.SAFE, 5)
    assert none.placements == math.comb(16, 3)
    assert safe.placements == math.comb(15, 3)
    assert none.wins == safe.wins
    assert play.at(FirstMove.OPENING, 5).placements == math.comb(7, 3)
