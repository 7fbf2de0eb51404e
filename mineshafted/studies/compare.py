"""Compare: two players' results on the same games, paired game by game.

Two results files of the same games (the same boards file, or the same size, first move, start
and seed) are paired by game index. Only the games one player won and the other lost tell them
apart: the difference of win rates is their balance, with Newcombe's interval for paired
proportions, and McNemar's exact test asks whether the balance could be chance.

Glossary
--------
paired
    Both players played game ``i`` on the same board from the same first reveal.
discordant
    A game one player won and the other lost.
results file
    One JSON line per game with at least ``index`` and ``outcome`` (``won`` or ``lost``),
    after an optional first line ``{"study": {...}}``: what ``play --out`` writes, and what
    another program's harness can write.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from math import exp, lgamma, log, sqrt
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..formats import read_lines
from .errors import JournalError, StudyError
from .summary import wilson

__all__ = ["Paired", "Results", "compare", "mcnemar", "newcombe", "pair", "read_results"]


@dataclass(frozen=True)
class Paired:
    """Two players on the same games: how many each won, alone or together.

    Examples
    --------
    >>> p = Paired(both=59, first_only=6, second_only=16, neither=80)
    >>> p.games, p.first_wins, p.second_wins, round(p.difference, 4)
    (161, 65, 75, -0.0621)
    >>> [round(x, 4) for x in p.ci95], round(p.p_value, 6)
    ([-0.1186, -0.0046], 0.052479)
    """

    both: int
    """Games both won."""
    first_only: int
    """Games the first won and the second lost."""
    second_only: int
    """Games the second won and the first lost."""
    neither: int
    """Games both lost."""

    @property
    def games(self) -> int:
        """Games both played."""
        return self.both + self.first_only + self.second_only + self.neither

    @property
    def first_wins(self) -> int:
        """The first player's wins."""
        return self.both + self.first_only

    @property
    def second_wins(self) -> int:
        """The second player's wins."""
        return self.both + self.second_only

    @property
    def difference(self) -> float:
        """The first's win rate less the second's (0 without games)."""
        return (self.first_only - self.second_only) / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% interval of :attr:`difference` (:func:`newcombe`)."""
        return newcombe(self.both, self.first_only, self.second_only, self.neither)

    @property
    def p_value(self) -> float:
        """McNemar's exact two-sided p-value that neither player wins more (:func:`mcnemar`)."""
        return mcnemar(self.first_only, self.second_only)

    def text(self, first: str = "first", second: str = "second") -> str:
        """One line for people.

        Examples
        --------
        >>> print(Paired(59, 6, 16, 80).text("A", "B"))
        161 games: A won 65 (40.37%), B 75 (46.58%); A - B = -6.21 points (95% CI -11.86 to \
-0.46); only A won 6, only B 16: McNemar p = 0.0525
        """
        low, high = self.ci95
        games = max(self.games, 1)
        return (
            f"{self.games} games: {first} won {self.first_wins} "
            f"({self.first_wins / games:.2%}), {second} {self.second_wins} "
            f"({self.second_wins / games:.2%}); {first} - {second} = "
            f"{self.difference * 100:+.2f} points (95% CI {low * 100:+.2f} to "
            f"{high * 100:+.2f}); only {first} won {self.first_only}, only {second} "
            f"{self.second_only}: McNemar p = {self.p_value:.3g}"
        )


def pair(first: Mapping[int, bool], second: Mapping[int, bool]) -> Paired:
    """The games both played (by index), counted by who won them.

    Parameters
    ----------
    first, second:
        Whether each player won each game, by the game's index.

    Examples
    --------
    >>> pair({0: True, 1: True, 2: False, 3: True}, {0: True, 1: False, 2: False})
    Paired(both=1, first_only=1, second_only=0, neither=1)
    """
    counts = [0, 0, 0, 0]
    for index in first.keys() & second.keys():
        counts[2 * (not first[index]) + (not second[index])] += 1
    return Paired(*counts)


def newcombe(both: int, first_only: int, second_only: int, neither: int) -> tuple[float, float]:
    """The 95% interval of the difference of two paired win rates: Newcombe's square-and-add.

    Examples
    --------
    >>> [round(x, 4) for x in newcombe(59, 6, 16, 80)]
    [-0.1186, -0.0046]
    >>> newcombe(0, 0, 0, 0)
    (-1.0, 1.0)

    Notes
    -----
    Newcombe (1998), method 10, as Fagerland, Lydersen and Laake recommend it (2014): the
    Wilson intervals ``(l1, u1)``, ``(l2, u2)`` of the two win rates ``p1``, ``p2`` are
    combined with the correlation ``phi`` of the paired outcomes (``ad - bc`` less ``n/2``
    when above it, 0 up to it), as
    ``d - sqrt((p1-l1)² - 2 phi (p1-l1)(u2-p2) + (u2-p2)²)`` to
    ``d + sqrt((u1-p1)² - 2 phi (u1-p1)(p2-l2) + (p2-l2)²)``. It stays within [-1, 1] and
    keeps its coverage near 0 and 1 and for few discordant games. ``O(1)``.
    """
    n = both + first_only + second_only + neither
    if n == 0:
        return (-1.0, 1.0)
    p1, p2 = (both + first_only) / n, (both + second_only) / n
    l1, u1 = wilson(both + first_only, n)
    l2, u2 = wilson(both + second_only, n)
    margins = (
        (both + first_only)
        * (second_only + neither)
        * (both + second_only)
        * (first_only + neither)
    )
    a = both * neither - first_only * second_only
    phi = 0.0
    if margins:
        phi = (a - n / 2 if a > n / 2 else min(a, 0)) / sqrt(margins)
    d = p1 - p2
    low = d - sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    high = d + sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return (max(-1.0, low), min(1.0, high))


