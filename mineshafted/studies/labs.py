"""Labs: the course labs' studies, all agents on the same boards: scores by density, wins by preset.

Glossary
--------
paired
    Every agent plays the same board from the same first cell: a game's seed and first cell
    depend only on the study's seed and the game's place in the study, never on the agent.
density
    Mines over cells; a board of side ``d`` at density ``p`` holds ``round(p * d * d)`` mines.
preset
    A named board size and mine count of the CS440 lab's game (:data:`PRESETS`).
interval
    A 95% confidence interval: Student's t around a mean score, Wilson's around a win rate.
"""

from __future__ import annotations

import csv
import logging
import math
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from statistics import NormalDist, fmean, stdev

from ..agents import agent
from ..errors import MineshaftedError
from ..game import Game, Rules

__all__ = [
    "DENSITY_AGENTS",
    "PRESETS",
    "PRESET_AGENTS",
    "DensityRow",
    "Preset",
    "PresetRow",
    "StudyError",
    "density_study",
    "mean_interval",
    "parse_densities",
    "preset_game",
    "presets_study",
    "wilson_interval",
    "write_rows",
]

log = logging.getLogger(__name__)

Progress = Callable[[int], None]
"""Called with how many games (each played by every agent) have just finished."""


class StudyError(MineshaftedError, ValueError):
    """A study was asked for something it cannot do; the message names the argument."""


@dataclass(frozen=True, slots=True)
class Preset:
    """A named board of the CS440 lab's game."""

    name: str
    rows: int
    cols: int
    mines: int


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("easy-8x8", 8, 8, 10),
        Preset("easy-9x9", 9, 9, 10),
        Preset("easy-10x10", 10, 10, 10),
        Preset("medium-13x15", 13, 15, 40),
        Preset("medium-16x16", 16, 16, 40),
        Preset("hard-30x16", 30, 16, 99),
    )
}
"""The lab's presets by name: easy, medium and hard boards, as the lab sizes them."""

DENSITY_AGENTS = ("basic", "improved", "basic-v2", "improved-v2", "csp", "best")
"""The density study's default agents: the write-up's four curves and the complete deduction."""

PRESET_AGENTS = ("kb", "kb-merge", "basic", "improved", "basic-v2", "improved-v2", "csp", "best")
"""The presets study's default agents: every registered one."""


@dataclass(frozen=True, slots=True)
class DensityRow:
    """One agent at one density: the mean score over the runs, with its 95% interval."""

    agent: str
    density: float
    runs: int
    mean_score: float
    ci_low: float
    ci_high: float


@dataclass(frozen=True, slots=True)
class PresetRow:
    """One agent on one preset: games won, the win rate and its 95% interval."""

    agent: str
    preset: str
    rows: int
    cols: int
    mines: int
    games: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float


def parse_densities(text: str) -> list[float]:
    """Densities from ``START:STOP:STEP`` (both ends included) or a comma-separated list.

    Raises
    ------
    StudyError
        Not numbers, a step that is not positive, or a density outside (0, 1).

    Examples
    --------
    >>> parse_densities("0.1:0.3:0.1"), parse_densities("0.5, 0.25")
    ([0.1, 0.2, 0.3], [0.5, 0.25])
    >>> len(parse_densities("0.05:0.95:0.05"))
    19
    """
    try:
        if ":" in text:
            start, stop, step = (float(part) for part in text.split(":"))
            if step <= 0:
                raise StudyError(f"--densities {text!r}: the step must be positive")
            count = math.floor((stop - start) / step + 1e-9) + 1
            values = [round(start + i * step, 10) for i in range(max(count, 0))]
        else:
            values = [float(part) for part in text.split(",")]
    except ValueError:
        raise StudyError(
            f"--densities {text!r}: not START:STOP:STEP or a list like 0.1,0.2"
        ) from None
    if not values:
        raise StudyError(f"--densities {text!r}: no density in that range")
    for value in values:
        if not 0 < value < 1:
            raise StudyError(f"--densities {text!r}: density {value} is not between 0 and 1")
    return values


