"""The compiled core answers exactly what the plain one does: each kernel against its plain
form, on random inputs, on the edges of what it handles, and on seeded games end to end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import MINE, Board, BoardManager, Sweep, core, read_puzzles, sweep_mines
from mineshafted.errors import NoPlacementError
from mineshafted.game import FirstMove, Game, Rules
from mineshafted.probability import odds, play_game, policy_named, view_odds
from mineshafted.probability.endgame import _Layout, _searched
from mineshafted.probability.regions import regions
from mineshafted.solver import Constraint, Position, combine, components, count_component, counted
from mineshafted.solver.count import CountTooLargeError

from ..conftest import REQUIRE_COMPILED, CourseManager, Recorder
from ..game.strategies import actions, boards, play, rules

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "no-guess"

T = TypeVar("T")

# Where the compiled core was not built these skip, unless it is required (then they fail).
pytestmark = pytest.mark.skipif(
    not core.available() and not REQUIRE_COMPILED, reason=core.describe()
)


def under_each(run: Callable[[], T]) -> tuple[T | Exception, T | Exception]:
    """``run()`` under the plain core, then under the compiled one, nothing remembered
    between: what each returned, or the error each raised."""
    found: list[T | Exception] = []
    for choice in ("plain", "compiled"):
        counted.cache_clear()
        with core.use(choice):
            try:
                found.append(run())
            except Exception as error:  # compared below: the same kind and message
                found.append(error)
    counted.cache_clear()
    return found[0], found[1]


def assert_same(plain: object, compiled: object) -> None:
    """The same answer, or the same error with the same message and data."""
    if isinstance(plain, Exception):
        assert type(compiled) is type(plain)
        assert str(compiled) == str(plain)
        assert vars(compiled) == vars(plain)
    else:
        assert compiled == plain
        assert repr(compiled) == repr(plain)  # the same types and dict orders too


@st.composite
def constraint_sets(draw: st.DrawFn, cells: int = 16) -> list[Constraint]:
    """Constraints over a few cells, some sharing cells, some not; any number of mines, even
    one that no placement can meet."""
    constraints = []
    for _ in range(draw(st.integers(0, 6))):
        scope = draw(st.sets(st.integers(0, cells - 1), min_size=1, max_size=8))
        mines = draw(st.integers(0, len(scope) + 1))
        constraints.append((tuple(sorted(scope)), mines))
    return constraints


# count


@settings(max_examples=200, deadline=None)
@given(constraint_sets())
def test_a_count_is_the_plain_count(constraints: list[Constraint]) -> None:
    assert_same(*under_each(lambda: count_component(constraints)))


@settings(max_examples=100, deadline=None)
@given(constraint_sets(cells=40), st.floats(1e-4, 0.05))
def test_a_budget_refuses_exactly_the_counts_the_plain_count_refuses(
    constraints: list[Constraint], memory: float
) -> None:
    assert_same(*under_each(lambda: count_component(constraints, memory=memory)))


def window_row(cells: int) -> list[Constraint]:
    """A row of ``cells`` cells with one mine in each window of three (two at the ends)."""
    return [(tuple(range(max(i - 1, 0), min(i + 2, cells))), 1) for i in range(cells)]


@pytest.mark.parametrize("cells", [63, 64, 100, 127])
def test_a_component_of_up_to_127_cells_is_counted_compiled(cells: int) -> None:
    constraints = [((0, 1, 2, 3), 2), *window_row(cells)[1:]]
    kernels = core.kernels
    assert kernels is not None
    assert isinstance(kernels.count(constraints, float("inf")), tuple)
    assert_same(*under_each(lambda: count_component(constraints)))


@pytest.mark.parametrize(
    "constraints",
    [
        pytest.param(window_row(128), id="128 cells"),
        pytest.param([[(0, 1), 1]], id="a constraint as a list"),
        pytest.param([((0, True), 1)], id="a bool for a cell"),
        pytest.param([((0, 1, 1), 1)], id="a cell twice in one scope"),
        pytest.param([((0, 1), 256)], id="more mines than a byte"),
        pytest.param([((0, 1), -1)], id="negative mines"),
        pytest.param([((0, 2**70), 1)], id="a cell past 64 bits"),
    ],
)
def test_what_the_compiled_count_does_not_handle_is_counted_plainly(
    constraints: list[Constraint],
) -> None:
    kernels = core.kernels
    assert kernels is not None
    assert kernels.count(constraints, float("inf")) is None
    assert_same(*under_each(lambda: count_component(constraints)))


def test_a_budget_refusal_names_the_same_cells_and_budget() -> None:
    sparse = [((0, 1, 2, 7, 8, 9, 14, 15, 16), 1), *window_row(60)[1:]]
    plain, compiled = under_each(lambda: count_component(sparse, memory=0.001))
    assert isinstance(plain, CountTooLargeError)
    assert_same(plain, compiled)


# combine


@settings(max_examples=120, deadline=None)
@given(
    st.lists(constraint_sets(cells=12), min_size=1, max_size=4),
    st.integers(0, 30),
    st.integers(0, 40),
)
def test_components_combine_as_the_plain_combine_combines_them(
    parts: list[list[Constraint]], free: int, mines_left: int
) -> None:
    # Each part over cells of its own (shifted apart), the free cells after them all.
    shifted = [
        [(tuple(cell + 100 * j for cell in scope), mines) for scope, mines in part]
        for j, part in enumerate(parts)
    ]
    unconstrained = list(range(1000, 1000 + free))

    def combined() -> object:
        counts = [count_component(part) for part in shifted if part]
        return combine(counts, unconstrained, mines_left)

    assert_same(*under_each(combined))


def test_a_total_that_no_split_fits_is_refused_by_both_alike() -> None:
    one_or_three = [((1, 2), 1), ((2, 3), 1), ((2, 4), 1)]
    plain, compiled = under_each(
        lambda: combine([count_component(one_or_three)], [], 2)  # 1 or 3 fit, never 2
    )
    assert isinstance(plain, NoPlacementError)
    assert_same(plain, compiled)


def test_unconstrained_cells_share_one_count_and_a_class_one_count() -> None:
    # Odds.floats divides each count once per object: the compiled combine shares them too.
    count = count_component([((1, 2, 3), 1), ((3, 4), 1)])
    with core.use("compiled"):
        tally = combine([count], [10, 11, 12], 2)
    assert tally.mined[10] is tally.mined[11] is tally.mined[12]
    assert tally.mined[1] is tally.mined[2]


# components


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.integers(-3, 2**40), min_size=1, max_size=6).map(tuple), st.integers(0, 3)
        ),
        max_size=12,
    )
)
def test_constraints_group_into_the_plain_components(constraints: list[Constraint]) -> None:
    assert_same(*under_each(lambda: list(components(constraints))))


@pytest.mark.parametrize(
    "constraints",
    [
        pytest.param([((), 1)], id="an empty scope"),
        pytest.param([([1, 2], 1)], id="a list for a scope"),
        pytest.param([((1, 2.0), 1)], id="a float for a cell"),
    ],
)
def test_constraints_the_compiled_grouping_does_not_take_are_grouped_plainly(
    constraints: list[Constraint],
) -> None:
    kernels = core.kernels
    assert kernels is not None and kernels.components(constraints) is None
    assert_same(*under_each(lambda: list(components(constraints))))


# odds and play, end to end


@settings(max_examples=80, deadline=None)
@given(boards(max_side=7), st.integers(0, 2**32), st.integers(1, 6))
def test_the_odds_of_a_partly_revealed_board_are_the_plain_odds(
    board: Board, seed: int, reveals: int
) -> None:
    game = Game.on(board, rules=Rules(FirstMove.NONE, True), seed=seed)
    for cell, value in enumerate(board.values):
        if value != MINE and reveals and not game.over:
            game.reveal(cell)
            reveals -= 1
    view = game.view()
    assert_same(*under_each(lambda: view_odds(view.grid, board.mine_total)))


def expert_stalls(games: int) -> list[tuple[Board, object]]:
    """The first stall of each of ``games`` seeded expert boards (bench_probability.py's)."""
    import random

    found = []
    for seed in range(games):
        blank = Board.from_mines(30, 16, [])
        clear = {0, *blank.geometry.neighbours(0)}
        cells = [c for c in range(30 * 16) if c not in clear]
        board = Board.from_mines(30, 16, random.Random(seed).sample(cells, 99))
        sweep = Sweep(BoardManager(board.to_grid()))
        if not sweep.run().solved:
            found.append((board, sweep.position()))
    return found


def test_the_odds_of_seeded_expert_stalls_are_the_plain_odds() -> None:
    for _, position in expert_stalls(40):
        assert_same(*under_each(lambda p=position: odds(p, 99)))  # type: ignore[misc]


@pytest.mark.parametrize("seed", range(4))
def test_a_seeded_best_game_is_played_the_same(seed: int) -> None:
    def played() -> object:
        result = play_game(9, 9, 10, seed=seed, policy=policy_named("best"))
        return result.won, result.guesses, result.record.events

    assert_same(*under_each(played))


# the endgame search


@st.composite
def layouts(draw: st.DrawFn) -> tuple[_Layout, int]:
    """Placements of mines on the unknown cells of a small board (up to 400 of them, so a
    set of placements spans several 64-bit words), weighed alike or by their number of mines
    (some weights of 64 bits and more, which the compiled search hands back), and a node
    budget from none to ample."""
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(2, 5))
    cells = draw(st.sets(st.integers(0, rows * cols - 1), min_size=1, max_size=10))
    unknown = sorted(cells)
    found = draw(
        st.lists(st.integers(0, 2 ** len(unknown) - 1), min_size=1, max_size=400, unique=True)
    )
    weights = None
    if draw(st.booleans()):
        big = st.integers(1, 2**70) if draw(st.booleans()) else st.integers(1, 1000)
        weights = {k: draw(big) for k in sorted({p.bit_count() for p in found})}
    board: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    nodes = draw(st.sampled_from([0, 1, 5, 50, 20_000]))
    return _Layout.of(unknown, found, board, weights), nodes


