"""Reading S4 rule files: a lark grammar, then checks that name ``file:line:column``.

The grammar is LALR(1) with lark's contextual lexer, so a pattern row, a rule name and a
keyword never get in each other's way. Whitespace of every kind (spaces, tabs, CRLF, blank
lines) separates tokens and is otherwise ignored, as are ``;`` comments to the end of a line.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Final

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..formats import read_bytes
from .errors import RuleSyntaxError
from .syntax import (
    LHS_CHARACTERS,
    SYSTEM_VARIABLES,
    Call,
    Constant,
    DefaultAction,
    Expr,
    Rule,
    Ruleset,
    Symbol,
)

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

MAX_SIDE: Final = 15
"""The widest pattern (15x15): the checker's search and the matcher's padding grow with it."""

MAX_DEPTH: Final = 100
"""The deepest nesting of a condition: evaluating one is a recursion per level."""

MAX_INT_DIGITS: Final = 100
"""The most digits an integer literal may have."""

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

OPERATORS: Final = {
    "=": (2, None),
    "<": (2, None),
    ">": (2, None),
    "<=": (2, None),
    ">=": (2, None),
    "+": (0, None),
    "-": (1, None),
    "*": (0, None),
    "quotient": (2, 2),
    "remainder": (2, 2),
    "and": (0, None),
    "or": (0, None),
    "not": (1, 1),
    "if": (3, 3),
}
"""Each operator's least and greatest number of arguments (``None``: no limit)."""

_WHAT: Final = {
    "LBRACE": "`{` opening a rule",
    "RBRACE": "`}`",
    "LPAR": "`(`",
    "RPAR": "`)`",
    "ARROW": "`=>`",
    "NO_ACTION": "`no-action-pattern`",
    "DEFAULT": "a default action (mark-unknowns, click-unknowns or no-default-action)",
    "NAME": "a rule name",
    "ROW": "a pattern row",
    "INT": "an integer",
    "BOOL": "#t or #f",
    "SYMBOL": "an operator or variable",
    "$END": "the end of the file",
}

_INT_OPS: Final = frozenset({"+", "-", "*", "quotient", "remainder"})
_COMPARE: Final = frozenset({"=", "<", ">", "<=", ">="})
_LOGIC: Final = frozenset({"and", "or", "not"})


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
        tuple(_rule(node, origin) for node in tree.children if isinstance(node, Tree)), origin
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
    words = sorted({_WHAT.get(name, name) for name in names})
    return " or ".join(words) if words else "nothing more"


def _rule(node: Tree[Token], origin: str) -> Rule:
    """One ``rule`` node, checked."""
    parts = node.children
    name = parts[1]
    assert isinstance(name, Token)
    rows = [_row_token(p) for p in parts if isinstance(p, Tree) and p.data == "row"]
    lhs = _pattern(rows, origin, left=True)
    conditions = tuple(
        _condition(p.children[0], set("".join(lhs)), origin)
        for p in parts
        if isinstance(p, Tree) and p.data == "condition"
    )
    rhs_node = next(p for p in parts if isinstance(p, Tree) and p.data == "rhs")
    default = next(p for p in parts if isinstance(p, Token) and p.type == "DEFAULT")
    rhs: tuple[str, ...] | None = None
    first = rhs_node.children[0]
    if isinstance(first, Tree):
        rhs_rows = [_row_token(p) for p in rhs_node.children if isinstance(p, Tree)]
        if len(rhs_rows) > len(lhs):
            extra = rhs_rows[len(lhs)]
            raise RuleSyntaxError(
                origin,
                extra.line or 0,
                extra.column or 0,
                f"unexpected {str(extra)!r}: the right-hand pattern has {len(lhs)} rows like "
                f"the left; expected {_WHAT['DEFAULT']}",
            )
        rhs = _pattern(rhs_rows, origin, left=False, size=len(lhs))
    return Rule(str(name), lhs, conditions, rhs, DefaultAction(str(default)), name.line or 0)


def _row_token(node: Tree[Token]) -> Token:
    token = node.children[0]
    assert isinstance(token, Token)
    return token


