"""A player's view: checked, counted, read from position files, written as JSON."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from mineshafted.errors import InvalidBoardError, NoPlacementError, Why
from mineshafted.probability import (
    PositionFile,
    PositionFormatError,
    odds_json,
    parse_position,
    position_of,
    read_position,
    view_odds,
)

from ..conftest import view_of
from .conftest import Stall

pytestmark = pytest.mark.usefixtures("each_core")  # every test under each core

VIEW = view_of(
    """
    . 1 ? ?
    1 2 ? ?
    ? ? ? ?
    """
)
"""Clues around a 2x2 opening; 9 unknown cells; 3 mines on the board."""


def test_a_view_becomes_a_position_of_its_clues() -> None:
    position = position_of(VIEW)
    assert position.components == [
        [((2, 6), 1), ((8, 9), 1), ((2, 6, 8, 9, 10), 2)],
    ]
    assert position.unconstrained == [3, 7, 11]
    assert position.mines_found == 0


def test_known_mines_are_taken_off_the_clues() -> None:
    position = position_of(view_of("1*?\n12?"))
    assert position.components == [[((2, 5), 1)]]
    assert position.mines_found == 1


def test_view_odds_count_every_placement() -> None:
    # Clue 1 at (0,1) sees 2 and 6; clue 1 at (1,0) sees 8 and 9; clue 2 at (1,1) sees
    # 2, 6, 8, 9, 10: so 10 is safe, one mine on 2/6, one on 8/9, the third on 3, 7, 11.
    result = view_odds(VIEW, 3)
    assert result.placements == 2 * 2 * 3
    assert result.mines_left == 3
    assert result.fractions() == {
        2: Fraction(1, 2),
        3: Fraction(1, 3),
        6: Fraction(1, 2),
        7: Fraction(1, 3),
        8: Fraction(1, 2),
        9: Fraction(1, 2),
        10: Fraction(0),
        11: Fraction(1, 3),
    }
    assert result.safe == [10]


@pytest.mark.parametrize(
    ("view", "message"),
    [
        ([], "a board is a non-empty list of rows"),
        ([[0], 1], "row 1 is not a non-empty list"),
        ([[0, None], [None]], "row 1 has 1 cells but row 0 has 2"),
        ([[0, 9]], "row 0, column 1: 9 is not a clue 0-8, a mine -1 or None"),
        ([[0, True]], "row 0, column 1: True is not a clue"),
        ([[None, 1.0]], "row 0, column 1: 1.0 is not a clue"),
    ],
)
def test_a_malformed_view_is_named(view: object, message: str) -> None:
    with pytest.raises(InvalidBoardError, match=message):
        position_of(view)


@pytest.mark.parametrize(
    ("view", "row", "col", "message"),
    [
        (view_of("1*\n*?"), 0, 0, "clue 1 but 2 known mines around it"),
        (
            view_of(".1?\n.3?"),
            1,
            1,
            "clue 3 needs 3 more mine\\(s\\) but has 2 unknown neighbour\\(s\\)",
        ),
        (view_of("2?\n.."), 0, 0, "clue 2 needs 2 more mine\\(s\\) but has 1"),
    ],
)
def test_a_clue_that_cannot_be_met_is_named(view: object, row: int, col: int, message: str) -> None:
    with pytest.raises(NoPlacementError, match=f"^row {row}, column {col}: {message}") as caught:
        position_of(view)
    assert caught.value.why is Why.CLUES
    assert (caught.value.row, caught.value.col) == (row, col)


def test_contradictory_clues_raise_no_placement() -> None:
    # Each clue alone is fine; together they ask for one mine on 2 and none on 2.
    with pytest.raises(NoPlacementError, match="contradict each other") as caught:
        view_odds(view_of(".1?\n..?"), 1)
    assert caught.value.why is Why.CLUES


@pytest.mark.parametrize(
    ("mines", "why", "message"),
    [
        (0, Why.TOO_FEW, "0 mine\\(s\\) in all, but 1 are known"),
        (1, Why.TOO_FEW, "0 mine\\(s\\) left, but the clues need at least 2"),
        (9, Why.TOO_MANY, "8 mine\\(s\\) left, but at most 2 fit"),
    ],
)
def test_a_total_that_does_not_fit_the_view_is_named(mines: int, why: Why, message: str) -> None:
    # The clues allow only mines on 2 and 11, besides the known one.
    view = view_of("*2?\n12?\n.1?\n.1?")
    assert view_odds(view, 3).mines == [2, 11]
    with pytest.raises(NoPlacementError, match=message) as caught:
        view_odds(view, mines)
    assert caught.value.why is why


def test_odds_json_has_floats_for_unknown_cells_one_for_mines_and_null_for_clues() -> None:
    view = view_of("1*?\n11?")
    data = odds_json(view, view_odds(view, 1))
    assert data == {
        "probabilities": [[None, 1.0, 0.0], [None, None, 0.0]],
        "mines_left": 0,
        "placements": "1",
    }
    json.dumps(data)  # JSON-ready as it stands


# Position files.


def test_a_good_position_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"board": VIEW, "mines": 3}), encoding="utf-8")
    position = read_position(path)
    assert position == PositionFile(VIEW, 3)
    assert position.odds().placements == 12


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not JSON: Expecting property name enclosed in double quotes at line 1, column 2"),
        ("[1]", "a position is a JSON object, not an array"),
        ('{"mines": 1}', "field 'board': missing"),
        ('{"board": [[0]]}', "field 'mines': missing"),
        ('{"board": [[0]], "mines": 1, "flags": []}', "field 'flags': unknown field"),
        ('{"board": {}, "mines": 1}', "field 'board': a board is a non-empty array of rows"),
        ('{"board": [[0], []], "mines": 1}', "field 'board': row 1 is not a non-empty array"),
        ('{"board": [[0], [0, 0]], "mines": 1}', "field 'board': row 1 has 2 cells but row 0"),
        (
            '{"board": [[0, null], [null, "1"]], "mines": 1}',
            "field 'board', row 1, column 1: \"1\" is not a clue 0-8, a mine -1 or null",
        ),
        (
            '{"board": [[0, null], [-2, 1]], "mines": 1}',
            "field 'board', row 1, column 0: -2 is not a clue",
        ),
        ('{"board": [[0]], "mines": -1}', "field 'mines': -1 is not a mine total"),
        ('{"board": [[0]], "mines": "10"}', "field 'mines': \"10\" is not a mine total"),
        ('{"board": [[0]], "mines": true}', "field 'mines': true is not a mine total"),
    ],
)
def test_a_malformed_position_file_names_the_field_and_cell(text: str, message: str) -> None:
    with pytest.raises(PositionFormatError) as caught:
        parse_position(text)
    assert str(caught.value).startswith(message)


def test_a_position_file_error_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"board": [[0, 9]], "mines": 1}', encoding="utf-8")
    with pytest.raises(PositionFormatError) as caught:
        read_position(path)
    assert str(caught.value).startswith(f"{path}, field 'board', row 0, column 1: 9 is not")
    assert (caught.value.field, caught.value.row, caught.value.col) == ("board", 0, 1)
    assert caught.value.source == str(path)


def test_the_position_keeps_a_copy_of_the_view() -> None:
    view = view_of("1?\n?*")
    position = position_of(view)
    assert position.board == view
    assert position.board is not view and position.board[0] is not view[0]


def test_a_clue_short_of_unknown_cells_says_how_many_more_mines_it_needs() -> None:
    # The 3 sees one known mine and one unknown cell: it needs 2 more.
    view = view_of("*3?")
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


def test_a_board_too_big_for_the_shared_table_gives_the_same_position(
    monkeypatch: pytest.MonkeyPatch, intermediate_stalls: list[Stall]
) -> None:
    from mineshafted.probability import view as view_module

    expected = [position_of(stall.board) for stall in intermediate_stalls]
    monkeypatch.setattr(view_module, "TABLE_CELLS", 0)
    assert [position_of(stall.board) for stall in intermediate_stalls] == expected
    assert any(p.components for p in expected)