@settings(max_examples=300, deadline=None)
@given(layouts())
def test_an_endgame_search_chooses_and_runs_out_as_the_plain_search(
    drawn: tuple[_Layout, int],
) -> None:
    layout, nodes = drawn
    assert_same(*under_each(lambda: _searched(layout, nodes)))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_a_layout_holds_the_plain_masks(rows: int, cols: int, data: st.DataObject) -> None:
    # Placements over up to 25 cells, up to 300 of them (sets of several 64-bit words).
    cells = sorted(data.draw(st.sets(st.integers(0, rows * cols - 1), min_size=1)))
    found = data.draw(
        st.lists(st.integers(0, 2 ** len(cells) - 1), min_size=1, max_size=300, unique=True)
    )
    board: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    assert_same(*under_each(lambda: _Layout.of(cells, found, board)))


def test_a_layout_of_more_than_64_cells_is_made_plainly() -> None:
    cells = list(range(70))
    board: list[list[int | None]] = [[None] * 10 for _ in range(7)]
    found = [1, 2**69, 2**40 + 3]
    around = ((),) * 70
    assert core.kernels is None or core.kernels.layout(tuple(cells), tuple(found), around) is None
    assert_same(*under_each(lambda: _Layout.of(cells, found, board)))


def test_the_compiled_search_hands_back_weights_of_64_bits() -> None:
    layout = _Layout.of([0, 1, 2], [0b001, 0b010, 0b100, 0b011], [[None] * 3], {1: 2**64, 2: 1})
    assert (
        core.kernels is None
        or core.kernels.endgame(layout.mined, layout.shows, layout.weights, 4, 100) is None
    )
    assert_same(*under_each(lambda: _searched(layout, 100)))


