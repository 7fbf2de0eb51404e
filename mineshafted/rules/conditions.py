"""Evaluating conditions: a small evaluator of the S4 expression language, never Python's eval.

Two modes: :func:`evaluate` with every variable known, and :func:`evaluate_partly` where some
variables are :data:`INDETERMINATE` (the checker's board-wide totals); the latter is three-valued
(``and`` with a false argument is false whatever the rest).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Final

from .syntax import Call, Constant, Expr, Symbol

__all__ = [
    "INDETERMINATE",
    "MAX_BITS",
    "Indeterminate",
    "Value",
    "evaluate",
    "evaluate_partly",
    "holds",
]

MAX_BITS: Final = 4096
"""The largest integer a condition may compute (in bits): a result past it raises
``OverflowError``, which makes the condition false, as a division by zero does. Without it
a condition of a few hundred bytes (squares nested a hundred deep) would never finish."""


class Indeterminate(Enum):
    """A value the checker does not know."""

    INDETERMINATE = "indeterminate"


INDETERMINATE: Final = Indeterminate.INDETERMINATE
"""The one indeterminate value: the third truth value."""

Value = int | bool
"""What an expression evaluates to (``bool`` is a subclass of ``int`` in Python: the parser's
type check keeps them apart)."""


def evaluate(expr: Expr, env: Mapping[str, int]) -> Value:
    """The value of ``expr`` with the variables in ``env``.

    Raises
    ------
    ZeroDivisionError
        ``quotient`` or ``remainder`` by zero.
    OverflowError
        A sum, difference or product past :data:`MAX_BITS`.

    Examples
    --------
    >>> from mineshafted.rules.parser import parse_rules
    >>> rule = parse_rules("{r *** *n* *** (= (quotient (- n 7) 2) -3) => no-action-pattern "
    ...                    "no-default-action }").rules[0]
    >>> evaluate(rule.conditions[0], {"n": 1})
    True
    """
    result = evaluate_partly(expr, env)
    assert not isinstance(result, Indeterminate)
    return result


def holds(conditions: tuple[Expr, ...], env: Mapping[str, int]) -> bool:
    """Whether every condition is true; a division by zero or an overflow (past
    :data:`MAX_BITS`) makes a condition false."""
    try:
        return all(evaluate(c, env) is True for c in conditions)
    except (ZeroDivisionError, OverflowError):
        return False


def evaluate_partly(expr: Expr, env: Mapping[str, int | Indeterminate]) -> Value | Indeterminate:
    """The value of ``expr``, or :data:`INDETERMINATE` when it depends on an unknown variable.

    Examples
    --------
    >>> from mineshafted.rules.syntax import Call, Constant, Symbol
    >>> x = Symbol("total-mines-remaining")
    >>> test = Call("=", (x, Constant(1)))
    >>> evaluate_partly(Call("and", (Constant(False), test)), {x.name: INDETERMINATE})
    False
    >>> evaluate_partly(Call("=", (x, Constant(1))), {x.name: INDETERMINATE})
    <Indeterminate.INDETERMINATE: 'indeterminate'>

    Notes
    -----
    One pass over the expression: ``O(size)``.
    """
    if isinstance(expr, Constant):
        return expr.value
    if isinstance(expr, Symbol):
        return env[expr.name]
    return _call(expr, env)


def _call(expr: Call, env: Mapping[str, int | Indeterminate]) -> Value | Indeterminate:
    """An operator applied, in three-valued logic."""
    op = expr.op
    if op == "if":
        test = evaluate_partly(expr.args[0], env)
        if test is INDETERMINATE:
            then, other = (evaluate_partly(a, env) for a in expr.args[1:])
            return then if then == other and then is not INDETERMINATE else INDETERMINATE
        return evaluate_partly(expr.args[1 if test else 2], env)
    if op in ("and", "or"):
        stop = op == "or"
        unknown = False
        for arg in expr.args:
            value = evaluate_partly(arg, env)
            if value is INDETERMINATE:
                unknown = True
            elif bool(value) is stop:
                return stop
        return INDETERMINATE if unknown else not stop
    values = [evaluate_partly(a, env) for a in expr.args]
    if any(v is INDETERMINATE for v in values):
        return INDETERMINATE
    numbers = [int(v) for v in values if not isinstance(v, Indeterminate)]
    if op == "not":
        return not numbers[0]
    if op in _COMPARE:
        compare = _COMPARE[op]
        return all(compare(a, b) for a, b in itertools.pairwise(numbers))
    if op == "+":
        return _bounded(sum(numbers), op)
    if op == "*":
        product = 1
        for n in numbers:
            product = _bounded(product * n, op)
        return product
    if op == "-":
        return _bounded(-numbers[0] if len(numbers) == 1 else numbers[0] - sum(numbers[1:]), op)
    a, b = numbers
    if b == 0:
        raise ZeroDivisionError(f"({op} {a} 0)")
    quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
    return quotient if op == "quotient" else a - b * quotient


def _bounded(value: int, op: str) -> int:
    """``value``, unless it is past :data:`MAX_BITS` (then ``OverflowError``)."""
    if value.bit_length() > MAX_BITS:
        raise OverflowError(f"({op} ...) is larger than {MAX_BITS} bits")
    return value


_COMPARE: Final[dict[str, Callable[[int, int], bool]]] = {
    "=": lambda a, b: a == b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
}
