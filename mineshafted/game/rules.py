"""Rules: the variants of play a game follows, named presets, and how a game stands.

Glossary
--------
first move
    What the first revealed cell may hold (:class:`FirstMove`).
expansion
    A revealed 0 revealing its neighbours, and so on through the whole zero region.
after a mine
    Whether revealing a mine loses the game or is recorded while play goes on
    (:class:`AfterMine`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, Final, NamedTuple, TypeVar

__all__ = ["LEVELS", "AfterMine", "FirstMove", "GameStatus", "Level", "Rules"]

_E = TypeVar("_E", bound=StrEnum)


class FirstMove(StrEnum):
    """What the first cell revealed may hold."""

    SAFE = "safe"
    """Never a mine: a drawn board is drawn after the first reveal, avoiding that cell; on a
    fixed board a mine under the first reveal is moved elsewhere (seeded)."""
    OPENING = "opening"
    """The first cell and its neighbours are free, so it shows a 0."""
    NONE = "none"
    """No help: the board as it is, as in Mine Shafted and puzzle files."""


class AfterMine(StrEnum):
    """What revealing a mine does."""

    END = "end"
    """The game is lost (classic play)."""
    CONTINUE = "continue"
    """The mine is shown and recorded, and play goes on until every safe cell is revealed
    (the CS440 study)."""


class GameStatus(StrEnum):
    """How a game stands."""

    PLAYING = "playing"
    WON = "won"
    """Every safe cell revealed and no mine ever revealed."""
    LOST = "lost"
    """A mine revealed: at once under :attr:`AfterMine.END`; under :attr:`AfterMine.CONTINUE`
    once every safe cell is revealed."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules a game follows.

    Parameters
    ----------
    first_move:
        What the first revealed cell may hold.
    auto_expand:
        Whether a revealed 0 reveals its neighbours, recursively.
    after_mine:
        Whether a revealed mine ends the game or play continues.
    total_known:
        Whether the player is told how many mines the board holds.

    Examples
    --------
    >>> Rules.CLASSIC == Rules()
    True
    >>> Rules.MINE_SHAFTED.to_json()
    {'first_move': 'none', 'auto_expand': False, 'after_mine': 'end', 'total_known': False}
    >>> Rules.from_json(Rules.CS440.to_json()) == Rules.CS440
    True
    """

    first_move: FirstMove = FirstMove.SAFE
    auto_expand: bool = True
    after_mine: AfterMine = AfterMine.END
    total_known: bool = True

    CLASSIC: ClassVar[Rules]
    """Safe first reveal, zeros expand, a mine loses, the mine total shown."""
    MINE_SHAFTED: ClassVar[Rules]
    """The course's manager: a fixed board as is, no expansion, a mine ends it, no total."""
    CS440: ClassVar[Rules]
    """The CS440 study: safe first reveal, zeros expand, play continues after a mine."""

    def to_json(self) -> dict[str, str | bool]:
        """The rules as a JSON-ready object, keyed by field name."""
        return {
            "first_move": self.first_move.value,
            "auto_expand": self.auto_expand,
            "after_mine": self.after_mine.value,
            "total_known": self.total_known,
        }

    @classmethod
    def from_json(cls, obj: dict[str, object]) -> Rules:
        """The rules written by :meth:`to_json`.

        Raises
        ------
        KeyError
            A field is missing.
        ValueError
            A field holds a value it cannot take; the message names the field.
        """
        first_move = _member(FirstMove, "first_move", obj["first_move"])
        after_mine = _member(AfterMine, "after_mine", obj["after_mine"])
        auto_expand, total_known = obj["auto_expand"], obj["total_known"]
        for name, value in (("auto_expand", auto_expand), ("total_known", total_known)):
            if type(value) is not bool:
                raise ValueError(f"{name}: {value!r} is not true or false")
        return cls(
            first_move,
            auto_expand=auto_expand is True,
            after_mine=after_mine,
            total_known=total_known is True,
        )


# The presets, named once, where the type is: Rules.CLASSIC and its kin.
Rules.CLASSIC = Rules(FirstMove.SAFE, auto_expand=True, after_mine=AfterMine.END, total_known=True)
Rules.MINE_SHAFTED = Rules(
    FirstMove.NONE, auto_expand=False, after_mine=AfterMine.END, total_known=False
)
Rules.CS440 = Rules(
    FirstMove.SAFE, auto_expand=True, after_mine=AfterMine.CONTINUE, total_known=True
)


class Level(NamedTuple):
    """A classic level's board: ``rows`` by ``cols`` with ``mines`` mines."""

    rows: int
    cols: int
    mines: int


LEVELS: Final = {
    "beginner": Level(9, 9, 10),
    "intermediate": Level(16, 16, 40),
    "expert": Level(16, 30, 99),
}
"""The classic levels by name (the live page's, the benchmarks' standard boards)."""


def _member(kind: type[_E], name: str, value: object) -> _E:
    """The member of ``kind`` whose value is ``value``; a ValueError naming ``name`` if none."""
    for member in kind:
        if member.value == value:
            return member
    raise ValueError(f"{name}: {value!r} is not one of {', '.join(kind)}")
