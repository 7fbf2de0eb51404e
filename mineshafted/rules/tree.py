"""From lark's parse tree to the syntax (:mod:`.syntax`): each rule, its patterns and its
conditions checked against the language and the bounds, every refusal naming
``file:line:column``."""

from __future__ import annotations

from typing import Final

from lark import Token, Tree

from .errors import RuleSyntaxError
from .syntax import (
    LHS_CHARACTERS,
    SYSTEM_VARIABLES,
    Call,
    Constant,
    DefaultAction,
    Expr,
    Rule,
    Symbol,
)

__all__ = ["MAX_DEPTH", "MAX_INT_DIGITS", "MAX_SIDE", "OPERATORS", "WHAT", "rule_of"]

MAX_SIDE: Final = 15
"""The widest pattern (15x15): the checker's search and the matcher's padding grow with it."""

MAX_DEPTH: Final = 100
"""The deepest nesting of a condition: evaluating one is a recursion per level."""

MAX_INT_DIGITS: Final = 100
"""The most digits an integer literal may have."""

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

WHAT: Final = {
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
"""Each token of the grammar as a message names it."""

_INT_OPS: Final = frozenset({"+", "-", "*", "quotient", "remainder"})
_COMPARE: Final = frozenset({"=", "<", ">", "<=", ">="})
_LOGIC: Final = frozenset({"and", "or", "not"})


def rule_of(node: Tree[Token], origin: str) -> Rule:
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
                f"the left; expected {WHAT['DEFAULT']}",
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
