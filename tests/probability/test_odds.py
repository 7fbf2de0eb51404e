"""Exact odds: against brute force over every placement, and against python-constraint."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import combinations

import pytest
from constraint import FunctionConstraint, Problem
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import MINE, Board, BoardManager, Sweep
from mineshafted.errors import NoPlacementError, Why
from mineshafted.probability import Odds, odds
from mineshafted.solver import Constraint, Position, combine, components, weigh

pytestmark = pytest.mark.usefixtures("each_core")  # every test under each core


@st.composite
def small_boards(draw: st.DrawFn) -> Board:
    """A board of at most 16 cells whose start cell 0 is safe."""
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(2, 4))
    cells = rows * cols
    mines = draw(st.sets(st.integers(1, cells - 1), max_size=cells - 1))
    return Board.from_mines(rows, cols, mines)


def brute_force(board: Board, grid: list[list[int | None]]) -> tuple[int, dict[int, int]]:
    """Every placement of the board's mines on the unknown cells of ``grid`` that fits every
    revealed clue: how many, and on how many each cell holds a mine."""
    geometry = board.geometry
    values = [value for row in grid for value in row]
    unknown = [cell for cell, value in enumerate(values) if value is None]
    known = [cell for cell, value in enumerate(values) if value == MINE]
    clues = [(cell, value) for cell, value in enumerate(values) if value not in (None, MINE)]
    total, mined = 0, dict.fromkeys(unknown, 0)
    for chosen in combinations(unknown, len(board.mines) - len(known)):
        mines = set(chosen) | set(known)
        if all(
            sum(n in mines for n in geometry.neighbours(cell)) == value for cell, value in clues
        ):
            total += 1
            for cell in chosen:
                mined[cell] += 1
    return total, mined


@settings(max_examples=60, deadline=None)
@given(small_boards(), st.data())
def test_odds_equal_brute_force_over_every_placement(board: Board, data: st.DataObject) -> None:
    sweep = Sweep(BoardManager(board.to_grid()))
    report = sweep.run()
    # Play on a few stalls by guessing safe cells, so later positions are checked too.
    for _ in range(3):
        if report.solved:
            break
        position = sweep.position()
        placements, mined = brute_force(board, position.board)
        result = odds(position, len(board.mines))
        assert result.placements == placements
        assert result.mines_left == len(board.mines) - position.mines_found
        assert result.fractions() == {c: Fraction(n, placements) for c, n in mined.items()}
        safe = [c for c in report.undetermined if c not in board.mines]
        if not safe:
            break
        sweep.guess(data.draw(st.sampled_from(safe)))
        report = sweep.advance()


@st.composite
def frontiers(draw: st.DrawFn) -> tuple[list[Constraint], list[int], int]:
    """Random constraints over cells 0-9, free cells 10 on, and a number of mines left."""
    constraints = []
    for _ in range(draw(st.integers(1, 5))):
        scope = draw(st.sets(st.integers(0, 9), min_size=1, max_size=5))
        constraints.append((tuple(sorted(scope)), draw(st.integers(0, len(scope)))))
    free = list(range(10, 10 + draw(st.integers(0, 3))))
    return constraints, free, draw(st.integers(0, 8))


def constraint_counts(
    constraints: list[Constraint], free: list[int], mines_left: int
) -> tuple[int, dict[int, int]]:
    """The placements and per-cell mine counts, enumerated by python-constraint.

    Each clue is a ``FunctionConstraint`` that sums by hand, and so is the total, over the
    solutions: python-constraint2's ``ExactSumConstraint`` preprocessing raises ``ValueError``
    (an emptied domain) on contradictory clues instead of finding no solution.
    """
    cells = sorted({c for scope, _ in constraints for c in scope} | set(free))
    problem = Problem()
    problem.addVariables(cells, [0, 1])
    for scope, mines in constraints:
        problem.addConstraint(FunctionConstraint(_sums_to(mines)), list(scope))
    solutions = [s for s in problem.getSolutions() if sum(s.values()) == mines_left]
    return len(solutions), {c: sum(s[c] for s in solutions) for c in cells}


@settings(max_examples=150, deadline=None)
@given(frontiers())
def test_odds_equal_python_constraint_on_random_frontiers(
    frontier: tuple[list[Constraint], list[int], int],
) -> None:
    constraints, free, mines_left = frontier
    placements, mined = constraint_counts(constraints, free, mines_left)
    counts = [weigh(part) for part in components(constraints)]
    if placements == 0:
        with pytest.raises(NoPlacementError):
            combine(counts, free, mines_left)
        return
    result = combine(counts, free, mines_left)
    assert result.placements == placements
    assert result.mined == mined


def test_a_free_cell_shares_the_mines_left_over() -> None:
    # One mine between 1 and 2; cells 7 and 8 free; two mines: the second is on 7 or 8.
    result = odds(Position([[None] * 9], [[((1, 2), 1)]], [7, 8], 0), 2)
    assert result.placements == 4
    assert result.fractions() == dict.fromkeys([1, 2, 7, 8], Fraction(1, 2))


def test_placements_stay_exact_beyond_floats() -> None:
    # 200 free cells and 100 mines: C(200, 100) is far beyond 2**53.
    result = odds(Position([[None] * 200], [], list(range(200)), 0), 100)
    assert result.placements == 90548514656103281165404177077484163874504589675413336841320
    assert result.probability(0) == Fraction(1, 2)


def test_safest_are_the_least_likely_cells() -> None:
    result = Odds(2, 6, {1: 3, 2: 1, 3: 1, 4: 6, 5: 0})
    assert result.safest() == [5]
    assert Odds(2, 6, {1: 3, 2: 1, 3: 1}).safest() == [2, 3]
    assert result.safe == [5]
    assert result.mines == [4]
    assert result.certain() == [(4, True), (5, False)]
    assert result.floats()[1] == 0.5


def test_a_contradiction_in_the_clues_is_named() -> None:
    position = Position([[None] * 3], [[((0, 1), 1), ((0, 1), 2)]], [2], 0)
    with pytest.raises(NoPlacementError, match="contradict each other around cells") as caught:
        odds(position, 1)
    assert caught.value.why is Why.CLUES
    assert caught.value.cells == (0, 1)


@pytest.mark.parametrize(
    ("mines", "why", "message"),
    [
        (0, Why.TOO_FEW, "0 mine\\(s\\) left, but the clues need at least 1"),
        (3, Why.TOO_MANY, "3 mine\\(s\\) left, but at most 2 fit in the unknown cells"),
    ],
)
def test_a_total_that_does_not_fit_is_named(mines: int, why: Why, message: str) -> None:
    # One mine between 0 and 1, and one free cell 2: one or two mines fit.
    position = Position([[None] * 3], [[((0, 1), 1)]], [2], 0)
    with pytest.raises(NoPlacementError, match=message) as caught:
        odds(position, mines)
    assert caught.value.why is why


def test_a_total_between_the_counts_the_clues_allow_can_still_not_fit() -> None:
    # A star: 0 with each of 1, 2, 3 holds one mine, so either 0 alone or 1, 2 and 3: one
    # mine or three, never two.
    star = [((0, 1), 1), ((0, 2), 1), ((0, 3), 1)]
    position = Position([[None] * 4], [star], [], 0)
    assert odds(position, 1).mines == [0]
    assert odds(position, 3).mines == [1, 2, 3]
    with pytest.raises(NoPlacementError, match="no split") as caught:
        odds(position, 2)
    assert caught.value.why is Why.GAP


def _sums_to(mines: int) -> Callable[..., bool]:
    """A python-constraint function: the values sum to ``mines``."""

    def check(*values: int) -> bool:
        return sum(values) == mines

    return check
