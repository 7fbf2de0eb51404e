"""Kind: what a study is to the runner, and what its games are given to.

A study kind says how many games it has and plays game ``i`` from its own seed and ``i``
alone (:class:`Kind`); a kind whose games are data sends a worker only its chunk's games
(:class:`Parts`). Its finished games go to a :data:`Fold`, one at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from .journal import Line

__all__ = ["Fold", "Kind", "L", "OnGame", "Parts", "Player"]

L = TypeVar("L", bound=Line)
L_co = TypeVar("L_co", bound=Line, covariant=True)


class Player(Protocol[L_co]):
    """What a worker is sent: something that plays game ``i`` of a study."""

    def play(self, index: int) -> L_co:
        """Play game ``index``."""
        ...  # pragma: no cover - protocol


@runtime_checkable
class Parts(Protocol[L_co]):
    """A kind whose games are data (the boards of a file): a worker is sent only its chunk's
    games, not the whole study, so that the study is read as it is played, in bounded memory,
    and a worker needs nothing but what it is sent."""

    def part(self, indices: Sequence[int]) -> Player[L_co]:
        """The games ``indices`` (ascending), ready to send; the runner asks for them in
        order, as it starts them."""
        ...  # pragma: no cover - protocol


class Kind(Protocol[L_co]):
    """A kind of study: ``count`` games, game ``i`` played from the study and ``i`` alone.

    A kind must pickle (it is sent to worker processes) and play the same game for the same
    index wherever it runs; one with :class:`Parts` sends its parts instead.
    """

    @property
    def count(self) -> int:
        """How many games the study has (indices ``0 .. count - 1``); the runner starts them
        in index order, so a kind puts its costliest games first."""
        ...  # pragma: no cover - protocol

    @property
    def key(self) -> dict[str, Any]:
        """What fixes every game, as JSON: a results file must match it to be resumed."""
        ...  # pragma: no cover - protocol

    def check(self) -> None:
        """Raise if the study cannot be played (before any game is)."""
        ...  # pragma: no cover - protocol

    def play(self, index: int) -> L_co:
        """Play game ``index``."""
        ...  # pragma: no cover - protocol

    def read(self, data: Any) -> L_co:
        """A game line back from its JSON in the results file (``ValueError`` if it is not)."""
        ...  # pragma: no cover - protocol


OnGame = Callable[[L, int], None]
"""Called in the calling process after each finished game, with how many are done so far."""

Fold = Callable[[L], object]
"""Given every game of a study once: those resumed from its results file, then each game as
it finishes (in the order games finish, not by index)."""
