"""The endgame search: its best reveal wins as often as best play can, by an independent search."""

from __future__ import annotations

import logging
import random
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import Board, BoardManager, Sweep
from mineshafted.board import Geometry, PartialGrid
from mineshafted.probability import Best, Endgame, Safest, best_reveal, odds, play_game
from mineshafted.probability.endgame import NODES, PLACEMENTS, SMALL_NODES, nodes_for
from mineshafted.probability.regions import region_reveal, regions
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


@settings(max_examples=30, deadline=None)
@given(small_boards())
def test_best_reveal_wins_as_often_as_best_play(board: Board) -> None:
    sweep = Sweep(BoardManager(board.to_grid()), mines=len(board.mines))
    report = sweep.run()
    if report.solved:
        return
    position = sweep.position()
    mines_left = len(board.mines) - position.mines_found
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
    assert odds(position, 10).placements > PLACEMENTS
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


@pytest.mark.slow  # over a second: best play searched on each stall
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


def test_the_endgame_searches_a_thousand_placements() -> None:
    # A 1 on a 3x6 board, 5 mines: 1,008 placements (the old endgame stopped at 750).
    view = view_of("??????\n?1????\n??????")
    position = position_of(view)
    chances = odds(position, 5)
    assert 750 < chances.placements <= PLACEMENTS
    found = best_reveal(position, view, 5)
    assert found is not None
    assert found.placements == chances.placements
    assert Best().choose(position, chances, view, random.Random(0)) == found.cell


def test_best_plays_every_small_stall_as_best_play_does() -> None:
    # Where the endgame searches, best wins as often as best play (an independent search);
    # without it the heuristic sometimes does not.
    recording = Recording(Safest(), 6)
    for seed in range(40):
        play_game(4, 5, 6, seed=seed, policy=recording)
    worse = 0
    for number, stall in enumerate(recording.stalls):
        if stall.odds.placements > 60 or stall.odds.safe:
            continue
        _, wins, by_first = best_play(stall.board, stall.mines - stall.position.mines_found)
        rng = random.Random(number)
        best = Best().choose(stall.position, stall.odds, stall.board, rng)
        heuristic = Best(endgame=False).choose(
            stall.position, stall.odds, stall.board, random.Random(number)
        )
        assert by_first[best] == wins
        worse += by_first[heuristic] < wins
    assert worse >= 5


def plain_region(
    view: PartialGrid, mines_left: int, region: list[int]
) -> tuple[int, int, dict[int, int], set[int]]:
    """Best play in ``region`` by plain search: each of its placements weighed by how many
    placements of the whole board it stands for; the weight in all, best play's wins, the
    wins of each first reveal, and the region's numbers of mines."""
    rows, cols = len(view), len(view[0])
    geometry = Geometry(rows, cols)
    values = [value for row in view for value in row]
    unknown = [cell for cell, value in enumerate(values) if value is None]
    known = {cell for cell, value in enumerate(values) if value == -1}
    clues = [(cell, value) for cell, value in enumerate(values) if value not in (None, -1)]
    inside = set(region)
    weight: dict[frozenset[int], int] = {}
    for chosen in combinations(unknown, mines_left):
        mines = set(chosen) | known
        if all(sum(n in mines for n in geometry.neighbours(c)) == v for c, v in clues):
            part = frozenset(mines & inside)
            weight[part] = weight.get(part, 0) + 1

    def shows(cell: int, mines: frozenset[int]) -> int:
        return sum(n in mines or n in known for n in geometry.neighbours(cell))

    def after(cell: int, left: frozenset[frozenset[int]]) -> int:
        by_value: dict[int, set[frozenset[int]]] = {}
        for mines in left:
            if cell not in mines:
                by_value.setdefault(shows(cell, mines), set()).add(mines)
        return sum(wins(frozenset(part)) for part in by_value.values())

    @cache
    def wins(left: frozenset[frozenset[int]]) -> int:
        if len(left) == 1:
            return weight[next(iter(left))]
        open_cells = [c for c in region if any(c in m for m in left)]
        safe = [c for c in open_cells if not all(c in m for m in left)]
        free = [c for c in region if not any(c in m for m in left)]
        for cell in free:  # a free reveal that tells placements apart
            if len({shows(cell, m) for m in left}) > 1:
                return after(cell, left)
        return max(after(cell, left) for cell in safe)

    everything = frozenset(weight)
    by_first = {cell: after(cell, everything) for cell in region}
    counts = {len(part) for part in weight}
    return sum(weight.values()), wins(everything), by_first, counts


