"""The technique ladder: ratings and each technique's sweep agree with the plain sweep up the
plain rungs (:func:`mineshafted.solver.plain.sweep`, the spec in code) on random boards; no
technique solves a board that a stronger one does not; small boards that separate each rung
from the next; the subset closure; the ``Technique`` names and order; ``rate``'s errors and
determinism."""

from __future__ import annotations

import logging
import random
import re
from collections import Counter
from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from mineshafted import (
    Board,
    BoardManager,
    ContradictionError,
    InvalidBoardError,
    StartError,
    Sweep,
    Technique,
    rate,
)
from mineshafted import rating as rating_module
from mineshafted.board import MINE, Cell
from mineshafted.solver import plain
from mineshafted.solver.subset import subset_facts

from ..conftest import SAMPLE

SOLVING = Technique.solving()
"""count, subset, ac3, complete, total: every technique a sweep can run."""


def sweep_solves(board: Board, start: Cell, technique: Technique) -> bool:
    """Whether ``Sweep(technique=...)`` solves ``board`` from ``start``.

    The mine total is always given: only ``total`` may use it, so a weaker technique that
    solved more with it than the plain sweep does without it would disagree.
    """
    sweep = Sweep(
        BoardManager(board.to_grid()), start=start, mines=len(board.mines), technique=technique
    )
    return sweep.run().solved


def plain_play(board: Board, start: Cell, technique: Technique) -> plain.Swept:
    """The plain sweep of ``board`` from ``start`` with the rungs up to ``technique``, the mine
    total known (only ``total`` uses it).

    Every cell it decides is checked against the board (and a move onto a mine raises), so a
    plain rung that proved a mine safe, or a safe cell mined, fails here rather than agreeing
    with the fast sweep by accident.
    """
    manager = BoardManager(board.to_grid())
    swept = plain.sweep(manager, technique, start=start, mines=len(board.mines))
    cols = board.geometry.cols
    for cell, value in enumerate(v for row in swept.board for v in row):
        assert value is None or value == board.values[cell], f"{technique.value} is wrong at {cell}"
    assert sum(v == MINE for row in swept.board for v in row) <= len(board.mines), cols
    return swept


def plain_solves(board: Board, start: Cell, technique: Technique) -> bool:
    """Whether the plain sweep up to ``technique`` decides every cell of ``board``."""
    return plain_play(board, start, technique).solved


def plain_rating(board: Board, start: Cell) -> str:
    """The first technique, weakest first, whose plain sweep solves ``board``; else ``guess``."""
    return next((t.value for t in SOLVING if plain_solves(board, start, t)), "guess")