def density_study(
    *,
    size: int = 20,
    densities: Sequence[float] = tuple(parse_densities("0.05:0.95:0.05")),
    runs: int = 30,
    agents: Sequence[str] = DENSITY_AGENTS,
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
) -> list[DensityRow]:
    """The CS440 study: each agent's mean score at each density, on paired boards.

    Games follow :data:`~mineshafted.game.Rules.CS440` (play goes on after a mine); a game's
    score is the mines it flagged and never stepped on, over all its mines.

    Parameters
    ----------
    size:
        The side ``d`` of the square board.
    densities:
        Mine densities, each in (0, 1).
    runs:
        Boards per density; every agent plays each of them.
    agents:
        Registered agent names.
    seed:
        The same seed gives the same boards, first cells and guesses.
    jobs:
        Worker processes (1: play in this process).
    progress:
        Called as boards finish (see :data:`Progress`).

    Returns
    -------
    list of DensityRow
        By density, then agent in the order given.

    Raises
    ------
    StudyError
        A size, run count or job count below 1, or a density outside (0, 1).
    UnknownAgentError
        An agent name not registered.

    Examples
    --------
    >>> rows = density_study(size=6, densities=[0.2], runs=3, agents=["basic", "csp"], seed=1)
    >>> [(r.agent, r.density, r.runs) for r in rows]
    [('basic', 0.2, 3), ('csp', 0.2, 3)]

    Notes
    -----
    ``len(densities) * runs * len(agents)`` games; a game's cost is its agent's.
    """
    _check(size=size, runs=runs, jobs=jobs)
    names = _agents(agents)
    for density in densities:
        if not 0 < density < 1:
            raise StudyError(f"density {density} is not between 0 and 1")
    cells = size * size
    tasks = [
        _Task(size, size, min(round(d * cells), cells - 1), Rules.CS440, names, seed, f"{d}", run)
        for d in densities
        for run in range(runs)
    ]
    played = _run(tasks, jobs, progress)
    rows = []
    for i, density in enumerate(densities):
        results = played[i * runs : (i + 1) * runs]
        for a, name in enumerate(names):
            scores = [result[a][0] for result in results]
            low, high = mean_interval(scores)
            rows.append(DensityRow(name, density, runs, fmean(scores), low, high))
    return rows


def presets_study(
    *,
    games: int = 1000,
    agents: Sequence[str] = PRESET_AGENTS,
    presets: Sequence[str] = tuple(PRESETS),
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
) -> list[PresetRow]:
    """The lab's autograder: each agent's win rate on each preset, on paired boards.

    Games follow :data:`~mineshafted.game.Rules.CLASSIC` (a mine ends the game).

    Raises
    ------
    StudyError
        A game or job count below 1, or an unknown preset.
    UnknownAgentError
        An agent name not registered.

    Examples
    --------
    >>> rows = presets_study(games=4, agents=["kb"], presets=["easy-8x8"], seed=2)
    >>> [(r.agent, r.preset, r.games) for r in rows]
    [('kb', 'easy-8x8', 4)]

    Notes
    -----
    ``len(presets) * games * len(agents)`` games.
    """
    _check(games=games, jobs=jobs)
    names = _agents(agents)
    chosen = []
    for name in presets:
        if name not in PRESETS:
            raise StudyError(f"no preset named {name!r}: choose from {', '.join(PRESETS)}")
        chosen.append(PRESETS[name])
    tasks = [
        _Task(p.rows, p.cols, p.mines, Rules.CLASSIC, names, seed, p.name, game)
        for p in chosen
        for game in range(games)
    ]
    played = _run(tasks, jobs, progress)
    rows = []
    for i, p in enumerate(chosen):
        results = played[i * games : (i + 1) * games]
        for a, name in enumerate(names):
            wins = sum(result[a][1] for result in results)
            low, high = wilson_interval(wins, games)
            rows.append(
                PresetRow(
                    name, p.name, p.rows, p.cols, p.mines, games, wins, wins / games, low, high
                )
            )
    return rows


def preset_game(preset: str, name: str, *, seed: int = 0, run: int = 0) -> Game:
    """The game agent ``name`` plays on board ``run`` of ``preset`` in :func:`presets_study`
    with ``seed``: the very same game, replayed (its record shows every move and why).

    Raises
    ------
    StudyError
        No preset of that name.
    UnknownAgentError
        No agent of that name.

    >>> game = preset_game("easy-8x8", "kb", seed=2)
    >>> game.over, game.record.header.rows
    (True, 8)
    """
    if preset not in PRESETS:
        raise StudyError(f"no preset named {preset!r}: choose from {', '.join(PRESETS)}")
    p = PRESETS[preset]
    (checked,) = _agents([name])
    return _game(_Task(p.rows, p.cols, p.mines, Rules.CLASSIC, (checked,), seed, p.name, run), name)


