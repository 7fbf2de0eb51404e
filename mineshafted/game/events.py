"""Events: what happens in a game, one object a move, as a record keeps them.

The player's actions are :class:`Reveal`, :class:`Flag` and :class:`Unflag`; :class:`MineHit`
and :class:`Outcome` follow from them. Every event may carry a ``reason`` (who or what decided
it) and a small JSON ``detail`` object, for replays. Their file form is :mod:`.record`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..board import MINE, Cell
from .rules import GameStatus

__all__ = ["Detail", "Event", "Flag", "MineHit", "Outcome", "Reveal", "Unflag"]

Detail = dict[str, Any]
"""A small JSON object attached to an event."""


@dataclass(frozen=True, kw_only=True, slots=True)
class _Event:
    """What every event carries besides its own fields.

    Every event is a frozen dataclass with slots: a game makes one a move, and an instance
    without a dictionary is one object for the garbage collector to look at, not two.
    """

    kind: ClassVar[str]
    reason: str | None = None
    detail: Detail | None = None


@dataclass(frozen=True, slots=True)
class Reveal(_Event):
    """The player revealed ``cell``; ``revealed`` lists each cell shown and its value, in order.

    The revealed cell comes first, then the cells expansion opened. ``guess`` marks a reveal
    the player knew might be a mine, with the mine ``probability`` when they gave one.
    """

    kind: ClassVar[str] = "reveal"
    cell: Cell
    revealed: tuple[tuple[Cell, int], ...]
    guess: bool = False
    probability: float | None = None

    @property
    def hit(self) -> bool:
        """Whether this reveal showed a mine."""
        return any(value == MINE for _, value in self.revealed)


@dataclass(frozen=True, slots=True)
class Flag(_Event):
    """The player flagged ``cell`` as a mine."""

    kind: ClassVar[str] = "flag"
    cell: Cell


@dataclass(frozen=True, slots=True)
class Unflag(_Event):
    """The player took the flag off ``cell``."""

    kind: ClassVar[str] = "unflag"
    cell: Cell


@dataclass(frozen=True, slots=True)
class MineHit(_Event):
    """The reveal just before showed the mine at ``cell``."""

    kind: ClassVar[str] = "mine"
    cell: Cell


@dataclass(frozen=True, slots=True)
class Outcome(_Event):
    """The game ended: ``status`` is won or lost, ``mines`` every mine, ascending."""

    kind: ClassVar[str] = "outcome"
    status: GameStatus
    mines: tuple[Cell, ...]


Event = Reveal | Flag | Unflag | MineHit | Outcome
"""Any event of a record."""

# The game makes an event a move. A frozen dataclass's __init__ sets each field through
# object.__setattr__ (its own refusal stands in the way of plain assignment); _reveal and
# _flag set each through its slot's descriptor instead, the step object.__setattr__ ends in,
# at less than half the cost. Tested equal to the constructors'.
_new = object.__new__


def _slot(kind: type, name: str) -> Callable[[object, object], None]:
    """What sets field ``name`` of a ``kind``: its slot's descriptor's ``__set__``."""
    setter: Callable[[object, object], None] = vars(kind)[name].__set__
    return setter


_cell, _revealed = _slot(Reveal, "cell"), _slot(Reveal, "revealed")
_guess, _probability = _slot(Reveal, "guess"), _slot(Reveal, "probability")
_reason, _detail = _slot(_Event, "reason"), _slot(_Event, "detail")
_flag_cell = _slot(Flag, "cell")


def _reveal(
    cell: Cell,
    revealed: tuple[tuple[Cell, int], ...],
    guess: bool,
    probability: float | None,
    reason: str | None,
    detail: Detail | None,
) -> Reveal:
    """``Reveal(cell, revealed, guess, probability, reason=reason, detail=detail)``."""
    event = _new(Reveal)
    _cell(event, cell)
    _revealed(event, revealed)
    _guess(event, guess)
    _probability(event, probability)
    _reason(event, reason)
    _detail(event, detail)
    return event


def _flag(cell: Cell, reason: str | None, detail: Detail | None) -> Flag:
    """``Flag(cell, reason=reason, detail=detail)``."""
    event = _new(Flag)
    _flag_cell(event, cell)
    _reason(event, reason)
    _detail(event, detail)
    return event
