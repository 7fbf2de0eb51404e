"""The finished games' indices: a set kept as runs of consecutive indices."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mineshafted.studies import Indices


def _runs(values: set[int]) -> int:
    """How many maximal runs of consecutive integers ``values`` holds."""
    return sum(1 for value in values if value - 1 not in values)


@given(st.lists(st.integers(0, 200), max_size=300), st.integers(0, 220))
def test_indices_behave_as_a_set_of_integers(added: list[int], stop: int) -> None:
    indices, expected = Indices(), set()
    for value in added:
        assert indices.add(value) == (value not in expected)
        expected.add(value)
    assert len(indices) == len(expected) and list(indices) == sorted(expected)
    assert all((value in indices) == (value in expected) for value in range(-2, 205))
    assert indices.runs == _runs(expected)
    assert list(indices.missing(stop)) == [i for i in range(stop) if i not in expected]
    assert indices.below(stop) == sum(1 for i in expected if i < stop)


def test_games_finishing_nearly_in_order_take_a_few_runs() -> None:
    indices = Indices()
    for chunk in range(10_000):  # chunks of 16, each pair of chunks finishing out of order
        first = 16 * (chunk ^ 1)
        for index in range(first, first + 16):
            indices.add(index)
        assert indices.runs <= 2
    assert indices.runs == 1 and len(indices) == 160_000


def test_the_missing_indices_skip_what_is_added_while_they_are_walked() -> None:
    indices = Indices([2, 3, 7])
    walked = []
    for index in indices.missing(10):
        walked.append(index)
        indices.add(index)  # the runner adds each game it took once it finishes
    assert walked == [0, 1, 4, 5, 6, 8, 9] and indices.runs == 1


def test_a_negative_index_is_refused() -> None:
    with pytest.raises(ValueError, match="index -1 is negative"):
        Indices().add(-1)
