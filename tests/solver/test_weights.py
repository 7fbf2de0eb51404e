"""A component's weights (its placements counted by number of mines): classes of cells, against
counting cell by cell; and combining components under the mine total, with each way a total
can fail to fit named."""

from __future__ import annotations

from itertools import product
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted.board import Geometry
from mineshafted.errors import NoPlacementError, Why
from mineshafted.solver import Constraint, Tally, Weights, combine, weigh
from mineshafted.solver.position import components
from mineshafted.solver.weights import (
    MEMORY,
    CountTooLargeError,
    convolve,
    memory_budget,
    weighed,
)

pytestmark = pytest.mark.usefixtures("each_core")  # every test under each core


def per_cell(weights: Weights) -> dict[int, tuple[int, ...]]:
    """Each cell's mined counts by number of mines."""
    return {
        cell: mined
        for group, mined in zip(weights.classes, weights.mined, strict=True)
        for cell in group
    }


@st.composite
def overlapping(draw: st.DrawFn) -> list[Constraint]:
    """Constraints over few cells, so that many cells share exactly the same constraints."""
    constraints = []
    for _ in range(draw(st.integers(1, 4))):
        scope = draw(st.sets(st.integers(0, 11), min_size=1, max_size=8))
        constraints.append((tuple(sorted(scope)), draw(st.integers(0, len(scope)))))
    return constraints


@settings(max_examples=150, deadline=None)
@given(overlapping())
def test_classes_count_the_same_as_cells_one_by_one(constraints: list[Constraint]) -> None:
    grouped = weigh(constraints)
    single = weigh(constraints, grouped=False)
    assert all(len(group) == 1 for group in single.classes)
    assert grouped.placements == single.placements
    assert per_cell(grouped) == per_cell(single)


def test_a_component_of_large_classes_counts_them_by_binomials() -> None:
    # Two clues sharing four cells: 2 mines among A + S, 3 among S + B, with |A| = 3,
    # |S| = 4, |B| = 5: three classes, where cell by cell there are twelve cells.
    a, s, b = (0, 1, 2), (10, 11, 12, 13), (20, 21, 22, 23, 24)
    constraints = [(a + s, 2), (s + b, 3)]
    grouped = weigh(constraints)
    assert sorted(grouped.classes) == [a, s, b]
    expected = [0] * 6
    for k in range(3):  # k mines in S
        expected[k + (2 - k) + (3 - k)] += comb(4, k) * comb(3, 2 - k) * comb(5, 3 - k)
    assert list(grouped.placements) == expected
    single = weigh(constraints, grouped=False)
    assert single.placements == grouped.placements
    assert per_cell(single) == per_cell(grouped)


def test_a_long_frontier_is_counted_without_enumerating_its_placements() -> None:
    # A row of 300 cells under 300 clues of one mine in each window (of two at the ends):
    # only mines on 1, 4, ..., 298 fit. A search over cells would wander through the
    # partial rows; the sweep over classes keeps at most three open clues.
    cells = 300
    constraints = [(tuple(range(max(i - 1, 0), min(i + 2, cells))), 1) for i in range(cells)]
    count = weigh(constraints)
    assert sum(count.placements) == count.placements[100] == 1
    assert [c for c, m in sorted(per_cell(count).items()) if m[100]] == list(range(1, cells, 3))


def brute_force(constraints: list[Constraint]) -> tuple[list[int], dict[int, list[int]]]:
    """Placements by mines, and each cell's placements with a mine on it, by trying them all."""
    cells = sorted({cell for scope, _ in constraints for cell in scope})
    placements = [0] * (len(cells) + 1)
    mined = {cell: [0] * (len(cells) + 1) for cell in cells}
    for bits in product((0, 1), repeat=len(cells)):
        mine = dict(zip(cells, bits, strict=True))
        if all(sum(mine[c] for c in scope) == n for scope, n in constraints):
            placements[sum(bits)] += 1
            for cell in cells:
                mined[cell][sum(bits)] += mine[cell]
    return placements, mined


def trimmed(counts: tuple[int, ...] | list[int]) -> list[int]:
    """``counts`` without the zeros after its last placement."""
    counts = list(counts)
    while counts and not counts[-1]:
        counts.pop()
    return counts


@pytest.mark.slow  # over 0.5 s on a quiet machine: CI runs it
@settings(max_examples=150, deadline=None)
@given(overlapping())
def test_counts_are_every_placement_tried_one_by_one(constraints: list[Constraint]) -> None:
    count = weigh(constraints)
    placements, mined = brute_force(constraints)
    assert trimmed(count.placements) == trimmed(placements)
    for cell, counts in per_cell(count).items():
        assert len(counts) == len(count.placements)
        assert trimmed(counts) == trimmed(mined[cell])


def _sparse(rows: int, cols: int) -> list[Constraint]:
    """A 1 on every other square of every other row of a board: one wide frontier, its
    unknown cells each beside one to four clues."""
    geometry = Geometry(rows, cols)
    return [
        (tuple(geometry.neighbours(r * cols + c)), 1)
        for r in range(0, rows, 2)
        for c in range(0, cols, 2)
    ]


SPARSE = _sparse(7, 15)
"""32 clues over 73 unknown cells: 8 clues in a row, open at once."""


def test_a_budget_does_not_change_a_count_it_admits() -> None:
    unbounded = weigh(SPARSE, memory=10_000)
    admitted, refused = [], []
    for memory in (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5):
        try:
            admitted.append((memory, weigh(SPARSE, memory=memory)))
        except CountTooLargeError as error:
            assert (error.cells, error.memory) == (len(unbounded.cells), memory)
            refused.append(memory)
    assert refused and admitted and max(refused) < min(m for m, _ in admitted)
    assert all(count == unbounded for _, count in admitted)