def test_region_play_wins_as_often_as_plain_search_of_the_region() -> None:
    # Every isolated region of the stalls of small games: the weighed search's wins, and the
    # wins of its first reveal, are plain search's; fixed-count regions alone are played
    # without a cell given.
    checked = varying = 0
    stalls: list[tuple[Position, PartialGrid, int]] = [
        # Two pockets, each a 1-1 wall with a mine behind it and two cells no clue sees.
        (position_of(view), view, mines)
        for view, mines in (
            (view_of("??1.1??\n??1.1??"), 4),
            (view_of("??1.1??\n??1.1??"), 3),
            (view_of("???1.1??\n???1.1??"), 4),
        )
    ]
    for rows, cols, mines in ((4, 5, 6), (5, 5, 7), (4, 6, 8)):
        recording = Recording(Safest(), mines)
        for seed in range(60):
            play_game(rows, cols, mines, seed=seed, policy=recording)
        stalls += [(s.position, s.board, mines - s.position.mines_found) for s in recording.stalls]
    for position, view, mines_left in stalls:
        unknown = position.unknown
        for region in regions(position, view):
            if len(region) == len(unknown) or len(region) > 10:
                continue
            found = region_reveal(position, view, mines_left, fixed=False, within=region[0])
            total, wins, by_first, counts = plain_region(view, mines_left, region)
            if found is None:
                assert all(n in (0, total) for n in by_first.values())
                continue
            assert (found.placements, found.wins) == (total, wins)
            assert by_first[found.cell] == wins
            fixed = region_reveal(position, view, mines_left, within=region[0])
            assert fixed == (found if len(counts) == 1 else None)
            checked += 1
            varying += len(counts) > 1
    assert checked >= 10 and varying >= 3


ERRING: list[tuple[str, int]] = [
    ("1????\n?????\n?????\n?????", 4),  # 4x5, 4 mines: the first stall after a corner 1
    ("2????\n?????\n?????\n?????", 5),  # 4x5, 5 mines, after a corner 2
]
"""First stalls of small boards where ``best`` won less than best play (docs/optimal.md) with
the standard budget: 1,680 placements each, within the endgame's reach in placements, and
needing about 87,000 sets, within a small board's budget (``nodes_for``) only."""


@pytest.mark.slow
@pytest.mark.parametrize(("text", "mines"), ERRING)
def test_best_plays_the_first_stall_of_small_boards_as_best_play(text: str, mines: int) -> None:
    view = view_of(text)
    position = position_of(view)
    exact = best_reveal(position, view, mines, nodes=10**6)  # no budget to speak of
    assert exact is not None
    chosen = Best().choose(position, odds(position, mines), view, random.Random(0))
    assert chosen == exact.cell or _wins_from(position, view, mines, chosen) == exact.wins


@pytest.mark.slow  # half a second each
@pytest.mark.parametrize(("text", "mines"), ERRING)
def test_the_standard_budget_runs_out_on_these_stalls_and_a_small_boards_does_not(
    text: str, mines: int
) -> None:
    view = view_of(text)
    position = position_of(view)
    assert best_reveal(position, view, mines, nodes=NODES) is None
    assert best_reveal(position, view, mines, nodes=nodes_for(view)) is not None
    assert nodes_for(view) == SMALL_NODES == nodes_for([[None] * 6] * 6)  # 6x6 the largest
    assert nodes_for([[None] * 37]) == NODES == nodes_for([[None] * 8] * 8)


def _wins_from(position: Position, view: PartialGrid, mines: int, cell: int) -> int:
    """Best play's wins when ``cell`` is revealed first (the exact search of the optimal
    package on the position's placements)."""
    from mineshafted.probability.optimal import Placements, Search

    table = Placements.position(position, view, mines)
    search = Search(table)
    return search.move_wins(search.everything, table.cells.index(cell))