def mcnemar(first_only: int, second_only: int) -> float:
    """McNemar's exact test: the two-sided p-value that each discordant game is as likely to
    go either way.

    Examples
    --------
    >>> round(mcnemar(6, 16), 6), mcnemar(0, 0), mcnemar(5, 5)
    (0.052479, 1.0, 1.0)

    Notes
    -----
    Twice the binomial tail ``P(X <= min(b, c))`` for ``X ~ Bin(b + c, 1/2)``, at most 1: its
    terms summed from the largest down, each from the last by ``C(n, i-1) = C(n, i) i /
    (n - i + 1)``, until they no longer change the sum. At most ``min(b, c) + 1`` terms, and
    far fewer once ``b`` and ``c`` differ by more than a few standard deviations.
    """
    if first_only == second_only:
        return 1.0
    n, k = first_only + second_only, min(first_only, second_only)
    term = exp(lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) - n * log(2))
    tail = 0.0
    for i in range(k, -1, -1):
        tail += term
        if term <= tail * 1e-17:
            break
        term *= i / (n - i + 1)
    return min(1.0, 2 * tail)


@dataclass(frozen=True)
class Results:
    """A results file, read: its study (if its first line names one) and each game's outcome."""

    path: Path
    study: dict[str, Any] | None
    """What fixes its games (``play --out``'s first line), or ``None`` if it does not say."""
    won: dict[int, bool]
    """Whether each game was won, by index."""


def read_results(path: str | Path) -> Results:
    """The results file at ``path`` (``play --out``'s, or another program's in that form).

    Raises
    ------
    JournalError
        The file cannot be read, a line is not a JSON object with an integer ``index`` of 0
        or more and an ``outcome`` of ``won`` or ``lost``, or a game comes twice. The message
        names the file and the line.

    Notes
    -----
    Read a line at a time: ``O(games)`` memory for the outcomes, whatever else a line holds.
    """
    where = Path(path)
    study: dict[str, Any] | None = None
    won: dict[int, bool] = {}
    first_line: dict[int, int] = {}
    try:
        for number, text in read_lines(where):
            if not text.strip():
                continue
            try:
                value = json.loads(text)
            except (ValueError, RecursionError):
                raise JournalError("not JSON", path=where, line=number) from None
            if number == 1 and isinstance(value, dict) and isinstance(value.get("study"), dict):
                study = value["study"]
                continue
            index, outcome = _game(value, where, number)
            if index in won:
                raise JournalError(
                    f"game {index} again (first on line {first_line[index]})",
                    path=where,
                    line=number,
                )
            won[index], first_line[index] = outcome, number
    except InputError as error:
        raise JournalError(str(error).removeprefix(f"{where}: "), path=where) from None
    return Results(where, study, won)


def compare(first: Results, second: Results) -> Paired:
    """The games of ``first`` and ``second`` paired, once they are known to be the same games.

    Raises
    ------
    StudyError
        Both files name their study, and the studies' games differ: another boards file, or
        another size, first move, start or seed (the policy may differ: it is what is
        compared).
    """
    if first.study is not None and second.study is not None:
        ours, theirs = _games_of(first.study), _games_of(second.study)
        if ours != theirs:
            differ = [
                f"{name} {ours.get(name)!r}, not {theirs.get(name)!r}"
                for name in [*ours, *(name for name in theirs if name not in ours)]
                if ours.get(name) != theirs.get(name)
            ]
            raise StudyError(
                f"{first.path} and {second.path} are not the same games: " + "; ".join(differ)
            )
    return pair(first.won, second.won)


def _games_of(study: dict[str, Any]) -> dict[str, Any]:
    """What fixes a study's boards: its boards file, or all but its policy."""
    if "boards" in study:
        return {"boards": study["boards"]}
    return {name: value for name, value in study.items() if name != "policy"}


def _game(value: Any, path: Path, number: int) -> tuple[int, bool]:
    """A game line's index and whether it was won."""
    if not isinstance(value, dict):
        raise JournalError("not a JSON object", path=path, line=number)
    index, outcome = value.get("index"), value.get("outcome")
    if type(index) is not int or index < 0:
        raise JournalError(
            f"index: {index!r} is not an integer of 0 or more", path=path, line=number
        )
    if outcome not in ("won", "lost"):
        raise JournalError(f"outcome: {outcome!r} is not won or lost", path=path, line=number)
    return index, outcome == "won"
