"""The mine total in deduction: the cells the count decides, and the sweep's total stage; at a
stall, the bounds that skip counting exactly when the total restricts nothing, and the counts
kept between stalls."""

from __future__ import annotations

from collections.abc import Sequence
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import Board, BoardManager, NeedsGuess, NoPlacementError, Sweep, sweep_mines
from mineshafted.errors import Why
from mineshafted.probability import position_of
from mineshafted.solver import Fact, Position, tally
from mineshafted.solver import total as total_module
from mineshafted.solver import weights as weights_module
from mineshafted.solver.position import Constraint
from mineshafted.solver.total import _bounds, decided_by_total
from mineshafted.solver.weights import weigh, weighed

pytestmark = pytest.mark.usefixtures("each_core")  # every test under each core


def certain(stall: Sweep | Position, mines: int) -> list[Fact]:
    position = stall.position() if isinstance(stall, Sweep) else stall
    return tally(position, mines).certain()


@pytest.fixture
def walled() -> Sweep:
    """``0 1 * ?``: cell 3 is walled in by the mine and seen by no clue; stalled."""
    sweep = Sweep(BoardManager([[0, 1, -1, 1]]))
    assert sweep.run().undetermined == [3]
    return sweep


def test_a_walled_in_cell_is_safe_when_the_mines_are_all_found(walled: Sweep) -> None:
    assert certain(walled, 1) == [(3, False)]


def test_a_walled_in_cell_is_a_mine_when_one_mine_is_left_for_it(walled: Sweep) -> None:
    assert certain(walled.position(), 2) == [(3, True)]


@pytest.mark.parametrize(("mines", "expected"), [(3, True), (0, False)])
def test_the_last_unknown_cells_hold_all_the_mines_left_or_none(mines: int, expected: bool) -> None:
    # Three unknown cells that no clue sees: the bottom clues see only the known mines.
    position = position_of([[None, None, None], [-1, -1, -1], [2, 3, 2]])
    assert position.unconstrained == [0, 1, 2]
    assert certain(position, mines + 3) == [(0, expected), (1, expected), (2, expected)]


def test_a_frontier_option_that_needs_more_mines_than_remain_is_ruled_out() -> None:
    # One mine on 20 or 21 (either); a chain (10, 11), (11, 12) of one mine each: 11 alone,
    # or 10 and 12. With two mines left the chain can hold only one: 11.
    pair = [((20, 21), 1)]
    chain = [((10, 11), 1), ((11, 12), 1)]
    position = Position([[None] * 22], [chain, pair], [], 0)
    assert certain(position, 2) == [(10, False), (11, True), (12, False)]
    assert certain(position, 3) == [(10, True), (11, False), (12, True)]


def test_the_total_decides_nothing_when_both_options_fit() -> None:
    position = Position([[None] * 13], [[((10, 11), 1), ((11, 12), 1)]], [0], 0)
    assert certain(position, 2) == []


def test_a_total_that_does_not_fit_raises(walled: Sweep) -> None:
    with pytest.raises(NoPlacementError):
        certain(walled, 3)


def test_the_total_opens_a_region_walled_off_by_mines() -> None:
    board = Board.from_text(
        """
        . . * . .
        . . * . .
        """
    )
    with pytest.raises(NeedsGuess):
        sweep_mines(BoardManager(board.to_grid()))
    assert sweep_mines(BoardManager(board.to_grid()), mines=2) == board.to_grid()
    report = Sweep(BoardManager(board.to_grid()), mines=len(board.mines)).run()
    assert report.solved
    assert report.board == board.to_grid()
    assert report.proven_by["total"] == 4


def test_the_total_stage_stops_where_the_total_decides_nothing() -> None:
    board = Board.from_text(
        """
        . . * .
        . . * *
        """
    )
    report = Sweep(BoardManager(board.to_grid()), mines=len(board.mines)).run()
    assert not report.solved
    assert report.undetermined == [3, 7]  # one mine on 3 or 7: a true 50/50
    assert report.proven_by["total"] == 0


