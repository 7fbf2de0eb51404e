"""The rule language's syntax error carries its data (mutation testing)."""

from __future__ import annotations

from mineshafted.rules import RuleSyntaxError


def test_a_syntax_error_keeps_what_was_expected() -> None:
    error = RuleSyntaxError("a.s4", 3, 5, "expected `=>`")
    assert (error.origin, error.line, error.column, error.detail) == ("a.s4", 3, 5, "expected `=>`")
