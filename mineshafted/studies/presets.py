"""Presets: the lab's autograder, each agent's win rate on each preset, on paired boards.

A study kind of the one runner (:func:`~mineshafted.studies.run_study`): game ``i`` is one
board, played by every agent (:class:`~mineshafted.studies.paired.PairedBoard`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..game import Game, Rules
from .errors import StudyError
from .labs import PRESET_AGENTS, PRESETS, PresetRow
from .paired import (
    LabStudy,
    PairedBoard,
    TableFold,
    check_agents,
    check_counts,
    setting_of,
)
from .summary import wilson

__all__ = ["PresetsStudy", "preset_game", "presets_study"]


@dataclass(frozen=True)
class PresetsStudy(LabStudy[PresetRow]):
    """``games`` boards of each preset, each played by every agent.

    Games follow :data:`~mineshafted.game.Rules.CLASSIC` (a mine ends the game).

    Game ``i`` of the study is board ``i % games`` of the ``i // games``-th preset counted
    from the last: the runner starts games in index order, so the largest presets, the
    costliest, start first.

    Examples
    --------
    >>> study = PresetsStudy(games=4, agents=("kb",), presets=("easy-8x8",), seed=2)
    >>> study.count, study.play(3).won in ((True,), (False,))
    (4, True)
    """

    games: int = 1000
    """Boards per preset; every agent plays each of them."""
    agents: tuple[str, ...] = PRESET_AGENTS
    """Registered agent names."""
    presets: tuple[str, ...] = tuple(PRESETS)
    """Names of :data:`~mineshafted.studies.labs.PRESETS`."""
    seed: int = 0
    """The same seed gives the same boards, first cells and guesses."""

    @property
    def count(self) -> int:
        """How many boards: ``len(presets) * games``."""
        return len(self.presets) * self.games

    @property
    def key(self) -> dict[str, Any]:
        """Everything that fixes the boards and their games."""
        return {
            "kind": "presets",
            "games": self.games,
            "agents": list(self.agents),
            "presets": list(self.presets),
            "seed": self.seed,
        }

    def check(self) -> None:
        """Refuse a study that cannot be played.

        Raises
        ------
        StudyError
            A game count below 1, an unknown preset, no agents, an agent named twice or not
            registered.
        """
        check_counts(games=self.games)
        check_agents(self.agents)
        for name in self.presets:
            _preset(name)

    def board(self, index: int) -> PairedBoard:
        """Board ``index`` of the study."""
        preset, run = setting_of(index, self.presets, self.games)
        return _board(preset, self.seed, run)

    @property
    def shape(self) -> tuple[int, int]:
        """``(settings, boards per setting)``: len(presets) and games."""
        return len(self.presets), self.games

    def rows_of(self, fold: TableFold) -> list[PresetRow]:
        """The table of the boards in ``fold``: by preset, then agent in the study's order.

        Raises
        ------
        StudyError
            A board of the study is missing from ``fold``.

        Notes
        -----
        ``O(len(presets) x len(agents))``, whatever the number of games.
        """
        fold.check("presets")
        games = self.games
        rows = []
        for number, name in enumerate(self.presets):
            p = PRESETS[name]
            for a, agent_name in enumerate(self.agents):
                wins = fold.wins(number, a)
                low, high = wilson(wins, games)
                rows.append(
                    PresetRow(
                        agent_name, p.name, p.rows, p.cols, p.mines, games, wins, wins / games,
                        low, high,
                    )
                )  # fmt: skip
        return rows


def presets_study(
    *,
    games: int = 1000,
    agents: Sequence[str] = PRESET_AGENTS,
    presets: Sequence[str] = tuple(PRESETS),
    seed: int = 0,
    jobs: int = 1,
) -> list[PresetRow]:
    """The presets study's table, played to its end (see :class:`PresetsStudy`).

    Raises
    ------
    StudyError
        The study cannot be played (see :meth:`PresetsStudy.check`), or ``jobs`` is below 1.
    KeyboardInterrupt
        Ctrl-C: a study run from here cannot be resumed (the command's ``--out`` can).

    Examples
    --------
    >>> rows = presets_study(games=4, agents=["kb"], presets=["easy-8x8"], seed=2)
    >>> [(r.agent, r.preset, r.games) for r in rows]
    [('kb', 'easy-8x8', 4)]

    Notes
    -----
    ``len(presets) * games * len(agents)`` games. ``O(1)`` memory per game: each board is
    counted as it finishes.
    """
    return PresetsStudy(games, tuple(agents), tuple(presets), seed).table(jobs=jobs)


def preset_game(preset: str, name: str, *, seed: int = 0, run: int = 0) -> Game:
    """The game agent ``name`` plays on board ``run`` of ``preset`` in :class:`PresetsStudy`
    with ``seed``: the very same game, replayed (its record shows every move and why).

    Raises
    ------
    StudyError
        No preset of that name, or no agent of that name.

    Examples
    --------
    >>> game = preset_game("easy-8x8", "kb", seed=2)
    >>> game.over, game.record.header.rows
    (True, 8)
    """
    (checked,) = check_agents([name])
    return _board(preset, seed, run).game(checked)


def _preset(name: str) -> None:
    """Refuse a preset name not in :data:`PRESETS`."""
    if name not in PRESETS:
        raise StudyError(f"no preset named {name!r}: choose from {', '.join(PRESETS)}")


def _board(preset: str, seed: int, run: int) -> PairedBoard:
    """Board ``run`` of ``preset`` in a presets study with ``seed``."""
    _preset(preset)
    p = PRESETS[preset]
    return PairedBoard(p.rows, p.cols, p.mines, Rules.CLASSIC, seed, p.name, run)