@st.composite
def small_boards(draw: st.DrawFn) -> Board:
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(2, 5))
    cells = rows * cols
    return Board.from_mines(
        rows, cols, draw(st.sets(st.integers(1, cells - 1), max_size=cells // 2))
    )


@settings(max_examples=80, deadline=None)
@given(small_boards())
def test_the_total_stage_is_right_and_leaves_nothing_the_total_decides(board: Board) -> None:
    alone = Sweep(BoardManager(board.to_grid())).run()
    sweep = Sweep(BoardManager(board.to_grid()), mines=len(board.mines))
    report = sweep.run()
    truth = board.to_grid()
    for row, known in zip(truth, report.board, strict=True):
        assert all(k is None or k == t for k, t in zip(known, row, strict=True))
    assert set(report.undetermined) <= set(alone.undetermined)
    if not report.solved:
        assert certain(sweep, len(board.mines)) == []


def test_a_total_the_clues_cannot_hold_raises_from_the_sweep() -> None:
    with pytest.raises(NoPlacementError, match="at most"):
        sweep_mines(BoardManager([[0, 1, -1, 1]]), mines=3)


def test_without_the_total_the_sweep_never_counts() -> None:
    report = Sweep(BoardManager([[0, 1, -1, 1]])).run()
    assert report.undetermined == [3] and report.proven_by["total"] == 0


# The total at a stall: bounds first, counts kept.

ONE_OR_THREE: list[Constraint] = [((0, 1), 1), ((1, 2), 1), ((1, 3), 1)]
"""Cell 1 a mine alone, or 0, 2 and 3: one mine or three, and every cell either way."""

TRIANGLE: list[Constraint] = [((0, 1, 2), 1), ((2, 3, 4), 1), ((4, 5, 0), 1)]
"""Three clues sharing corners: {2, 5}, {0, 3}, {1, 4} or {1, 3, 5}; two or three mines, every
cell either way, and disjoint clues bound it loosely (one clue fits: 1 to 4 mines)."""


def shifted(component: Sequence[Constraint], offset: int) -> list[Constraint]:
    """``component`` with every cell moved up by ``offset``."""
    return [(tuple(c + offset for c in scope), mines) for scope, mines in component]


def stall(parts: Sequence[Sequence[Constraint]], free: int, mines_found: int = 0) -> Position:
    """A stalled position: ``parts`` on disjoint cells, then ``free`` unconstrained cells.

    None of the parts decides a cell by itself, as at a sweep's stall."""
    components, offset = [], 0
    for part in parts:
        components.append(shifted(part, offset))
        offset += 1 + max(c for scope, _ in part for c in scope)
    unconstrained = list(range(offset, offset + free))
    board = [[None] * (offset + free)]
    return Position(board, components, unconstrained, mines_found)  # type: ignore[arg-type]


def one_clue(cells: int, mines: int) -> list[Constraint]:
    return [(tuple(range(cells)), mines)]


@st.composite
def parts(draw: st.DrawFn) -> list[list[Constraint]]:
    """One to three components, each deciding nothing alone."""
    chosen = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["clue", "one or three", "triangle"]))
        if kind == "clue":
            cells = draw(st.integers(2, 4))
            chosen.append(one_clue(cells, draw(st.integers(1, cells - 1))))
        else:
            chosen.append(ONE_OR_THREE if kind == "one or three" else TRIANGLE)
    return chosen


@settings(max_examples=120, deadline=None)
@given(parts(), st.integers(0, 4), st.integers(0, 2), st.integers(0, 16))
def test_the_total_decides_what_the_tally_decides(
    components: list[list[Constraint]], free: int, mines_found: int, left: int
) -> None:
    position = stall(components, free, mines_found)
    mines = mines_found + left
    try:
        expected = tally(position, mines).certain()
    except NoPlacementError as error:
        with pytest.raises(NoPlacementError) as caught:
            decided_by_total(position, mines)
        assert caught.value.why == error.why
    else:
        assert decided_by_total(position, mines) == expected


@pytest.mark.parametrize(("left", "expected"), [(2, False), (4, True)])
def test_the_free_cells_of_two_components_are_decided_at_both_ends(
    left: int, expected: bool
) -> None:
    # Two mines are held by the pairs; the two free cells (4, 5) take none or both of the rest.
    position = stall([one_clue(2, 1), one_clue(2, 1)], free=2)
    assert decided_by_total(position, left) == [(4, expected), (5, expected)]


def test_clues_that_admit_no_placement_raise_beside_free_cells() -> None:
    # Two mines and no mine on the same pair, three free cells, six mines: neither the cell
    # count nor the bounds settle the total, so the pair is counted, and found impossible.
    position = stall([[((0, 1), 2), ((0, 1), 0)]], free=3)
    with pytest.raises(NoPlacementError) as caught:
        decided_by_total(position, 6)
    assert caught.value.why == Why.CLUES
    assert list(caught.value.cells) == [0, 1]


def test_a_cell_count_that_settles_the_total_computes_no_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Pair (1 mine of 2 cells) and 4 free cells, 3 left: the free cells take 1 to 3 whatever.
    monkeypatch.setattr(total_module, "_bounds", _refused)
    seen = counting(monkeypatch)
    assert decided_by_total(stall([one_clue(2, 1)], free=4), 3) == []
    assert seen == []


