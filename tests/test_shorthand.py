"""The tests' shorthand for a player's view reads each character as the code expects it."""

from __future__ import annotations

import pytest

from mineshafted.probability import position_of

from .conftest import view_of


def test_each_character_is_its_cell() -> None:
    assert view_of("1?1\n.2*") == [[1, None, 1], [0, 2, -1]]
    assert view_of("8765\n4320") == [[8, 7, 6, 5], [4, 3, 2, 0]]


def test_indents_spaces_and_blank_lines_are_ignored() -> None:
    text = """
        1 ? 1
        . 2 *
        """
    assert view_of(text) == view_of("1?1\n.2*")


def test_a_view_is_what_the_code_reads_as_a_view() -> None:
    position = position_of(view_of("1*?\n12?"))
    assert (position.components, position.mines_found) == ([[((2, 5), 1)]], 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1?9", "'9' is not a view cell"),
        ("1?x", "'x' is not a view cell"),
        ("1?\n1", "not a rectangle"),
        ("", "not a rectangle"),
    ],
)
def test_what_is_not_a_view_is_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        view_of(text)
