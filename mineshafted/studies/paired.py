"""Paired: one board of a lab study, played by every agent in turn from the same first cell.

Glossary
--------
paired
    Every agent plays the same board from the same first cell: a game's seed and first cell
    depend only on the study's seed, the board's setting and its run, never on the agent.
setting
    What a lab study varies between boards: a density, or a preset.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any, Generic, TypeVar, cast

from ..agents import UnknownAgentError, agent
from ..game import Game, Rules
from .errors import StudyError
from .kind import Kind
from .moments import Moments
from .study import run_study

S = TypeVar("S")
"""A lab study's setting: a density, or a preset's name."""

__all__ = [
    "BoardLine",
    "LabStudy",
    "PairedBoard",
    "TableFold",
    "check_agents",
    "check_counts",
    "fold_of",
    "setting_of",
]

Row = TypeVar("Row")
"""A lab table's row (:class:`~.labs.DensityRow`, :class:`~.labs.PresetRow`)."""


@dataclass(frozen=True, slots=True)
class PairedBoard:
    """One board of a lab study: its size, rules, and where it stands in the study."""

    rows: int
    cols: int
    mines: int
    rules: Rules
    seed: int
    """The study's seed."""
    setting: str
    """The board's setting within the study (a density or a preset's name)."""
    run: int
    """The board's number within its setting, from 0."""

    def game(self, name: str) -> Game:
        """This board played to the end by the agent ``name``.

        The game's seed and first cell come from the study's seed, the setting and the run
        only; the agent's guesses from those and its name.
        """
        draw = random.Random(f"{self.seed}:{self.setting}:{self.run}")
        game_seed = draw.getrandbits(63)
        first = draw.randrange(self.rows * self.cols)
        game = Game.draw(self.rows, self.cols, self.mines, rules=self.rules, seed=game_seed)
        game.reveal(first, reason="first move")
        if not game.over:
            agent(name).play(game, random.Random(f"{game_seed}:{name}"))
        return game

    def play(self, index: int, agents: Sequence[str]) -> BoardLine:
        """The board played by each of ``agents`` in turn: game ``index`` of its study."""
        began = perf_counter()
        games = [self.game(name) for name in agents]
        seconds = perf_counter() - began
        return BoardLine(index, tuple(g.score for g in games), tuple(g.won for g in games), seconds)


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One board of a lab study, played by every agent: each one's score and whether it won."""

    index: int
    """The board's number in the study, from 0."""
    scores: tuple[float, ...]
    """Per agent, in the study's order: the mines it flagged and never stepped on, over all."""
    won: tuple[bool, ...]
    """Per agent, in the study's order: whether it won."""
    seconds: float = field(compare=False)
    """The time all the agents took (not compared)."""

    def to_json(self) -> dict[str, Any]:
        """The line as JSON-ready data (scores exact: floats round-trip through JSON).

        Examples
        --------
        >>> BoardLine(2, (0.5, 1.0), (False, True), 0.1234567).to_json()
        {'index': 2, 'scores': [0.5, 1.0], 'won': [False, True], 'seconds': 0.123457}
        """
        return {
            "index": self.index,
            "scores": list(self.scores),
            "won": list(self.won),
            "seconds": round(self.seconds, 6),
        }

    @classmethod
    def from_json(cls, obj: Any, agents: int) -> BoardLine:
        """The line :meth:`to_json` wrote, for a study of ``agents`` agents.

        Raises
        ------
        ValueError
            A field is missing, holds the wrong kind of value, or the wrong number of them.
        """
        if not isinstance(obj, dict):
            raise ValueError("not a JSON object")
        index, scores, won, seconds = (obj.get(k) for k in ("index", "scores", "won", "seconds"))
        scores = scores if isinstance(scores, list) else None
        if type(index) is not int:
            raise ValueError(f"index: {index!r} is not an integer")
        if (
            scores is None
            or len(scores) != agents
            or any(type(s) not in (int, float) or not math.isfinite(s) for s in scores)
        ):
            raise ValueError(f"scores: {scores!r} is not a list of {agents} finite numbers")
        if not (isinstance(won, list) and len(won) == agents and all(type(w) is bool for w in won)):
            raise ValueError(f"won: {won!r} is not a list of {agents} booleans")
        if not isinstance(seconds, int | float) or isinstance(seconds, bool):
            raise ValueError(f"seconds: {seconds!r} is not a number")
        return cls(index, tuple(float(s) for s in scores), tuple(won), float(seconds))


def setting_of(index: int, settings: Sequence[S], runs: int) -> tuple[S, int]:
    """The setting and run of board ``index`` of a lab study with ``runs`` boards per setting.

    The boards of the last setting (the densest density, the largest preset: the costliest)
    come first, so that a study's workers start on them.

    Examples
    --------
    >>> [setting_of(i, ["a", "b"], 2) for i in range(4)]
    [('b', 0), ('b', 1), ('a', 0), ('a', 1)]
    """
    setting, run = divmod(index, runs)
    return settings[len(settings) - 1 - setting], run


