"""Where a rule file ends too soon, and what a stray token is (mutation testing)."""

from __future__ import annotations

import pytest

from mineshafted.rules import RuleSyntaxError, parse_rules


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("{", 1, 2),  # just past the last character
        ("{r", 1, 3),
        ("{r\r", 2, 1),  # a bare carriage return ends a line too
        ("{r\r\n", 2, 1),
    ],
)
def test_an_early_end_of_file_is_placed_after_the_last_character(
    text: str, line: int, column: int
) -> None:
    with pytest.raises(RuleSyntaxError, match="unexpected end of file") as info:
        parse_rules(text)
    assert (info.value.line, info.value.column) == (line, column)


def test_a_stray_token_is_quoted() -> None:
    with pytest.raises(RuleSyntaxError, match=r"unexpected '~': expected `\{`"):
        parse_rules("~")
