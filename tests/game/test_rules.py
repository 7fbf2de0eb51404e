"""Rules: the presets, the enums' values, and reading rules back from JSON."""

from __future__ import annotations

from itertools import product

import pytest

from mineshafted.game import LEVELS, AfterMine, FirstMove, Rules


def test_presets_hold_the_documented_rules() -> None:
    assert Rules(FirstMove.SAFE, True, AfterMine.END, True) == Rules.CLASSIC
    assert Rules(FirstMove.NONE, False, AfterMine.END, False) == Rules.MINE_SHAFTED
    assert Rules(FirstMove.SAFE, True, AfterMine.CONTINUE, True) == Rules.CS440


def test_the_levels_are_the_classic_boards() -> None:
    assert {name: tuple(level) for name, level in LEVELS.items()} == {
        "beginner": (9, 9, 10),
        "intermediate": (16, 16, 40),
        "expert": (16, 30, 99),
    }


def test_enum_values_are_the_lower_case_words_cli_and_json_use() -> None:
    assert [*map(str, FirstMove)] == ["safe", "opening", "none"]
    assert [*map(str, AfterMine)] == ["end", "continue"]
    assert FirstMove("opening") is FirstMove.OPENING


@pytest.mark.parametrize(
    ("first_move", "auto_expand", "after_mine", "total_known"),
    list(product(FirstMove, [True, False], AfterMine, [True, False])),
)
def test_every_combination_round_trips_through_json(
    first_move: FirstMove, auto_expand: bool, after_mine: AfterMine, total_known: bool
) -> None:
    rules = Rules(first_move, auto_expand, after_mine, total_known)
    assert Rules.from_json(rules.to_json()) == rules


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("first_move", "lucky", "first_move: 'lucky' is not one of safe, opening, none"),
        ("after_mine", 1, "after_mine: 1 is not one of end, continue"),
        ("auto_expand", "yes", "auto_expand: 'yes' is not true or false"),
        ("total_known", 1, "total_known: 1 is not true or false"),
    ],
)
def test_a_bad_value_is_refused_naming_its_field(field: str, value: object, message: str) -> None:
    obj: dict[str, object] = {**Rules.CLASSIC.to_json(), field: value}
    with pytest.raises(ValueError, match=message):
        Rules.from_json(obj)


def test_a_missing_field_is_a_key_error() -> None:
    obj: dict[str, object] = dict(Rules.CLASSIC.to_json())
    del obj["total_known"]
    with pytest.raises(KeyError, match="total_known"):
        Rules.from_json(obj)