@pytest.mark.parametrize(
    ("components", "free", "left"),
    [
        ([one_clue(2, 1)], 2, 2),  # the free cells take exactly 1: the least and most of 1..1
        ([one_clue(2, 1), one_clue(2, 1)], 2, 3),  # both bounds add up over the components
        ([one_clue(3, 2), one_clue(2, 1)], 2, 4),
    ],
)
def test_bounds_that_settle_the_total_count_nothing(
    components: list[list[Constraint]], free: int, left: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    position = stall(components, free, mines_found=1)
    seen = counting(monkeypatch)
    assert decided_by_total(position, left + 1) == []
    assert seen == []
    assert tally(position, left + 1).certain() == []


def test_counted_bounds_that_settle_the_total_combine_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The triangle holds 2 or 3 (disjoint clues only show 1 to 4): 3 free cells take 2 or 1 of 4.
    position = stall([TRIANGLE], free=3)
    assert tally(position, 4).certain() == []
    monkeypatch.setattr(total_module, "combine", _refused)
    seen = counting(monkeypatch)
    assert decided_by_total(position, 4) == []
    assert seen == [tuple(TRIANGLE)]


def test_a_component_counted_before_is_not_counted_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    position = stall([[((0, 1), 1), ((1, 2), 1)]], free=0)
    weighed(tuple(position.components[0]))
    monkeypatch.setattr(weights_module, "weigh", _refused)
    assert decided_by_total(position, 2) == [(0, True), (1, False), (2, True)]


def test_each_component_is_counted_under_its_own_key(monkeypatch: pytest.MonkeyPatch) -> None:
    position = stall([one_clue(2, 1), one_clue(3, 1)], free=0)
    seen = counting(monkeypatch)
    assert decided_by_total(position, 2) == []
    assert seen == [tuple(c) for c in position.components]


@pytest.mark.parametrize(
    ("component", "bounds"),
    [
        (one_clue(3, 1), (1, 1)),
        ([((1, 2), 1), ((2, 3), 1), ((3, 4), 1)], (2, 2)),
        # Shortest first: (2, 3) and (4, 5) fit together, where (1, 2, 4) alone would block both.
        ([((1, 2, 4), 1), ((2, 3), 1), ((4, 5), 1)], (2, 3)),
        (TRIANGLE, (1, 4)),
        (ONE_OR_THREE, (1, 3)),
        ([((1, 2, 3), 2), ((4, 5), 1), ((6,), 0)], (3, 3)),
    ],
)
def test_disjoint_clues_bound_a_component(
    component: list[Constraint], bounds: tuple[int, int]
) -> None:
    assert _bounds(component) == bounds


@pytest.mark.slow  # over 0.5 s on a quiet machine: CI runs it
@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sets(st.integers(0, 6), min_size=1, max_size=4), st.integers(0, 6)),
        min_size=1,
        max_size=4,
    ),
    st.sets(st.integers(0, 6)),
)
def test_the_bounds_hold_every_placement(
    scopes: list[tuple[set[int], int]], mines: set[int]
) -> None:
    # Clues read off a hidden placement: at least that placement fits.
    component = [(tuple(sorted(scope)), len(scope & mines)) for scope, _ in scopes]
    placements = weigh(component).placements
    held = [k for k, n in enumerate(placements) if n]
    least, most = _bounds(component)
    assert least <= min(held) and max(held) <= most


def counting(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Constraint, ...]]:
    """The components the total stage counts from now on, in order (counted as before)."""
    seen: list[tuple[Constraint, ...]] = []

    def spy(component: tuple[Constraint, ...]) -> object:
        seen.append(component)
        return weighed(component)

    monkeypatch.setattr(total_module, "weighed", spy)
    return seen


def _refused(*args: object) -> object:
    raise AssertionError("not needed: the bounds already settle the total")


@settings(max_examples=200, deadline=None)
@given(parts(), st.integers(0, 3000), st.integers(0, 40))
def test_many_free_cells_are_counted_by_a_window_of_binomials_exactly_as_one_comb_each(
    components: list[list[Constraint]], free: int, left: int
) -> None:
    # Many free cells: C(U, R - x) as one window made from the highest (solver.binomial);
    # the same counts, cell by cell, as math.comb for each, or the same refusal.
    position = stall(components, free)
    counted_each_way: list[object] = []
    for window_from in (0, 10**9):
        with patch.object(total_module, "WINDOW_CELLS", window_from):
            try:
                counted_each_way.append(tally(position, left))
            except NoPlacementError as error:
                counted_each_way.append(error.why)
    window, each = counted_each_way
    assert window == each