def mean_interval(values: Sequence[float], *, level: float = 0.95) -> tuple[float, float]:
    """The Student's t interval around the mean of ``values``, clipped to [0, 1].

    One value gives the point itself.

    >>> low, high = mean_interval([0.2, 0.4, 0.6] * 10)
    >>> round(low, 3), round(high, 3)
    (0.338, 0.462)
    """
    mean = fmean(values)
    if len(values) < 2:
        return mean, mean
    half = _t_quantile((1 + level) / 2, len(values) - 1) * stdev(values) / math.sqrt(len(values))
    return max(0.0, mean - half), min(1.0, mean + half)


def wilson_interval(wins: int, games: int, *, level: float = 0.95) -> tuple[float, float]:
    """Wilson's score interval for a win rate of ``wins`` out of ``games``.

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    >>> wilson_interval(0, 10)[0]
    0.0
    """
    z = NormalDist().inv_cdf((1 + level) / 2)
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    half /= 1 + z * z / games
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    return low, 1.0 if wins == games else min(1.0, centre + half)


def write_rows(rows: Sequence[DensityRow] | Sequence[PresetRow], path: Path) -> None:
    """Write study rows to ``path`` as CSV with a header of their field names."""
    listed: list[DensityRow | PresetRow] = list(rows)
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        if listed:
            writer.writerow(field.name for field in fields(listed[0]))
        for row in listed:
            writer.writerow(_cell(value) for value in astuple(row))


# -- helpers ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Task:
    """One board, played by every agent in turn."""

    rows: int
    cols: int
    mines: int
    rules: Rules
    agents: tuple[str, ...]
    seed: int
    key: str
    """The board's setting within the study (a density or a preset)."""
    run: int


def _play(task: _Task) -> list[tuple[float, bool]]:
    """Play ``task``'s board with each of its agents: ``(score, won)`` per agent.

    The game's seed and first cell come from the study's seed, the setting and the run only;
    each agent's guesses from those and its name.
    """
    results = []
    for name in task.agents:
        game = _game(task, name)
        results.append((game.score, game.won))
    return results


def _game(task: _Task, name: str) -> Game:
    """``task``'s board played to the end by the agent ``name``."""
    draw = random.Random(f"{task.seed}:{task.key}:{task.run}")
    game_seed = draw.getrandbits(63)
    first = draw.randrange(task.rows * task.cols)
    game = Game.draw(task.rows, task.cols, task.mines, rules=task.rules, seed=game_seed)
    game.reveal(first, reason="first move")
    if not game.over:
        agent(name).play(game, random.Random(f"{game_seed}:{name}"))
    return game


def _run(
    tasks: list[_Task], jobs: int, progress: Progress | None
) -> list[list[tuple[float, bool]]]:
    """Play every task, in ``jobs`` processes; the results in task order.

    The processes take the tasks last first (the densest boards of a density study, the
    largest presets: the costliest) in small chunks, so that the cheap ones fill the gaps
    at the end rather than one costly chunk running on alone.
    """
    if jobs == 1 or len(tasks) < 2:
        return list(_reporting(map(_play, tasks), progress))
    chunk = max(1, len(tasks) // (jobs * 64))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        backwards = list(_reporting(pool.map(_play, tasks[::-1], chunksize=chunk), progress))
    return backwards[::-1]


def _reporting(
    results: Iterator[list[tuple[float, bool]]], progress: Progress | None
) -> Iterator[list[tuple[float, bool]]]:
    """Pass ``results`` on, telling ``progress`` of each."""
    for result in results:
        if progress is not None:
            progress(1)
        yield result


def _agents(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` checked against the registry (an unknown one raises), duplicates refused."""
    if not names:
        raise StudyError("no agents given")
    for name in names:
        agent(name)
    if len(set(names)) != len(names):
        raise StudyError(f"an agent is named twice in {', '.join(names)}")
    return tuple(names)


def _check(**counts: int) -> None:
    """Refuse a count below 1, naming it."""
    for name, value in counts.items():
        if value < 1:
            raise StudyError(f"--{name} must be at least 1, not {value}")


def _t_quantile(p: float, df: int) -> float:
    """Student's t quantile by the Cornish-Fisher expansion (within 1e-3 from 3 degrees up)."""
    z = NormalDist().inv_cdf(p)
    terms = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    return z + sum(term / float(df) ** (k + 1) for k, term in enumerate(terms))


def _cell(value: object) -> object:
    """A CSV cell: floats to six places."""
    return round(value, 6) if isinstance(value, float) else value
