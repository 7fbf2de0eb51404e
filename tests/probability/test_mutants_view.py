"""Views and position files: details mutation testing found unchecked (source, zero, board)."""

from __future__ import annotations

import pytest

from mineshafted.errors import NoPlacementError
from mineshafted.probability import PositionFormatError, parse_position, position_of


def test_the_position_keeps_a_copy_of_the_view() -> None:
    view: list[list[int | None]] = [[1, None], [None, -1]]
    position = position_of(view)
    assert position.board == view
    assert position.board is not view and position.board[0] is not view[0]


def test_a_clue_short_of_unknown_cells_says_how_many_more_mines_it_needs() -> None:
    # The 3 sees one known mine and one unknown cell: it needs 2 more.
    view = [[-1, 3, None]]
    with pytest.raises(NoPlacementError, match=r"clue 3 needs 2 more mine\(s\) but has 1"):
        position_of(view)


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "[1]",
        '{"board": [[1]]}',
        '{"board": [[1]], "mines": 1, "size": 3}',
        '{"board": [[9]], "mines": 1}',
        '{"board": [[1]], "mines": -1}',
    ],
    ids=["not-json", "not-object", "missing", "unknown", "board", "mines"],
)
def test_every_position_file_error_names_its_source(text: str) -> None:
    with pytest.raises(PositionFormatError) as caught:
        parse_position(text, source="saved.json")
    assert caught.value.source == "saved.json"
    assert "saved.json" in str(caught.value)


def test_a_position_with_no_mines_is_read() -> None:
    assert parse_position('{"board": [[0, null]], "mines": 0}').mines == 0


def test_an_unknown_field_is_told_the_fields_there_are() -> None:
    with pytest.raises(PositionFormatError, match=r"a position has board, mines"):
        parse_position('{"board": [[1]], "mines": 1, "size": 3}')


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("[1]", "an array"),
        ('"board"', "a string"),
        ("3", "a number"),
        ("2.5", "a number"),
        ("null", "null"),
        ("true", "a boolean"),
    ],
)
def test_a_position_that_is_not_an_object_names_what_it_is(text: str, named: str) -> None:
    with pytest.raises(PositionFormatError, match=f"a JSON object, not {named}$"):
        parse_position(text)