def _pattern(
    rows: list[Token], origin: str, *, left: bool, size: int | None = None
) -> tuple[str, ...]:
    """Pattern rows checked: square, odd, and (on the left) made of pattern characters."""
    side = "left" if left else "right"
    width = len(rows[0])
    if max(width, len(rows)) > MAX_SIDE:
        raise RuleSyntaxError(
            origin,
            rows[0].line or 0,
            rows[0].column or 0,
            f"the {side}-hand pattern is {len(rows)}x{width}: at most {MAX_SIDE}x{MAX_SIDE}",
        )
    for row in rows:
        if len(row) != width:
            raise RuleSyntaxError(
                origin,
                row.line or 0,
                row.column or 0,
                f"ragged {side}-hand pattern: this row has {len(row)} squares, the first "
                f"has {width}",
            )
        if left:
            for offset, char in enumerate(str(row)):
                if char not in LHS_CHARACTERS:
                    raise RuleSyntaxError(
                        origin,
                        row.line or 0,
                        (row.column or 0) + offset,
                        f"unknown character {char!r} in a pattern: expected M, 0-9, -, ?, *, | "
                        "or a variable a-z",
                    )
    if size is not None and (len(rows) != size or width != size):
        raise RuleSyntaxError(
            origin,
            rows[0].line or 0,
            rows[0].column or 0,
            f"the right-hand pattern is {len(rows)}x{width}: expected {size}x{size} like the "
            "left-hand one",
        )
    if len(rows) != width:
        raise RuleSyntaxError(
            origin,
            rows[0].line or 0,
            rows[0].column or 0,
            f"the {side}-hand pattern is {len(rows)}x{width}: a pattern must be square",
        )
    if width % 2 == 0:
        raise RuleSyntaxError(
            origin,
            rows[0].line or 0,
            rows[0].column or 0,
            f"the {side}-hand pattern is {width}x{width}: its side must be odd (3, 5, ...)",
        )
    return tuple(str(row) for row in rows)


def _condition(node: Tree[Token] | Token, letters: set[str], origin: str) -> Expr:
    """A condition, checked: known operators and symbols, right arity, a boolean in the end."""
    expr, kind = _expr(node, letters, origin, 1)
    if kind != "bool":
        line, column = _where(node)
        raise RuleSyntaxError(
            origin, line, column, "a condition must be true or false: expected a comparison"
        )
    return expr


def _where(node: Tree[Token] | Token) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.line or 0, node.column or 0
    return node.meta.line, node.meta.column


def _expr(
    node: Tree[Token] | Token, letters: set[str], origin: str, depth: int
) -> tuple[Expr, str]:
    """An expression at nesting ``depth`` and its type (``int``, ``bool``, or ``any`` for an
    ``if`` of both)."""
    line, column = _where(node)
    if isinstance(node, Token):  # pragma: no cover - the grammar wraps every token
        raise RuleSyntaxError(origin, line, column, f"unexpected {str(node)!r}")
    if depth > MAX_DEPTH:
        raise RuleSyntaxError(
            origin, line, column, f"a condition nested more than {MAX_DEPTH} deep"
        )
    if node.data == "integer":
        literal = str(node.children[0])
        digits = len(literal.lstrip("+-"))
        if digits > MAX_INT_DIGITS:
            raise RuleSyntaxError(
                origin,
                line,
                column,
                f"an integer of {digits} digits: at most {MAX_INT_DIGITS}",
            )
        return Constant(int(literal)), "int"
    if node.data == "boolean":
        return Constant(str(node.children[0]) == "#t"), "bool"
    if node.data == "symbol":
        name = str(node.children[0])
        if name in SYSTEM_VARIABLES or (len(name) == 1 and name in letters and name.islower()):
            return Symbol(name), "int"
        if len(name) == 1 and "a" <= name <= "z":
            detail = f"variable {name!r} does not appear in the left-hand pattern"
        else:
            detail = (
                f"unknown symbol {name!r} in a condition: expected a pattern variable "
                "(a-z) or one of " + ", ".join(sorted(SYSTEM_VARIABLES))
            )
        raise RuleSyntaxError(origin, line, column, detail)
    op_token = node.children[1]
    assert isinstance(op_token, Token)
    op = str(op_token)
    if op not in OPERATORS:
        raise RuleSyntaxError(
            origin,
            op_token.line or 0,
            op_token.column or 0,
            f"unknown operator {op!r}: expected one of " + ", ".join(OPERATORS),
        )
    arg_nodes = node.children[2:-1]
    least, most = OPERATORS[op]
    if len(arg_nodes) < least or (most is not None and len(arg_nodes) > most):
        wanted = f"exactly {least}" if least == most else f"at least {least}"
        raise RuleSyntaxError(
            origin,
            line,
            column,
            f"{op!r} takes {wanted} argument(s), not {len(arg_nodes)}",
        )
    args = [_expr(a, letters, origin, depth + 1) for a in arg_nodes]
    expected = (
        ["bool", "any", "any"] if op == "if" else ["bool" if op in _LOGIC else "int"] * len(args)
    )
    for (_, kind), want, arg_node in zip(args, expected, arg_nodes, strict=True):
        if want != "any" and kind not in (want, "any"):
            arg_line, arg_column = _where(arg_node)
            raise RuleSyntaxError(
                origin,
                arg_line,
                arg_column,
                f"{op!r} expects {'a boolean' if want == 'bool' else 'an integer'} here, "
                f"found {'a boolean' if kind == 'bool' else 'an integer'}",
            )
    if op == "if":
        kind = args[1][1] if args[1][1] == args[2][1] else "any"
    elif op in _INT_OPS:
        kind = "int"
    else:
        kind = "bool"
    return Call(op, tuple(e for e, _ in args)), kind
