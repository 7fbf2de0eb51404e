"""Density: the CS440 study, each agent's mean score at each mine density, on paired boards.

A study kind of the one runner (:func:`~mineshafted.studies.run_study`): game ``i`` is one
board, played by every agent (:class:`~mineshafted.studies.paired.PairedBoard`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..game import Rules
from .errors import StudyError
from .labs import DENSITY_AGENTS, DensityRow, moments_interval, parse_densities
from .paired import (
    LabStudy,
    PairedBoard,
    TableFold,
    check_agents,
    check_counts,
    setting_of,
)

__all__ = ["DEFAULT_DENSITIES", "DensityStudy", "density_study"]

DEFAULT_DENSITIES = tuple(parse_densities("0.05:0.95:0.05"))
"""The study's densities by default: 0.05 to 0.95 in steps of 0.05."""


@dataclass(frozen=True)
class DensityStudy(LabStudy[DensityRow]):
    """``runs`` boards of side ``size`` at each density, each played by every agent.

    Games follow :data:`~mineshafted.game.Rules.CS440` (play goes on after a mine); a game's
    score is the mines it flagged and never stepped on, over all its mines. A board of side
    ``d`` at density ``p`` holds ``round(p * d * d)`` mines (at most ``d * d - 1``).

    Game ``i`` of the study is board ``i % runs`` of the ``i // runs``-th density counted from
    the last: the runner starts games in index order, so the densest boards, the costliest,
    start first and the cheap ones fill the gaps at the end.

    Examples
    --------
    >>> study = DensityStudy(size=6, densities=(0.2,), runs=3, agents=("basic", "csp"), seed=1)
    >>> study.count, study.play(0).index
    (3, 0)
    """

    size: int = 20
    """The side ``d`` of the square board."""
    densities: tuple[float, ...] = DEFAULT_DENSITIES
    """Mine densities, each in (0, 1)."""
    runs: int = 30
    """Boards per density; every agent plays each of them."""
    agents: tuple[str, ...] = DENSITY_AGENTS
    """Registered agent names."""
    seed: int = 0
    """The same seed gives the same boards, first cells and guesses."""

    @property
    def count(self) -> int:
        """How many boards: ``len(densities) * runs``."""
        return len(self.densities) * self.runs

    @property
    def key(self) -> dict[str, Any]:
        """Everything that fixes the boards and their games."""
        return {
            "kind": "density",
            "size": self.size,
            "densities": list(self.densities),
            "runs": self.runs,
            "agents": list(self.agents),
            "seed": self.seed,
        }

    def check(self) -> None:
        """Refuse a study that cannot be played.

        Raises
        ------
        StudyError
            A size or run count below 1, a density outside (0, 1), no agents, an agent named
            twice or not registered.
        """
        check_counts(size=self.size, runs=self.runs)
        check_agents(self.agents)
        for density in self.densities:
            if not 0 < density < 1:
                raise StudyError(f"density {density} is not between 0 and 1")

    def board(self, index: int) -> PairedBoard:
        """Board ``index`` of the study."""
        density, run = setting_of(index, self.densities, self.runs)
        cells = self.size * self.size
        mines = min(round(density * cells), cells - 1)
        return PairedBoard(self.size, self.size, mines, Rules.CS440, self.seed, f"{density}", run)

    @property
    def shape(self) -> tuple[int, int]:
        """``(settings, boards per setting)``: len(densities) and runs."""
        return len(self.densities), self.runs

    def rows_of(self, fold: TableFold) -> list[DensityRow]:
        """The table of the boards in ``fold``: by density, then agent in the study's order.

        Raises
        ------
        StudyError
            A board of the study is missing from ``fold``.

        Notes
        -----
        ``O(len(densities) x len(agents))``, whatever the number of runs.
        """
        fold.check("density")
        rows = []
        for number, density in enumerate(self.densities):
            for a, name in enumerate(self.agents):
                scores = fold.scores(number, a)
                low, high = moments_interval(scores)
                rows.append(DensityRow(name, density, self.runs, scores.mean(), low, high))
        return rows


def density_study(
    *,
    size: int = 20,
    densities: Sequence[float] = DEFAULT_DENSITIES,
    runs: int = 30,
    agents: Sequence[str] = DENSITY_AGENTS,
    seed: int = 0,
    jobs: int = 1,
) -> list[DensityRow]:
    """The density study's table, played to its end (see :class:`DensityStudy`).

    Raises
    ------
    StudyError
        The study cannot be played (see :meth:`DensityStudy.check`), or ``jobs`` is below 1.
    KeyboardInterrupt
        Ctrl-C: a study run from here cannot be resumed (the command's ``--out`` can).

    Examples
    --------
    >>> rows = density_study(size=6, densities=[0.2], runs=3, agents=["basic", "csp"], seed=1)
    >>> [(r.agent, r.density, r.runs) for r in rows]
    [('basic', 0.2, 3), ('csp', 0.2, 3)]

    Notes
    -----
    ``len(densities) * runs * len(agents)`` games; a game's cost is its agent's. ``O(1)``
    memory per game: each board is counted as it finishes.
    """
    return DensityStudy(size, tuple(densities), runs, tuple(agents), seed).table(jobs=jobs)