class LabStudy(Generic[Row]):
    """What the labs' studies share: game ``i`` is board ``i`` played by every agent, its
    line read back, and the table folded board by board (the density and presets studies).

    A study says its :meth:`board`, its :attr:`shape` (settings, and boards per setting) and
    how a fold becomes its table (:meth:`rows_of`).
    """

    agents: tuple[str, ...]

    @property
    def shape(self) -> tuple[int, int]:
        """``(settings, boards per setting)``."""
        raise NotImplementedError  # pragma: no cover - each study says

    def board(self, index: int) -> PairedBoard:
        """Board ``index`` of the study."""
        raise NotImplementedError  # pragma: no cover - each study says

    def rows_of(self, fold: TableFold) -> list[Row]:
        """The table of the boards in ``fold``."""
        raise NotImplementedError  # pragma: no cover - each study says

    def play(self, index: int) -> BoardLine:
        """Board ``index`` played by every agent."""
        return self.board(index).play(index, self.agents)

    def read(self, data: Any) -> BoardLine:
        """A line of this study's results file."""
        return BoardLine.from_json(data, len(self.agents))

    def table(self, *, jobs: int = 1) -> list[Row]:
        """The table of the study played to its end here (``jobs`` processes), not resumable.

        Raises
        ------
        StudyError
            The study cannot be played, or ``jobs`` is below 1.
        KeyboardInterrupt
            Ctrl-C: the games played are lost (a command's ``--out`` keeps them).
        """
        check_counts(jobs=jobs)
        fold = self.fold()
        study = cast("Kind[BoardLine]", self)  # each lab study is a Kind; this base is not
        if run_study(study, fold=fold.add, jobs=jobs).interrupted:
            raise KeyboardInterrupt
        return self.rows_of(fold)

    def fold(self) -> TableFold:
        """An empty fold of this study's boards, to give :func:`run_study` as its ``fold``
        and read with :meth:`rows_of`."""
        settings, runs = self.shape
        return TableFold(settings, runs, len(self.agents))

    def rows(self, lines: Iterable[BoardLine]) -> list[Row]:
        """The table of ``lines``: :meth:`rows_of` their fold (a board given twice counts
        once: its last line).

        Raises
        ------
        StudyError
            A board of the study is missing from ``lines``.
        """
        settings, runs = self.shape
        return self.rows_of(fold_of(lines, settings, runs, len(self.agents)))


class TableFold:
    """The boards of a lab study counted as they arrive, in any order: a study's ``fold``.

    For each setting (in the study's order), how many of its boards are in; for each setting
    and agent, the agent's wins and its scores' :class:`~mineshafted.studies.moments.Moments`.
    A board past the study's last is left out.

    Examples
    --------
    >>> fold = TableFold(settings=2, runs=1, agents=1)
    >>> fold.add(BoardLine(0, (0.5,), (False,), 0.1))  # board 0: the last setting's
    >>> fold.boards(1), fold.wins(1, 0), fold.scores(1, 0).mean()
    (1, 0, 0.5)
    >>> fold.check("density")
    Traceback (most recent call last):
    ...
    mineshafted.studies.errors.StudyError: the density table needs every board: 1 missing

    Notes
    -----
    ``O(settings x agents)`` memory, ``O(agents)`` time per board, whatever the number of
    boards.
    """

    __slots__ = ("_boards", "_runs", "_scores", "_wins")

    def __init__(self, settings: int, runs: int, agents: int) -> None:
        self._runs = runs
        self._boards = [0] * settings
        self._wins = [[0] * agents for _ in range(settings)]
        self._scores = [[Moments() for _ in range(agents)] for _ in range(settings)]

    def add(self, line: BoardLine) -> None:
        """Count one board, played by every agent; each board once."""
        settings = len(self._boards)
        if not 0 <= line.index < settings * self._runs:
            return
        number = settings - 1 - line.index // self._runs  # :func:`setting_of`'s inverse
        self._boards[number] += 1
        for a, (score, won) in enumerate(zip(line.scores, line.won, strict=True)):
            self._wins[number][a] += won
            self._scores[number][a].add(score)

    def boards(self, number: int) -> int:
        """How many boards of setting ``number`` (in the study's order) are in."""
        return self._boards[number]

    def wins(self, number: int, agent: int) -> int:
        """The wins of agent ``agent`` (in the study's order) on setting ``number``."""
        return self._wins[number][agent]

    def scores(self, number: int, agent: int) -> Moments:
        """The scores of agent ``agent`` on setting ``number``."""
        return self._scores[number][agent]

    def check(self, table: str) -> None:
        """Refuse a fold that misses a board of the study.

        Raises
        ------
        StudyError
            A board of the study is missing (named by ``table``).
        """
        missing = len(self._boards) * self._runs - sum(self._boards)
        if missing:
            raise StudyError(f"the {table} table needs every board: {missing} missing")


def fold_of(lines: Iterable[BoardLine], settings: int, runs: int, agents: int) -> TableFold:
    """The :class:`TableFold` of ``lines``; a board given twice counts once (its last line).

    Notes
    -----
    ``O(len(lines))`` memory, to find the boards given twice: a study's runner gives each
    board once, straight to a :class:`TableFold`.
    """
    fold = TableFold(settings, runs, agents)
    for line in {line.index: line for line in lines}.values():
        fold.add(line)
    return fold


def check_agents(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` checked against the registry, duplicates refused.

    Raises
    ------
    StudyError
        No agents, an agent named twice, or a name no agent is registered under.
    """
    if not names:
        raise StudyError("no agents given")
    for name in names:
        try:
            agent(name)
        except UnknownAgentError as error:
            raise StudyError(str(error)) from None
    if len(set(names)) != len(names):
        raise StudyError(f"an agent is named twice in {', '.join(names)}")
    return tuple(names)


def check_counts(**counts: int) -> None:
    """Refuse a count below 1, naming it as its option.

    Raises
    ------
    StudyError
        A count below 1.
    """
    for name, value in counts.items():
        if value < 1:
            raise StudyError(f"--{name} must be at least 1, not {value}")
