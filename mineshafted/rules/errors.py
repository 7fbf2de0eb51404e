"""The S4 rule language's errors: a rule file that does not parse names where and why."""

from __future__ import annotations

from ..errors import MineshaftedError

__all__ = ["RuleSyntaxError", "RulesError"]


class RulesError(MineshaftedError, ValueError):
    """Base class of the rule language's errors."""


class RuleSyntaxError(RulesError):
    """A rule file that is not S4: where (``file:line:column``) and what was expected there.

    Examples
    --------
    >>> str(RuleSyntaxError("a.s4", 3, 5, "expected `=>`"))
    'a.s4:3:5: expected `=>`'
    """

    origin: str
    line: int
    column: int
    detail: str

    def __init__(self, origin: str, line: int, column: int, detail: str) -> None:
        self.origin = origin
        self.line = line
        self.column = column
        self.detail = detail
        super().__init__(f"{origin}:{line}:{column}: {detail}")
