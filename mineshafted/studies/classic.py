"""Classic: the study kind of ``mineshafted play``, many classic games of one size and policy.

Game ``i`` is drawn from the base seed and ``i`` alone (:func:`game_seed`) and played to its
end by :func:`~mineshafted.probability.play_game`. The boards of a file are the other source
of classic games (:mod:`.boards`); both kinds give :class:`GameLine` s made by
:func:`play_one`.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Any, Protocol

from ..game import FirstMove, GameStatus
from ..probability import (
    Played,
    PolicyName,
    check_game,
    play_game,
    policy_named,
    start_cell,
)
from .errors import StudyError

__all__ = ["ClassicGames", "GameLine", "Study", "check_policy", "game_seed", "play_one"]


class ClassicGames(Protocol):
    """A source of classic games, game ``i`` played whole: drawn (:class:`Study`) or read from
    a file (:class:`~mineshafted.studies.boards.BoardsStudy`)."""

    def game(self, index: int, *, record_odds: bool = False, flag: bool = False) -> Played:
        """Game ``index`` played to its end (``record_odds`` and ``flag`` as
        :func:`~mineshafted.probability.play_game` takes them)."""
        ...  # pragma: no cover - protocol


@dataclass(frozen=True)
class Study:
    """``games`` games on a ``rows`` x ``cols`` board with ``mines`` mines, all alike.

    A study kind of :func:`~mineshafted.studies.run_study`.

    Examples
    --------
    >>> from mineshafted.studies import run_study
    >>> study, lines = Study(9, 9, 10, games=3, seed=1), []
    >>> run_study(study, fold=lines.append).games
    3
    >>> [line.outcome.value for line in lines]
    ['won', 'won', 'won']
    """

    rows: int
    cols: int
    mines: int
    games: int = 1
    seed: int = 0
    """The base seed: game ``i`` is played from :func:`game_seed` of it and ``i``."""
    first: FirstMove = FirstMove.SAFE
    start: str = "corner"
    """``corner``, ``centre`` or ``R,C``."""
    policy: str = PolicyName.BEST.value
    """A name :func:`~mineshafted.probability.policy_named` knows."""

    @property
    def count(self) -> int:
        """How many games: :attr:`games`."""
        return self.games

    @property
    def key(self) -> dict[str, Any]:
        """What a results file must match to be resumed by this study (not the number of
        games: a study can be resumed with more)."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "first": self.first.value,
            "start": self.start,
            "policy": self.policy,
            "seed": self.seed,
        }

    def check(self) -> None:
        """Refuse a study that cannot be played.

        Raises
        ------
        InvalidBoardError
            No cells, or the mines do not fit.
        IllegalMoveError
            The start is off the board.
        StudyError
            Fewer than 0 games, or no policy has that name.
        """
        if self.games < 0:
            raise StudyError(f"games must be 0 or more, not {self.games}")
        check_policy(self.policy)
        cell = start_cell(self.start, self.rows, self.cols)
        check_game(self.rows, self.cols, self.mines, first=self.first, start=cell)

    def game(self, index: int, *, record_odds: bool = False, flag: bool = False) -> Played:
        """Game ``index``, drawn from :func:`game_seed` of the base seed and ``index``, played
        to its end (``record_odds`` and ``flag`` as :func:`~mineshafted.probability.play_game`
        takes them)."""
        return play_game(
            self.rows,
            self.cols,
            self.mines,
            seed=game_seed(self.seed, index),
            first=self.first,
            start=self.start,
            policy=self.policy,
            record_odds=record_odds,
            flag=flag,
        )

    def play(self, index: int) -> GameLine:
        """Play game ``index`` (:func:`play_one`)."""
        return play_one(self, index)

    def read(self, data: Any) -> GameLine:
        """A line of this study's results file (:meth:`GameLine.from_json`)."""
        return GameLine.from_json(data)


@dataclass(frozen=True)
class GameLine:
    """One finished game of a classic study."""

    index: int
    """The game's number in the study, from 0."""
    seed: int
    """The game's own seed (from the base seed and the index)."""
    outcome: GameStatus
    guesses: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The line as JSON-ready data.

        Examples
        --------
        >>> GameLine(3, 99, GameStatus.WON, 1, 0.01234567).to_json()
        {'index': 3, 'seed': 99, 'outcome': 'won', 'guesses': 1, 'seconds': 0.012346}
        """
        return {
            "index": self.index,
            "seed": self.seed,
            "outcome": self.outcome.value,
            "guesses": self.guesses,
            "seconds": round(self.seconds, 6),
        }

    @classmethod
    def from_json(cls, obj: Any) -> GameLine:
        """The line :meth:`to_json` wrote.

        Raises
        ------
        ValueError
            A field is missing or holds the wrong kind of value.
        """
        if not isinstance(obj, dict):
            raise ValueError("not a JSON object")
        for name in ("index", "seed", "guesses"):
            if type(obj.get(name)) is not int:
                raise ValueError(f"{name}: {obj.get(name)!r} is not an integer")
        seconds = obj.get("seconds")
        if not isinstance(seconds, int | float) or isinstance(seconds, bool):
            raise ValueError(f"seconds: {seconds!r} is not a number")
        if not math.isfinite(seconds):  # JSON's NaN and Infinity: no time to add up
            raise ValueError(f"seconds: {seconds!r} is not a finite number")
        outcomes = {status.value: status for status in (GameStatus.WON, GameStatus.LOST)}
        outcome = outcomes.get(obj.get("outcome"))  # type: ignore[arg-type]
        if outcome is None:
            raise ValueError(f"outcome: {obj.get('outcome')!r} is not won or lost")
        return cls(obj["index"], obj["seed"], outcome, obj["guesses"], float(seconds))


def game_seed(base: int, index: int) -> int:
    """The seed of game ``index`` of a study with base seed ``base``: a 63-bit hash of both.

    Examples
    --------
    >>> game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
    True
    """
    digest = hashlib.blake2b(f"mineshafted:{base}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def play_one(study: ClassicGames, index: int) -> GameLine:
    """Play game ``index`` of ``study``: its line."""
    played = study.game(index)
    outcome = GameStatus.WON if played.won else GameStatus.LOST
    return GameLine(index, played.seed, outcome, len(played.guesses), played.seconds)


def check_policy(name: str) -> str:
    """Refuse a policy name :func:`~mineshafted.probability.policy_named` does not know; the
    policy's own name for a known one (its ingredients in their usual order).

    Raises
    ------
    StudyError
        No policy has that name.

    Examples
    --------
    >>> check_policy("best-fifty-endgame")
    'best-endgame-fifty'
    """
    try:
        return policy_named(name).name
    except ValueError as error:
        raise StudyError(str(error)) from None
