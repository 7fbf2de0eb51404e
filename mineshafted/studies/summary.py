"""Summary: how a study of many games came out, with a 95% Wilson interval on the win rate;
its fold, kept up to date as the games arrive."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from math import sqrt

from ..game import GameStatus
from .classic import GameLine
from .moments import ExactSum

__all__ = ["Summary", "SummaryFold", "summarise", "wilson"]

Z95 = 1.959963984540054
"""The standard normal quantile of 0.975: a two-sided 95% interval."""


@dataclass(frozen=True)
class Summary:
    """Wins, win rate with its 95% interval, guesses and time, over the games played."""

    games: int
    wins: int
    guesses: int
    """Guesses over all games."""
    seconds: float
    """Time over all games (each game's own wall-clock time, summed)."""

    @property
    def win_rate(self) -> float:
        """Wins over games (0 when no game was played)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% Wilson score interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def guesses_per_game(self) -> float:
        """Mean guesses per game."""
        return self.guesses / self.games if self.games else 0.0

    @property
    def seconds_per_game(self) -> float:
        """Mean time per game."""
        return self.seconds / self.games if self.games else 0.0

    def text(self) -> str:
        """One line for people.

        Examples
        --------
        >>> print(Summary(games=200, wins=80, guesses=300, seconds=2.0).text())
        80/200 won: 40.00% (95% CI 33.46%-46.92%); 1.50 guesses and 10.0 ms per game
        """
        low, high = self.ci95
        return (
            f"{self.wins}/{self.games} won: {self.win_rate:.2%} (95% CI {low:.2%}-{high:.2%}); "
            f"{self.guesses_per_game:.2f} guesses and {self.seconds_per_game * 1000:.1f} ms "
            "per game"
        )


class SummaryFold:
    """A :class:`Summary` kept up to date as games arrive, in any order: a study's ``fold``.

    Examples
    --------
    >>> fold = SummaryFold()
    >>> fold.add(GameLine(1, 6, GameStatus.LOST, 2, 0.25))
    >>> fold.add(GameLine(0, 5, GameStatus.WON, 1, 0.5))
    >>> fold.summary()
    Summary(games=2, wins=1, guesses=3, seconds=0.75)

    Notes
    -----
    ``O(1)`` time and memory per game. The times are added exactly
    (:class:`~mineshafted.studies.moments.ExactSum`) and rounded once, so the total does not
    depend on the order the games came in.
    """

    __slots__ = ("_games", "_guesses", "_seconds", "_wins")

    def __init__(self) -> None:
        self._games = self._wins = self._guesses = 0
        self._seconds = ExactSum()

    def add(self, line: GameLine) -> None:
        """Count one finished game."""
        self._games += 1
        self._wins += line.outcome is GameStatus.WON
        self._guesses += line.guesses
        self._seconds.add(line.seconds)

    def summary(self) -> Summary:
        """The games counted so far."""
        return Summary(self._games, self._wins, self._guesses, self._seconds.value())


def summarise(lines: Iterable[GameLine]) -> Summary:
    """Add up finished games (:class:`SummaryFold`).

    Examples
    --------
    >>> won, lost = GameStatus.WON, GameStatus.LOST
    >>> summarise([GameLine(0, 5, won, 1, 0.5), GameLine(1, 6, lost, 2, 0.25)])
    Summary(games=2, wins=1, guesses=3, seconds=0.75)

    Notes
    -----
    One pass over ``lines``: ``O(1)`` memory per game.
    """
    fold = SummaryFold()
    for line in lines:
        fold.add(line)
    return fold.summary()


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` successes in ``games`` trials.

    Parameters
    ----------
    wins, games:
        Successes and trials; ``(0.0, 1.0)`` when there are no trials.
    z:
        The normal quantile (default: 95% two-sided).

    Examples
    --------
    >>> [round(x, 3) for x in wilson(40, 100)]
    [0.309, 0.498]
    >>> wilson(0, 0)
    (0.0, 1.0)

    Notes
    -----
    Centre ``(p + z²/2n) / (1 + z²/n)``, half-width ``z sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)``:
    unlike ``p ± z sqrt(p(1-p)/n)`` it stays inside [0, 1] and is honest near 0 and 1.
    """
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    scale = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / scale
    half = z * sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / scale
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return (low, high)