@settings(max_examples=100, deadline=None)
@given(overlapping(), st.floats(1e-4, 0.05))
def test_a_count_under_any_budget_is_exact_or_refused(
    constraints: list[Constraint], memory: float
) -> None:
    try:
        count = weigh(constraints, memory=memory)
    except CountTooLargeError:
        return
    assert count == weigh(constraints)


def test_the_memory_budget_holds_for_remembered_counts_within_its_block() -> None:
    component = tuple(SPARSE[:-1])  # not met elsewhere: not remembered yet
    with memory_budget(0.01), pytest.raises(CountTooLargeError) as caught:
        weighed(component)
    assert str(caught.value) == (
        "counting the placements would take more than 0.01 MiB: the clues' frontier "
        f"({caught.value.cells} unknown cells) is too wide to count exactly"
    )
    exact = weigh(component, memory=MEMORY)
    assert weighed(component) == exact
    with memory_budget(0.01):  # counted once: remembered, whatever the budget
        assert weighed(component) == exact


def test_contradictory_constraints_count_no_placement() -> None:
    count = weigh([((1, 2), 1), ((1, 2), 2)])
    assert not any(count.placements)
    assert count.cells == [1, 2]


# Combining components under the mine total.

ONE_OR_THREE = [((1, 2), 1), ((2, 3), 1), ((2, 4), 1)]
"""Cell 2 a mine (one in all), or 1, 3 and 4 (three): never two."""


def test_two_components_and_a_free_cell_are_weighed_against_each_other() -> None:
    pair = weigh([((1, 2), 1)])
    triple = weigh([((3, 4, 5), 1)])
    # Three mines: one in each component, so the free cell 7 holds the third.
    assert combine([pair, triple], [7], 3) == Tally(3, 6, {1: 3, 2: 3, 3: 2, 4: 2, 5: 2, 7: 6})
    # Two mines: the free cell is always safe.
    assert combine([pair, triple], [7], 2) == Tally(2, 6, {1: 3, 2: 3, 3: 2, 4: 2, 5: 2, 7: 0})


def test_a_component_of_one_or_three_mines_is_counted_apart() -> None:
    count = weigh(ONE_OR_THREE)
    assert count.placements == (0, 1, 0, 1)
    assert combine([count], [9], 3) == Tally(3, 1, {1: 1, 2: 0, 3: 1, 4: 1, 9: 0})
    assert combine([count], [9], 2) == Tally(2, 1, {1: 0, 2: 1, 3: 0, 4: 0, 9: 1})


def test_contradicting_clues_are_named_with_their_cells() -> None:
    count = weigh([((1, 2), 1), ((1, 2), 2)])
    with pytest.raises(NoPlacementError) as caught:
        combine([count], [], 1)
    assert str(caught.value) == "the clues contradict each other around cells [1, 2]"
    assert (caught.value.why, caught.value.cells) == (Why.CLUES, (1, 2))


@pytest.mark.parametrize(
    ("free", "mines_left", "why", "message"),
    [
        (0, 0, Why.TOO_FEW, "0 mine(s) left, but the clues need at least 1"),
        (2, 0, Why.TOO_FEW, "0 mine(s) left, but the clues need at least 1"),
        (0, 4, Why.TOO_MANY, "4 mine(s) left, but at most 3 fit in the unknown cells"),
        (2, 6, Why.TOO_MANY, "6 mine(s) left, but at most 5 fit in the unknown cells"),
        (0, 2, Why.GAP, "2 mine(s) left, but no split of them between the clues fits"),
    ],
)
def test_a_total_that_does_not_fit_says_how(
    free: int, mines_left: int, why: Why, message: str
) -> None:
    count = weigh(ONE_OR_THREE)
    with pytest.raises(NoPlacementError) as caught:
        combine([count], list(range(20, 20 + free)), mines_left)
    assert (caught.value.why, str(caught.value)) == (why, message)


def test_the_least_and_the_most_add_up_over_components() -> None:
    counts = [weigh(ONE_OR_THREE), weigh([((5, 6), 1)])]
    with pytest.raises(NoPlacementError, match=r"need at least 2$"):
        combine(counts, [], 1)
    with pytest.raises(NoPlacementError, match="at most 4 fit"):
        combine(counts, [], 5)


def test_components_keep_apart_what_shares_no_cell() -> None:
    constraints = [((1, 2), 1), ((7,), 1), ((3, 4), 1), ((2, 3), 1), ((8, 9), 1), ((9,), 0)]
    assert list(components(constraints)) == [
        [((1, 2), 1), ((3, 4), 1), ((2, 3), 1)],
        [((7,), 1)],
        [((8, 9), 1), ((9,), 0)],
    ]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(0, 9), min_size=1, max_size=5),
    st.lists(st.integers(0, 9), min_size=1, max_size=5),
)
def test_two_parts_together_count_every_pair_of_their_placements_by_mines(
    a: list[int], b: list[int]
) -> None:
    # a[i] placements of i mines in one part, b[j] of j in the other: together, term k counts
    # the pairs with i + j = k, up to the most mines both parts can hold, and no further.
    product = convolve(a, b)
    assert len(product) == len(a) + len(b) - 1  # the most mines: the two parts' most, added
    for k, value in enumerate(product):
        assert value == sum(a[i] * b[k - i] for i in range(len(a)) if 0 <= k - i < len(b))
