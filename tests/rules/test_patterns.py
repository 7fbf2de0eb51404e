"""Patterns: why a pattern fails at a square, as debug level 6 tells it."""

from __future__ import annotations

from mineshafted.rules import parse_rules
from mineshafted.rules.patterns import Pattern, Square, match


def why(pattern_rows: str, corner: int) -> str:
    """Why a 3x3 pattern fails centred on a 3x3 view of 1s whose corner square holds ``corner``."""
    (rule,) = parse_rules(f"{{r {pattern_rows} => no-action-pattern no-default-action}}").rules
    pattern = Pattern(rule, 3)
    view = [1] * 9
    view[0] = corner
    fail = match(pattern, view, 4)
    assert isinstance(fail, tuple)
    return pattern.why(view, 4, fail)


def test_a_failing_square_that_shows_a_number_is_named_by_its_number() -> None:
    assert (
        why("?-- --- ---", 2) == "square (0, 0) of the pattern wants an unknown square, found a 2"
    )


def test_a_variable_is_named_by_its_letter_when_its_square_fails() -> None:
    assert why("a-- --- ---", Square.HIDDEN) == (
        "square (0, 0) of the pattern wants the number of variable a, found unknown"
    )
