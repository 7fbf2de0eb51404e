"""The syntax tree of an S4 rule file: rules, their patterns, conditions and actions.

Glossary
--------
pattern
    An n-by-n square of characters (n odd) laid over the board, centred on a cell.
window
    The board squares a pattern covers around one square; ``|`` stands for squares over the edge.
condition
    A Scheme-like expression over the pattern's variables and the system's; all must hold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

__all__ = [
    "LHS_CHARACTERS",
    "SYSTEM_VARIABLES",
    "Call",
    "Constant",
    "DefaultAction",
    "Expr",
    "Rule",
    "Ruleset",
    "Symbol",
    "SystemVariable",
    "symbols",
]

LHS_CHARACTERS = frozenset("M0123456789-?*|abcdefghijklmnopqrstuvwxyz")
"""The characters a left-hand pattern may hold."""


class DefaultAction(StrEnum):
    """What a rule does to the unknown squares its wildcards (``*``) matched."""

    MARK = "mark-unknowns"
    CLICK = "click-unknowns"
    NONE = "no-default-action"


class SystemVariable(StrEnum):
    """The variables the system gives every condition."""

    MATCHED_UNKNOWNS = "matched-unkns"
    """Unknown squares matched by the wildcards."""
    MATCHED_MINES = "matched-mines"
    """Marked squares matched by the wildcards."""
    MINES_REMAINING = "total-mines-remaining"
    """Mines not yet marked, anywhere on the board."""
    SAFE_REMAINING = "total-non-mines-remaining"
    """Unknown squares that are not mines, anywhere on the board."""


SYSTEM_VARIABLES = frozenset(SystemVariable)
"""Every system variable."""


@dataclass(frozen=True, slots=True)
class Constant:
    """An integer or a boolean (``#t``, ``#f``)."""

    value: int | bool


@dataclass(frozen=True, slots=True)
class Symbol:
    """A pattern variable (``a``-``z``) or a system variable, by name."""

    name: str


@dataclass(frozen=True, slots=True)
class Call:
    """An operator applied to its arguments: ``(op arg ...)``."""

    op: str
    args: tuple[Expr, ...]


Expr = Constant | Symbol | Call
"""A condition or a part of one."""


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: a left-hand pattern and conditions, a right-hand pattern and a default action.

    Examples
    --------
    >>> rule = Rule("r", ("?--", "-1-", "---"), (), None, DefaultAction.NONE)
    >>> rule.size, rule.radius, rule.uses_totals
    (3, 1, False)
    """

    name: str
    lhs: tuple[str, ...]
    """The left-hand pattern, one string per row."""
    conditions: tuple[Expr, ...]
    rhs: tuple[str, ...] | None
    """The right-hand pattern, or ``None`` for ``no-action-pattern``."""
    default: DefaultAction
    line: int = field(default=0, compare=False)
    """The line of the file the rule opens on (not part of what the rule means)."""

    @property
    def size(self) -> int:
        """The pattern's side, n."""
        return len(self.lhs)

    @property
    def radius(self) -> int:
        """How far the pattern reaches from its centre: ``n // 2``."""
        return len(self.lhs) // 2

    @property
    def uses_totals(self) -> bool:
        """Whether a condition reads a board-wide total (so any move may change its verdict)."""
        totals = {SystemVariable.MINES_REMAINING.value, SystemVariable.SAFE_REMAINING.value}
        return any(name in totals for c in self.conditions for name in symbols(c))


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules of one file, in order."""

    rules: tuple[Rule, ...]
    origin: str = "<rules>"


def symbols(expr: Expr) -> set[str]:
    """Every symbol ``expr`` reads.

    Examples
    --------
    >>> sorted(symbols(Call("=", (Symbol("n"), Symbol("matched-unkns")))))
    ['matched-unkns', 'n']
    """
    if isinstance(expr, Symbol):
        return {expr.name}
    if isinstance(expr, Call):
        return set().union(*(symbols(a) for a in expr.args)) if expr.args else set()
    return set()