def random_boards(n: int, seed: int) -> list[tuple[Board, Cell]]:
    """``n`` seeded random boards from 2x2 to 4x5 with up to 30% mines, and a start cell.

    Three starts in four are a cell showing 0 when there is one, so that play gets going and
    the stronger rungs are reached; the rest are any safe cell.
    """
    rng = random.Random(seed)
    boards = []
    for _ in range(n):
        rows, cols = rng.randint(2, 4), rng.randint(2, 5)
        cells = rows * cols
        mines = rng.sample(range(cells), rng.randint(0, cells * 3 // 10))
        board = Board.from_mines(rows, cols, mines)
        safe = [cell for cell in range(cells) if cell not in board.mines]
        zeros = [cell for cell in safe if board.values[cell] == 0]
        boards.append((board, rng.choice(zeros if zeros and rng.random() < 0.75 else safe)))
    return boards


@st.composite
def small_boards(draw: st.DrawFn) -> tuple[Board, Cell]:
    """A board from 2x2 to 5x5 with any number of mines, and a safe start cell.

    The mine total is drawn either among all counts or among the lower quarter, and the start
    either among all safe cells or among those showing 0 (when there are any): random boards
    are mostly too dense, or started too blind, to reach the stronger rungs.
    """
    rows, cols = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    cells = rows * cols
    count = draw(st.integers(0, cells - 1) | st.integers(0, cells // 4))
    mines = draw(st.permutations(range(cells)))[:count]
    board = Board.from_mines(rows, cols, mines)
    safe = [cell for cell in range(cells) if cell not in board.mines]
    zeros = [cell for cell in safe if board.values[cell] == 0]
    return board, draw(st.sampled_from(safe) | st.sampled_from(zeros or safe))


# -- agreement with the plain sweep ------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(small_boards())
@pytest.mark.slow
def test_rating_agrees_with_the_plain_sweep_on_small_boards(case: tuple[Board, Cell]) -> None:
    board, start = case
    expected = plain_rating(board, start)
    event(f"rated {expected}")
    assert rate(board, start=start).technique.value == expected


@settings(max_examples=100, deadline=None)
@given(small_boards())
def test_rating_moves_onto_and_leaves_unknown_what_the_total_play_does(
    case: tuple[Board, Cell],
) -> None:
    board, start = case
    rating = rate(board, start=start)
    played = [v for row in plain_play(board, start, Technique.TOTAL).board for v in row]
    explored = sum(v is not None and v != MINE for v in played)
    assert (rating.moves, rating.unknown) == (explored, played.count(None))
    assert sum(rating.decided.values()) + rating.unknown == board.geometry.cells


@settings(max_examples=100, deadline=None)  # the thousands of seeded boards below: slow
@given(small_boards())
def test_each_technique_sweep_solves_exactly_the_boards_the_plain_sweep_solves(
    case: tuple[Board, Cell],
) -> None:
    board, start = case
    solved = {t.value: sweep_solves(board, start, t) for t in SOLVING}
    assert solved == {t.value: plain_solves(board, start, t) for t in SOLVING}


RANDOM_BOARDS = 3000
RANDOM_SEED = 3
"""The first of seeds 1 to 10 whose boards include the most rated ``ac3``: 5 (the others give 0 to
5; ``ac3`` needs a board of 15 cells or more, and is rare even there)."""

Checked = tuple[Board, Cell, dict[Technique, bool], dict[Technique, bool]]
"""A board, its start, and for each solving technique whether its sweep, and the plain sweep,
solve it."""


@pytest.fixture(scope="module")
def cross_checked() -> list[Checked]:
    """The seeded random boards, each with which techniques solve it, by sweep and plain sweep."""
    return [
        (
            board,
            start,
            {t: sweep_solves(board, start, t) for t in SOLVING},
            {t: plain_solves(board, start, t) for t in SOLVING},
        )
        for board, start in random_boards(RANDOM_BOARDS, RANDOM_SEED)
    ]


@pytest.mark.slow
def test_rating_agrees_with_the_plain_sweep_on_thousands_of_random_boards(
    cross_checked: list[Checked],
) -> None:
    ratings: Counter[str] = Counter()
    wrong = []
    for board, start, _, _ in cross_checked:
        expected = plain_rating(board, start)
        ratings[expected] += 1
        if rate(board, start=start).technique.value != expected:
            wrong.append((board.to_grid(), start, expected))
    assert wrong == []
    # The boards reach every rung that boards this small can need (``complete`` needs more room).
    assert set(ratings) == {"count", "subset", "ac3", "total", "guess"}


@pytest.mark.slow  # over a second
def test_each_technique_sweep_agrees_with_the_plain_sweep_on_thousands_of_random_boards(
    cross_checked: list[Checked],
) -> None:
    wrong = [
        (board.to_grid(), start, t.value)
        for board, start, by_sweep, by_plain in cross_checked
        for t in SOLVING
        if by_sweep[t] != by_plain[t]
    ]
    assert wrong == []


@settings(max_examples=50, deadline=None)
@given(small_boards())
def test_rating_is_the_weakest_technique_whose_sweep_solves_a_small_board(
    case: tuple[Board, Cell],
) -> None:
    board, start = case
    solved = [sweep_solves(board, start, t) for t in SOLVING]
    assert solved == sorted(solved)  # a stronger technique solves what a weaker one does
    weakest = next((t for t, s in zip(SOLVING, solved, strict=True) if s), Technique.GUESS)
    assert rate(board, start=start).technique is weakest


@pytest.mark.slow  # over a second: the seeded boards are swept by every technique
def test_rating_is_the_weakest_technique_whose_sweep_solves_the_board(
    cross_checked: list[Checked],
) -> None:
    for board, start, by_sweep, _ in cross_checked:
        weakest = next((t for t in SOLVING if by_sweep[t]), Technique.GUESS)
        assert rate(board, start=start).technique is weakest, (board.to_grid(), start)


@pytest.mark.slow  # over a second, as above
def test_no_technique_solves_a_board_that_a_stronger_one_does_not(
    cross_checked: list[Checked],
) -> None:
    for board, start, by_sweep, by_plain in cross_checked:
        for solved in (by_sweep, by_plain):
            ladder = [solved[t] for t in SOLVING]
            assert ladder == sorted(ladder), (board.to_grid(), start, ladder)


# -- boards that separate each rung from the next ---------------------------------------------

SEPARATING = [
    # 0 opens 1; 1 has one unknown neighbour left for its one mine.
    pytest.param([[0, 1, -1]], 0, Technique.COUNT, id="count"),
    # The 1 at 3 has its mine on 0 or 1, so the 1 at 4 (0, 1, 2) has none on 2; the 1 at 5
    # likewise clears 0; count alone sees three clues each with one mine among 2 or 3 cells.
    pytest.param([[1, -1, 1], [1, 1, 1], [0, 0, 0]], 6, Technique.SUBSET, id="subset"),
    # The 3 at 6 has one mine on 5 or 10 (the 1 at 11), so two on 0, 1, 2, and the 1 at 7
    # allows one at most on 1, 2: so 0 is a mine, and 3 is safe. Subset derives ({0, 1, 2}, 2)
    # but it does not lie within ({1, 2, 3}, 1).
    pytest.param(
        [[-1, 3, -1, 1, 0], [-1, 3, 1, 2, 1], [1, 1, 0, 1, -1]], 12, Technique.AC3, id="ac3"
    ),
    # Once AC-3 has found the mines 9 and 21 and the safe 24, the clues allow exactly two
    # placements: 1, 14, 15, 23 or 3, 5, 19, 22. Both leave 0, 2, 4, 10 and 20 safe, which
    # AC-3, comparing clues two at a time, cannot see.
    pytest.param(
        [[1, -1, 1, 1, 1], [1, 1, 1, 2, -1], [1, 1, 0, 2, -1], [-1, 2, 2, 2, 2], [2, -1, 2, -1, 1]],
        12,
        Technique.COMPLETE,
        id="complete",
    ),
    # 1 is the 1's only unknown neighbour; nothing sees 2, so only the total places it.
    pytest.param([[1, -1, -1]], 0, Technique.TOTAL, id="total"),
    # One mine on 0 or 2, and nothing can tell which.
    pytest.param([[-1, 1, 0]], 1, Technique.GUESS, id="guess"),
]


@pytest.mark.parametrize(("grid", "start", "technique"), SEPARATING)
def test_a_small_board_is_rated_the_first_technique_that_solves_it(
    grid: list[list[int]], start: Cell, technique: Technique
) -> None:
    board = Board.from_grid(grid)
    assert rate(board, start=start).technique is technique
    assert plain_rating(board, start) == technique.value


@pytest.mark.parametrize(("grid", "start", "technique"), SEPARATING)
def test_a_separating_board_is_solved_by_its_rating_and_not_by_the_rung_below(
    grid: list[list[int]], start: Cell, technique: Technique
) -> None:
    board = Board.from_grid(grid)
    for t in SOLVING:
        expected = technique <= t
        assert sweep_solves(board, start, t) is expected, t
        assert plain_solves(board, start, t) is expected, t


def test_the_sample_is_rated_subset_and_solved_by_ac3_but_not_by_count() -> None:
    board = Board.from_grid(SAMPLE)
    assert rate(board, start=0).technique is Technique.SUBSET
    assert plain_rating(board, 0) == "subset"
    for t, expected in [(Technique.COUNT, False), (Technique.SUBSET, True), (Technique.AC3, True)]:
        assert sweep_solves(board, 0, t) is expected
        assert plain_solves(board, 0, t) is expected


# -- the subset closure -----------------------------------------------------------------------


def test_subset_facts_counts_a_derived_constraint() -> None:
    # {0, 1} within {0, 1, 2}: {2} holds 1 - 1 = 0 mines.
    assert subset_facts([((0, 1), 1), ((0, 1, 2), 1)]) == [(2, False)]
    # {0} within {0, 1, 2}: {1, 2} holds all 2 of its cells' mines.
    assert subset_facts([((0,), 0), ((0, 1, 2), 2)]) == [(0, False), (1, True), (2, True)]


def test_subset_facts_derives_from_derived_constraints() -> None:
    # {0, 1} within {0, 1, 2, 3} gives ({2, 3}, 1), which lies within {2, 3, 4}: {4} is safe.
    # No clue constraint lies within another but the first two.
    chain = [((0, 1), 1), ((0, 1, 2, 3), 2), ((2, 3, 4), 1)]
    assert subset_facts(chain) == [(4, False)]
    # Without the first link, nothing follows.
    assert subset_facts(chain[1:]) == []


def test_subset_facts_stops_deriving_but_counts_every_constraint_it_has() -> None:
    # ({3}, 1) decides a cell first; ({1, 2}, 1) is then not derived from, but the clue
    # constraint ({0}, 0) met after it is still counted.
    assert subset_facts([((0,), 0), ((1, 2), 1), ((3,), 1)]) == [(0, False), (3, True)]


def test_subset_facts_derives_nothing_from_disjoint_or_overlapping_constraints() -> None:
    assert subset_facts([((0, 1), 1), ((2, 3), 1)]) == []
    # Overlapping on 1 without one lying within the other: 0 and 2 are still unknown.
    assert subset_facts([((0, 1), 1), ((1, 2), 1)]) == []
    assert subset_facts([((0, 1, 2), 2), ((1, 2, 3), 1)]) == []
    assert subset_facts([((0, 1), 1), ((0, 1), 1)]) == []


@pytest.mark.parametrize(
    ("constraints", "message"),
    [
        pytest.param(
            [((0, 1), 1), ((0, 1), 2)],
            "two constraints put 1 and 2 mine(s) on the same cells",
            id="two-counts-for-the-same-cells",
        ),
        pytest.param(
            [((0, 1, 2), 2), ((0, 1, 2, 3), 1)],
            "a derived constraint needs -1 mine(s) among 1 cell(s)",
            id="derived-count-below-zero",
        ),
        pytest.param(
            [((0, 1, 2), 1), ((0, 1, 2, 3, 4), 4)],
            "a derived constraint needs 3 mine(s) among 2 cell(s)",
            id="derived-count-above-its-cells",
        ),
        pytest.param(
            # ({2, 3, 4}, 1) derived first, then ({5, 6}, 3); no constraint decides a cell.
            [((0, 1), 1), ((0, 1, 2, 3, 4), 2), ((2, 3, 4, 5, 6), 4)],
            "a derived constraint needs 3 mine(s) among 2 cell(s)",
            id="contradiction-down-a-chain",
        ),
    ],
)
def test_subset_facts_raises_on_constraints_that_contradict_saying_how(
    constraints: list[tuple[tuple[Cell, ...], int]], message: str
) -> None:
    with pytest.raises(ContradictionError) as refused:
        subset_facts(constraints)
    assert str(refused.value) == message


# -- the techniques' names and order ----------------------------------------------------------


def test_techniques_are_ordered_weakest_first() -> None:
    ladder = [
        Technique.COUNT,
        Technique.SUBSET,
        Technique.AC3,
        Technique.COMPLETE,
        Technique.TOTAL,
        Technique.GUESS,
    ]
    assert list(Technique) == ladder
    assert sorted(reversed(ladder)) == ladder
    assert all(weaker < stronger for weaker, stronger in pairwise(ladder))
    assert Technique.TOTAL > Technique.AC3 >= Technique.AC3
    assert not Technique.GUESS < Technique.COUNT
    assert max(Technique.SUBSET, Technique.AC3, Technique.COUNT) is Technique.AC3
    assert ladder[:-1] == SOLVING


def test_techniques_do_not_compare_with_other_things() -> None:
    with pytest.raises(TypeError):
        assert Technique.COUNT < "subset"


@pytest.mark.parametrize("name", ["AC-3", "ac3", "Ac3", " AC_3 "])
def test_parse_ignores_case_and_hyphens(name: str) -> None:
    assert Technique.parse(name) is Technique.AC3


@pytest.mark.parametrize("name", ["ac4", "", "subsets", "guessing"])
def test_parse_refuses_an_unknown_name_listing_the_techniques(name: str) -> None:
    with pytest.raises(ValueError, match="no technique") as refused:
        Technique.parse(name)
    for technique in Technique:
        assert technique.value in str(refused.value)


def test_parse_refusal_lists_the_techniques_weakest_first() -> None:
    with pytest.raises(ValueError) as refused:
        Technique.parse("ac 3")
    assert str(refused.value) == (
        "no technique 'ac 3': the techniques are count, subset, ac3, complete, total, guess"
    )


# -- rate and the sweep: refusals and determinism ---------------------------------------------


@pytest.mark.parametrize("start", [12, -1, 100])
def test_rate_refuses_a_start_off_the_board(start: Cell) -> None:
    with pytest.raises(StartError) as refused:
        rate(Board.from_grid(SAMPLE), start=start)
    assert (refused.value.start, refused.value.rows, refused.value.cols) == (start, 4, 3)


def test_rate_refuses_a_start_on_a_mine() -> None:
    with pytest.raises(InvalidBoardError, match="mine"):
        rate(Board.from_grid(SAMPLE), start=5)


def test_sweep_refuses_total_without_the_mine_total_and_guess() -> None:
    with pytest.raises(ValueError, match="mine total"):
        Sweep(BoardManager(SAMPLE), technique=Technique.TOTAL)
    with pytest.raises(ValueError, match="guess"):
        Sweep(BoardManager(SAMPLE), mines=2, technique=Technique.GUESS)


@pytest.mark.parametrize(("grid", "start", "technique"), SEPARATING)
def test_rating_a_board_twice_gives_the_same_rating(
    grid: list[list[int]], start: Cell, technique: Technique
) -> None:
    board = Board.from_grid(grid)
    first, second = rate(board, start=start), rate(board, start=start)
    assert replace(first, seconds=0.0) == replace(second, seconds=0.0)


def test_rate_names_the_cell_of_a_start_on_a_mine() -> None:
    with pytest.raises(InvalidBoardError) as refused:
        rate(Board.from_grid(SAMPLE), start=5)
    assert (refused.value.row, refused.value.col) == (1, 2)
    assert str(refused.value) == "row 1, column 2: the start cell holds a mine"


@pytest.mark.parametrize("start", [True, 5.0])
def test_rate_refuses_a_start_that_is_not_an_int_even_one_naming_a_mine(start: object) -> None:
    # 5 holds a mine: 5.0 is refused as a start, not as a move onto a mine.
    with pytest.raises(StartError):
        rate(Board.from_grid(SAMPLE), start=start)  # type: ignore[arg-type]


def test_rating_seconds_is_the_time_rate_took_and_is_logged_in_ms(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    clock = iter([10.0, 12.5])
    monkeypatch.setattr(rating_module, "perf_counter", lambda: next(clock))
    with caplog.at_level(logging.INFO, logger="mineshafted.rating"):
        rating = rate(Board.from_grid(SAMPLE))
    assert rating.seconds == 2.5
    assert caplog.records[-1].getMessage().startswith("rated subset in 2500.0 ms: ")


def test_rating_to_json_names_techniques_and_rounds_seconds_to_microseconds() -> None:
    rating = replace(rate(Board.from_grid(SAMPLE)), seconds=0.123456789)
    assert rating.to_json() == {
        "technique": "subset",
        "decided": {"count": 11, "subset": 1, "ac3": 0, "complete": 0, "total": 0},
        "unknown": 0,
        "moves": 10,
        "seconds": 0.123457,
    }


def test_rate_logs_the_rating_and_what_each_technique_decided(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="mineshafted.rating"):
        rate(Board.from_grid(SAMPLE))
    (record,) = caplog.records
    assert record.levelno == logging.INFO
    assert re.fullmatch(
        r"rated subset in \d+\.\d ms: \{<Technique\.COUNT: 'count'>: 11, "
        r"<Technique\.SUBSET: 'subset'>: 1, .*\}",
        record.getMessage(),
    )
