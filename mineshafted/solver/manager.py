"""Manager: the Mine Shafted interface, all a sweep may use of a board manager.

A protocol, at the foot of the solver: the plain sweep (:mod:`.plain`), the fast one
(:mod:`.sweep`) and the trace (:mod:`.trace`) all play through it, and
:class:`~mineshafted.game.BoardManager` (or the course's own manager) is one.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["Manager"]


class Manager(Protocol):
    """The Mine Shafted interface: all a sweep may use of a board manager."""

    size: tuple[int, int]

    def move(self, index: int) -> int: ...  # pragma: no cover - protocol

    def get_adjacent(self, index: int) -> list[int]: ...  # pragma: no cover - protocol
