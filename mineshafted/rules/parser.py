"""Reading S4 rule files: a lark grammar, then checks that name ``file:line:column`` (the
tree's, rule by rule, in :mod:`.tree`).

The grammar is LALR(1) with lark's contextual lexer, so a pattern row, a rule name and a
keyword never get in each other's way. Whitespace of every kind (spaces, tabs, CRLF, blank
lines) separates tokens and is otherwise ignored, as are ``;`` comments to the end of a line.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Final

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..formats import read_bytes
from .errors import RuleSyntaxError
from .syntax import (
    Ruleset,
)
from .tree import MAX_DEPTH, MAX_INT_DIGITS, MAX_SIDE, OPERATORS, WHAT, rule_of

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_SIDE",
    "MAX_TOKENS",
    "OPERATORS",
    "parse_rules",
    "read_rules",
]

MAX_TOKENS: Final = 200_000
"""The most tokens (brackets, names, rows, numbers, ...) a rule file may hold: the champion
holds about 10,000, and parsing costs about 600 bytes of memory per token."""


GRAMMAR: Final = r"""
start: rule*
rule: LBRACE NAME row+ condition* ARROW rhs DEFAULT RBRACE
rhs: rhs_row+ | NO_ACTION
rhs_row: ROW
row: ROW
condition: call
?expr: INT -> integer
     | BOOL -> boolean
     | SYMBOL -> symbol
     | call
call: LPAR SYMBOL expr* RPAR

LBRACE: "{"
RBRACE: "}"
LPAR: "("
RPAR: ")"
ARROW.3: "=>"
NO_ACTION.3: "no-action-pattern"
DEFAULT.3: "mark-unknowns" | "click-unknowns" | "no-default-action"
NAME: /[^\s{};]+/
ROW: /[^\s(){};]+/
INT.4: /[+-]?[0-9]+(?![^\s();])/
BOOL.4: /#[tf](?![^\s();])/
SYMBOL: /(?!=>)[^\s()#;{}0-9][^\s();{}]*/

COMMENT: /;[^\n]*/
%ignore COMMENT
%ignore /[ \t\f\r\n]+/
"""


def parse_rules(text: str, *, origin: str = "<rules>") -> Ruleset:
    """The rules written in ``text``.

    Parameters
    ----------
    text : str
        An S4 rule file's contents.
    origin : str
        The file's name, for error messages.

    Returns
    -------
    Ruleset
        The rules in file order.

    Raises
    ------
    RuleSyntaxError
        The text is not S4: the message names ``origin:line:column`` and what was expected.

    Examples
    --------
    >>> rules = parse_rules('''
    ... {Rule1   ; a comment
    ... ?--
    ... -1-
    ... ---
    ... =>
    ... M--
    ... -1-
    ... ---
    ... no-default-action
    ... }''')
    >>> rule = rules.rules[0]
    >>> rule.name, rule.lhs, rule.rhs, rule.default.value
    ('Rule1', ('?--', '-1-', '---'), ('M--', '-1-', '---'), 'no-default-action')

    Notes
    -----
    LALR(1): linear in the length of the text, which is refused before parsing when it holds
    more than :data:`MAX_TOKENS` tokens (``O(MAX_TOKENS)`` to find out).
    """
    _check_size(text, origin)
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(error, text, origin) from None
    return Ruleset(
        tuple(rule_of(node, origin) for node in tree.children if isinstance(node, Tree)), origin
    )


def read_rules(path: str | Path) -> Ruleset:
    """The rules in the file at ``path`` (see :func:`parse_rules`).

    Raises
    ------
    RuleSyntaxError
        The file is not S4, not UTF-8 text, or larger than the bounds (:data:`MAX_TOKENS`,
        :data:`MAX_SIDE`, :data:`MAX_DEPTH`, :data:`MAX_INT_DIGITS`).
    InputError
        The file is missing, a directory, unreadable, or over
        :data:`~mineshafted.formats.MAX_FILE_BYTES` (read no further than that, whatever it
        is: a device such as ``/dev/zero``, a FIFO).
    """
    raw = read_bytes(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise RuleSyntaxError(str(path), line, column, "not UTF-8 text") from None
    return parse_rules(text, origin=str(path))


_TOKEN = re.compile(r"[(){}]|[^\s(){};]+|;[^\n]*")
"""A token of the grammar, roughly (a comment matched whole, to be skipped)."""


def _check_size(text: str, origin: str) -> None:
    """Refuse ``text`` when it holds more than :data:`MAX_TOKENS` tokens, before parsing."""
    count = 0
    for token in _TOKEN.finditer(text):
        if token.group().startswith(";"):
            continue
        count += 1
        if count > MAX_TOKENS:
            line = text.count("\n", 0, token.start()) + 1
            column = token.start() - (text.rfind("\n", 0, token.start()) + 1) + 1
            raise RuleSyntaxError(
                origin,
                line,
                column,
                f"the file holds more than {MAX_TOKENS:,} tokens: rule files are bounded "
                "at that size",
            )


@cache
def _parser() -> Lark:
    """The grammar, compiled once."""
    return Lark(GRAMMAR, parser="lalr", lexer="contextual", propagate_positions=True)


def _syntax_error(error: UnexpectedInput, text: str, origin: str) -> RuleSyntaxError:
    """Lark's error as ours: where, what was found, what was expected."""
    if isinstance(error, UnexpectedCharacters):
        at = error.pos_in_stream or 0
        found = repr(text[at]) if at < len(text) else "?"
        return RuleSyntaxError(
            origin,
            error.line,
            error.column,
            f"unexpected character {found}: expected {_expected(set(error.allowed or ()))}",
        )
    if isinstance(error, UnexpectedEOF):
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
        if text.endswith(("\n", "\r")):
            line, column = len(lines) + 1, 1
        return RuleSyntaxError(
            origin,
            line,
            column,
            f"unexpected end of file: expected {_expected({str(t) for t in error.expected})}",
        )
    assert isinstance(error, UnexpectedToken)
    token = error.token
    if token.type == "$END":
        lines = text.splitlines() or [""]
        return RuleSyntaxError(
            origin,
            len(lines) + text.endswith(("\n", "\r")),
            1 if text.endswith(("\n", "\r")) else len(lines[-1]) + 1,
            f"unexpected end of file: expected {_expected(error.expected)}",
        )
    return RuleSyntaxError(
        origin,
        token.line or 0,
        token.column or 0,
        f"unexpected {str(token)!r}: expected {_expected(error.expected)}",
    )


def _expected(names: set[str] | frozenset[str]) -> str:
    """Terminal names in words, joined with "or"."""
    words = sorted({WHAT.get(name, name) for name in names})
    return " or ".join(words) if words else "nothing more"