@pytest.mark.slow
def test_seeded_expert_games_whose_endgames_are_searched_are_played_the_same() -> None:
    # 20 expert games of best play: about a dozen endgame searches, some out of nodes.
    for seed in range(20):

        def played(seed: int = seed) -> object:
            result = play_game(16, 30, 99, seed=seed, policy=policy_named("best"))
            return result.won, result.guesses, result.record.events

        assert_same(*under_each(played))


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 6), st.integers(1, 7), st.data())
def test_the_isolated_regions_are_the_plain_regions(
    rows: int, cols: int, data: st.DataObject
) -> None:
    cells = rows * cols
    constraints = data.draw(constraint_sets(cells))
    scoped = {cell for scope, _ in constraints for cell in scope}
    free = data.draw(st.sets(st.integers(0, cells - 1)).map(lambda s: sorted(s - scoped)))
    board: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    position = Position(board, list(components(constraints)), free, 0)
    assert_same(*under_each(lambda: regions(position, board)))


def test_the_regions_of_seeded_expert_stalls_are_the_plain_regions() -> None:
    for _, position in expert_stalls(40):
        found = under_each(lambda p=position: regions(p, p.board))  # type: ignore[attr-defined,misc]
        assert_same(*found)


# the sweep's explore loop


@settings(max_examples=150, deadline=None)
@given(boards(max_side=9), st.booleans())
def test_a_sweep_moves_and_decides_as_the_plain_sweep(board: Board, course: bool) -> None:
    # The course's manager lists each ring backwards: the order must not matter, nor differ.
    def swept() -> object:
        inner = CourseManager(board.to_grid()) if course else BoardManager(board)
        manager = Recorder(inner, board)
        sweep = Sweep(manager, mines=board.mine_total)
        report = sweep.run()
        report.seconds = 0.0  # the one field that differs: the time it took
        return report, manager.moves, sweep.decisions

    if board.values[0] != MINE:
        assert_same(*under_each(swept))


