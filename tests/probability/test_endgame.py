"""The endgame search: its best reveal wins as often as best play can, by an independent search."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import MINE, Board, BoardManager, Sweep
from mineshafted.board import Geometry
from mineshafted.errors import PartialGrid
from mineshafted.probability import Best, Endgame, best_reveal, odds
from mineshafted.probability.view import position_of


@st.composite
def small_boards(draw: st.DrawFn) -> Board:
    """A board of at most 12 cells whose start cell 0 is safe."""
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(2, 4))
    cells = rows * cols
    mines = draw(st.sets(st.integers(1, cells - 1), min_size=1, max_size=cells - 1))
    return Board.from_mines(rows, cols, mines)


def best_play(grid: PartialGrid, mines_left: int) -> tuple[int, int, dict[int, int]]:
    """Best play by plain search over (cells revealed, placements left), no shortcuts.

    Returns the placements, how many of them best play wins, and for each unknown cell how
    many best play wins when that cell is revealed first.
    """
    rows, cols = len(grid), len(grid[0])
    geometry = Geometry(rows, cols)
    values = [value for row in grid for value in row]
    unknown = [cell for cell, value in enumerate(values) if value is None]
    known = {cell for cell, value in enumerate(values) if value == MINE}
    clues = [(cell, value) for cell, value in enumerate(values) if value not in (None, MINE)]
    placements = []
    for chosen in combinations(unknown, mines_left):
        mines = set(chosen) | known
        if all(sum(n in mines for n in geometry.neighbours(c)) == v for c, v in clues):
            placements.append(frozenset(mines))

    def shows(cell: int, mines: frozenset[int]) -> int:
        return sum(n in mines for n in geometry.neighbours(cell))

    def after(cell: int, left: frozenset[frozenset[int]]) -> int:
        """Wins of revealing ``cell`` next, then playing best."""
        by_value: dict[int, set[frozenset[int]]] = {}
        for mines in left:
            if cell not in mines:
                by_value.setdefault(shows(cell, mines), set()).add(mines)
        if list(by_value.values()) == [left]:
            return 0  # safe everywhere and the same clue everywhere: it tells nothing
        return sum(wins(frozenset(part)) for part in by_value.values())

    @cache
    def wins(left: frozenset[frozenset[int]]) -> int:
        if len(left) == 1:
            return 1
        return max(after(cell, left) for cell in unknown)

    everything = frozenset(placements)
    return len(placements), wins(everything), {cell: after(cell, everything) for cell in unknown}


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
    view: PartialGrid = [[1, -1, None, None, None]]
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
    view: PartialGrid = [[1, None, None, None, None, None, None, None, None]]
    position = position_of(view)
    assert best_reveal(position, view, 3, nodes=1) is None
    found = best_reveal(position, view, 3)
    assert isinstance(found, Endgame)
    assert 0 < found.chance < 1


def test_best_plays_the_endgame_and_can_switch_it_off() -> None:
    # Only the endgame tells an end cell (wins 2 in 3) from the middle one (1 in 3): the
    # heuristic's tie-breaks take the corner-most cell first, and the middle one is in the
    # heuristic's reach too, so check the endgame choice is the end cell every time.
    view: PartialGrid = [[1, -1, None, None, None]]
    position = position_of(view)
    chances = odds(position, 2)
    for seed in range(10):
        cell = Best().choose(position, chances, view, random.Random(seed))
        assert cell in (2, 4)
    assert Best(endgame=False).name == "best-endgame"


def test_a_position_with_nothing_to_guess_has_no_endgame() -> None:
    # The only unknown cell is decided: cell 0 is the mine the clue 1 beside it needs.
    view: PartialGrid = [[None, 1, 0]]
    assert best_reveal(position_of(view), view, 1) is None
    # And a position no placement fits.
    assert best_reveal(position_of(view), view, 0) is None
