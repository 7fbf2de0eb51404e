"""Deadline: the moment a board's (or a rule's) time is up, looked at every few steps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = ["Deadline", "OutOfTime"]


class OutOfTime(Exception):
    """The time is up: raised from inside matching (a board's play,
    :func:`~mineshafted.rules.interpreter.play`) or a search (a rule's check,
    :func:`~mineshafted.rules.checker.check_rule`), and caught where it began."""


class Deadline:
    """The moment a board's time is up, looked at every few matches (a clock read costs)."""

    EVERY: Final = 64
    """Matches between looks at the clock."""

    def __init__(self, clock: Callable[[], float], at: float) -> None:
        self.clock = clock
        self.at = at
        self.calls = 0

    def check(self) -> None:
        """Raise :class:`OutOfTime` if the time is up."""
        if self.clock() > self.at:
            raise OutOfTime

    def tick(self) -> None:
        """Count one match; look at the clock every :attr:`EVERY` of them."""
        self.calls += 1
        if self.calls % self.EVERY == 0:
            self.check()
