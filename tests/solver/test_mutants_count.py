"""Counting under the mine total: exact tallies over several components, and each way a total
can fail to fit, named (gaps found by mutation testing)."""

from __future__ import annotations

import pytest

from mineshafted.errors import NoPlacementError, Why
from mineshafted.solver import Tally, combine, count_component
from mineshafted.solver.position import components

ONE_OR_THREE = [((1, 2), 1), ((2, 3), 1), ((2, 4), 1)]
"""Cell 2 a mine (one in all), or 1, 3 and 4 (three): never two."""


def test_two_components_and_a_free_cell_are_weighed_against_each_other() -> None:
    pair = count_component([((1, 2), 1)])
    triple = count_component([((3, 4, 5), 1)])
    # Three mines: one in each component, so the free cell 7 holds the third.
    assert combine([pair, triple], [7], 3) == Tally(3, 6, {1: 3, 2: 3, 3: 2, 4: 2, 5: 2, 7: 6})
    # Two mines: the free cell is always safe.
    assert combine([pair, triple], [7], 2) == Tally(2, 6, {1: 3, 2: 3, 3: 2, 4: 2, 5: 2, 7: 0})


def test_a_component_of_one_or_three_mines_is_counted_apart() -> None:
    count = count_component(ONE_OR_THREE)
    assert count.placements == (0, 1, 0, 1)
    assert combine([count], [9], 3) == Tally(3, 1, {1: 1, 2: 0, 3: 1, 4: 1, 9: 0})
    assert combine([count], [9], 2) == Tally(2, 1, {1: 0, 2: 1, 3: 0, 4: 0, 9: 1})


def test_contradicting_clues_are_named_with_their_cells() -> None:
    count = count_component([((1, 2), 1), ((1, 2), 2)])
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
    count = count_component(ONE_OR_THREE)
    with pytest.raises(NoPlacementError) as caught:
        combine([count], list(range(20, 20 + free)), mines_left)
    assert (caught.value.why, str(caught.value)) == (why, message)


def test_the_least_and_the_most_add_up_over_components() -> None:
    counts = [count_component(ONE_OR_THREE), count_component([((5, 6), 1)])]
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
