"""The S4 grammar: good files in every layout, bad files with each error's location (an early end
of file just past the last character), and the data a syntax error carries."""

from __future__ import annotations

from pathlib import Path

import pytest

from mineshafted.rules import (
    Call,
    Constant,
    DefaultAction,
    RuleSyntaxError,
    Symbol,
    parse_rules,
    read_rules,
)

DATA = Path(__file__).resolve().parents[2] / "mineshafted" / "rules" / "data"

RULE1 = """{Rule1
?--
-1-
---
=>
M--
-1-
---
no-default-action
}
"""


@pytest.mark.parametrize("path", sorted(DATA.rglob("*.s4")), ids=lambda p: p.name)
def test_every_shipped_file_parses(path: Path) -> None:
    assert read_rules(path).rules


def test_the_issue_example_reads_as_written() -> None:
    (rule,) = parse_rules(RULE1).rules
    assert rule.name == "Rule1"
    assert rule.lhs == ("?--", "-1-", "---")
    assert rule.rhs == ("M--", "-1-", "---")
    assert rule.default is DefaultAction.NONE
    assert rule.conditions == ()


@pytest.mark.parametrize(
    "layout",
    [
        RULE1.replace("\n", "\r\n"),
        RULE1.replace("\n", "   \n"),
        RULE1.replace("\n", "\n\n\t"),
        RULE1.replace("\n", " ; a comment\n"),
        "; header comment\n\n" + RULE1 + "\n\n; trailing comment",
        RULE1.replace("\n", " "),
    ],
    ids=["crlf", "trailing-spaces", "blank-lines-and-tabs", "comments", "around", "one-line"],
)
def test_layout_does_not_matter(layout: str) -> None:
    assert parse_rules(layout) == parse_rules(RULE1)


def test_conditions_and_default_actions() -> None:
    text = """{r
*** *n* ***
(= (+ matched-mines matched-unkns) n) (> matched-unkns 0)
(or #t (not (<= (quotient n 2) (remainder -7 2) (- n) (* 2 n))))
(if (>= total-mines-remaining 1) #t (< total-non-mines-remaining 3))
=> no-action-pattern mark-unknowns }
{s ||| |1- |-? => --- --- --M click-unknowns}"""
    first, second = parse_rules(text).rules
    assert first.rhs is None and first.default is DefaultAction.MARK
    assert first.conditions[0] == Call(
        "=",
        (Call("+", (Symbol("matched-mines"), Symbol("matched-unkns"))), Symbol("n")),
    )
    assert first.conditions[1] == Call(">", (Symbol("matched-unkns"), Constant(0)))
    assert first.uses_totals and not second.uses_totals
    assert second.default is DefaultAction.CLICK


def test_larger_odd_patterns() -> None:
    text = "{five ????? ?---? ?-1-? ?---? ????? => no-action-pattern no-default-action}"
    (rule,) = parse_rules(text).rules
    assert rule.size == 5 and rule.radius == 2


BAD = [
    # (text, line, column, words in the message)
    ("{r\n---\n-x-\n-%-\n=>\nno-action-pattern\nno-default-action\n}", 4, 2, "'%'"),
    ("{r\n---\n-1\n---\n=>\nno-action-pattern\nno-default-action\n}", 3, 1, "ragged"),
    ("{r\n---\n-1-\n=>\nno-action-pattern\nno-default-action\n}", 2, 1, "square"),
    ("{r\n--\n-1\n=>\nno-action-pattern\nno-default-action\n}", 2, 1, "odd"),
    ("{r\n---\n-1-\n---\n=>\nM-\n-1\nno-default-action\n}", 6, 1, "3x3"),
    ("{r\n---\n-1-\n---\n=>\nM--\n-1-\n---\n---\nno-default-action\n}", 9, 1, "default"),
    ("{r\n---\n-1-\n---\n(foo 1 2)\n=>\nno-action-pattern\nno-default-action\n}", 5, 2, "foo"),
    ("{r\n---\n-1-\n---\n(= zz 1)\n=>\nno-action-pattern\nno-default-action\n}", 5, 4, "zz"),
    ("{r\n---\n-1-\n---\n(= q 1)\n=>\nno-action-pattern\nno-default-action\n}", 5, 4, "'q'"),
    ("{r\n---\n-1-\n---\n(not 1 2)\n=>\nno-action-pattern\nno-default-action\n}", 5, 1, "not"),
    ("{r\n---\n-1-\n---\n(= 1 #t)\n=>\nno-action-pattern\nno-default-action\n}", 5, 6, "boolean"),
    ("{r\n---\n-1-\n---\n(+ 1 2)\n=>\nno-action-pattern\nno-default-action\n}", 5, 1, "true"),
    ("{r\n---\n-1-\n---\n(= 1 1\n=>\nno-action-pattern\nno-default-action\n}", 6, 1, "`)`"),
    ("{r\n---\n-1-\n---\nno-action-pattern\nno-default-action\n}", 7, 1, "`=>`"),
    ("{r\n---\n-1-\n---\n=>\nno-action-pattern\nno-default-action\n", 8, 1, "`}`"),
    ("{r\n---\n-1-\n---\n=>\nno-action-pattern\n}", 7, 1, "default action"),
    ("---\n", 1, 1, "`{`"),
]


@pytest.mark.parametrize(("text", "line", "column", "words"), BAD)
def test_each_error_names_its_place_and_what_was_expected(
    text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(RuleSyntaxError) as info:
        parse_rules(text, origin="bad.s4")
    error = info.value
    assert (error.origin, error.line, error.column) == ("bad.s4", line, column)
    assert str(error).startswith(f"bad.s4:{line}:{column}: ")
    assert words in str(error)


def test_errors_with_crlf_count_lines_the_same() -> None:
    text = "{r\r\n---\r\n-1\r\n---\r\n=>\r\nno-action-pattern\r\nno-default-action\r\n}"
    with pytest.raises(RuleSyntaxError) as info:
        parse_rules(text)
    assert (info.value.line, info.value.column) == (3, 1)


def test_a_file_that_is_not_text(tmp_path: Path) -> None:
    path = tmp_path / "binary.s4"
    path.write_bytes(b"{r\n\xff\xfe")
    with pytest.raises(RuleSyntaxError, match="not UTF-8") as info:
        read_rules(path)
    assert (info.value.line, info.value.column) == (2, 1)


def test_an_empty_file_has_no_rules() -> None:
    assert parse_rules("").rules == ()
    assert parse_rules("; only a comment\n").rules == ()


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


def test_a_syntax_error_keeps_what_was_expected() -> None:
    error = RuleSyntaxError("a.s4", 3, 5, "expected `=>`")
    assert (error.origin, error.line, error.column, error.detail) == ("a.s4", 3, 5, "expected `=>`")
