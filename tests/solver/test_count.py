"""Counting one component's placements: classes of cells, against counting cell by cell."""

from __future__ import annotations

from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted.solver import Constraint, Count, count_component


def per_cell(count: Count) -> dict[int, tuple[int, ...]]:
    """Each cell's mined counts by number of mines."""
    return {
        cell: mined
        for group, mined in zip(count.classes, count.mined, strict=True)
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
    grouped = count_component(constraints)
    single = count_component(constraints, grouped=False)
    assert all(len(group) == 1 for group in single.classes)
    assert grouped.placements == single.placements
    assert per_cell(grouped) == per_cell(single)


def test_a_component_of_large_classes_counts_them_by_binomials() -> None:
    # Two clues sharing four cells: 2 mines among A + S, 3 among S + B, with |A| = 3,
    # |S| = 4, |B| = 5: three classes, where cell by cell there are twelve cells.
    a, s, b = (0, 1, 2), (10, 11, 12, 13), (20, 21, 22, 23, 24)
    constraints = [(a + s, 2), (s + b, 3)]
    grouped = count_component(constraints)
    assert sorted(grouped.classes) == [a, s, b]
    expected = [0] * 6
    for k in range(3):  # k mines in S
        expected[k + (2 - k) + (3 - k)] += comb(4, k) * comb(3, 2 - k) * comb(5, 3 - k)
    assert list(grouped.placements) == expected
    single = count_component(constraints, grouped=False)
    assert single.placements == grouped.placements
    assert per_cell(single) == per_cell(grouped)


def test_a_long_frontier_is_counted_without_enumerating_its_placements() -> None:
    # A row of 300 cells under 300 clues of one mine in each window (of two at the ends):
    # only mines on 1, 4, ..., 298 fit. A search over cells would wander through the
    # partial rows; the sweep over classes keeps at most three open clues.
    cells = 300
    constraints = [(tuple(range(max(i - 1, 0), min(i + 2, cells))), 1) for i in range(cells)]
    count = count_component(constraints)
    assert sum(count.placements) == count.placements[100] == 1
    assert [c for c, m in sorted(per_cell(count).items()) if m[100]] == list(range(1, cells, 3))


def test_contradictory_constraints_count_no_placement() -> None:
    count = count_component([((1, 2), 1), ((1, 2), 2)])
    assert not any(count.placements)
    assert count.cells == [1, 2]