@settings(max_examples=100, deadline=None)
@given(boards(max_side=9))
def test_a_stall_is_described_as_the_plain_sweep_describes_it(board: Board) -> None:
    # The unknown cells and the frontier, listed from the cell states by the cells kernel.
    def described() -> object:
        sweep = Sweep(BoardManager(board))
        report = sweep.run()
        return report.frontier, report.undetermined, sweep.position()

    if board.values[0] != MINE:
        assert_same(*under_each(described))


def test_the_no_guess_expert_boards_are_swept_the_same() -> None:
    for path in sorted((PUZZLES / "30x16-99").glob("*.json")):
        board = read_puzzles(path)[0].board
        assert_same(*under_each(lambda b=board: sweep_mines(BoardManager(b))))  # type: ignore[misc]


# the game engine's flood


@settings(max_examples=100, deadline=None)
@given(boards(), rules, actions, st.integers(0, 2**32))
def test_a_game_is_recorded_the_same(board: Board, rule: Rules, acts: list, seed: int) -> None:
    def recorded() -> object:
        game = Game.on(board, rules=rule, seed=seed)
        play(game, acts)
        return game.record.events, game.view()

    assert_same(*under_each(recorded))


def test_a_large_zero_region_is_flooded_in_the_plain_order() -> None:
    board = Board.from_mines(60, 60, [700, 1900, 3500])
    plain, compiled = under_each(lambda: Game.on(board, rules=Rules.CLASSIC).reveal(0))
    assert not isinstance(plain, Exception) and len(plain.revealed) > 3000
    assert_same(plain, compiled)


def test_a_flag_stops_the_flood_under_both_cores() -> None:
    board = Board.from_mines(5, 5, [24])

    def flagged() -> object:
        game = Game.on(board, rules=Rules(FirstMove.NONE, True))
        game.flag(12)
        return game.reveal(0).revealed

    plain, compiled = under_each(flagged)
    assert 12 not in {cell for cell, _ in plain}  # type: ignore[union-attr]
    assert_same(plain, compiled)
