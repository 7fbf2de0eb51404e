"""Labs: the course labs' presets and the rows of their studies' tables.

The studies themselves are kinds of the one runner (:mod:`.study`): :mod:`.density` (scores
by density) and :mod:`.presets` (wins by preset), each board played by every agent
(:mod:`.paired`).

Glossary
--------
density
    Mines over cells; a board of side ``d`` at density ``p`` holds ``round(p * d * d)`` mines.
preset
    A named board size and mine total of the CS440 lab's game (:data:`PRESETS`).
interval
    A 95% confidence interval: Student's t around a mean score, Wilson's around a win rate.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from statistics import NormalDist

from .errors import StudyError
from .moments import Moments

__all__ = [
    "DENSITY_AGENTS",
    "MAX_DENSITIES",
    "PRESETS",
    "PRESET_AGENTS",
    "DensityRow",
    "Preset",
    "PresetRow",
    "mean_interval",
    "moments_interval",
    "parse_densities",
    "write_rows",
]


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

MAX_DENSITIES = 1000
"""The most densities one study takes (a step of 0.001 across (0, 1) gives 999): the table
and the figure hold a row per density and agent."""


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
        Not numbers, a step that is not positive, more than :data:`MAX_DENSITIES` densities
        (refused before any is made), or a density outside (0, 1).

    Examples
    --------
    >>> parse_densities("0.1:0.3:0.1"), parse_densities("0.5, 0.25")
    ([0.1, 0.2, 0.3], [0.5, 0.25])
    >>> len(parse_densities("0.05:0.95:0.05"))
    19
    >>> parse_densities("0.01:0.99:1e-9")
    Traceback (most recent call last):
    ...
    mineshafted.studies.errors.StudyError: --densities '0.01:0.99:1e-9': the step 1e-09 makes \
980,000,000 densities: at most 1,000
    """
    if ":" in text:
        values = _range(text)
    else:
        if text.count(",") >= MAX_DENSITIES:
            raise StudyError(
                f"--densities: {text.count(',') + 1:,} densities: at most {MAX_DENSITIES:,}"
            )
        values = [_number(part, text) for part in text.split(",")]
    if not values:
        raise StudyError(f"--densities {text!r}: no density in that range")
    for value in values:
        if not 0 < value < 1:
            raise StudyError(f"--densities {text!r}: density {value} is not between 0 and 1")
    return values


def mean_interval(values: Iterable[float], *, level: float = 0.95) -> tuple[float, float]:
    """The Student's t interval around the mean of ``values``, clipped to [0, 1].

    One value gives the point itself.

    Examples
    --------
    >>> low, high = mean_interval([0.2, 0.4, 0.6] * 10)
    >>> round(low, 3), round(high, 3)
    (0.338, 0.462)

    Notes
    -----
    :func:`moments_interval` of the values, in one pass: ``O(1)`` memory per value.
    """
    moments = Moments()
    for value in values:
        moments.add(value)
    return moments_interval(moments, level=level)


def moments_interval(moments: Moments, *, level: float = 0.95) -> tuple[float, float]:
    """The Student's t interval around the mean of the values counted in ``moments``, clipped
    to [0, 1]; one value gives the point itself.

    Raises
    ------
    StudyError
        No values.

    Notes
    -----
    The mean and standard deviation are :func:`statistics.fmean`'s and
    :func:`statistics.stdev`'s of the values, to the last bit, whatever order they came in.
    ``O(1)``.
    """
    if not moments.count:
        raise StudyError("no values: no mean")
    mean = moments.mean()
    if moments.count < 2:
        return mean, mean
    half = (
        _t_quantile((1 + level) / 2, moments.count - 1) * moments.stdev() / math.sqrt(moments.count)
    )
    return max(0.0, mean - half), min(1.0, mean + half)


def write_rows(rows: Sequence[DensityRow] | Sequence[PresetRow], path: Path) -> None:
    """Write study rows to ``path`` as CSV with a header of their field names."""
    listed: list[DensityRow | PresetRow] = list(rows)
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        if listed:
            writer.writerow(field.name for field in fields(listed[0]))
        for row in listed:
            writer.writerow(_cell(value) for value in astuple(row))


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


def _range(text: str) -> list[float]:
    """The densities of ``START:STOP:STEP``, their number checked before any is made."""
    parts = text.split(":")
    if len(parts) != 3:
        raise StudyError(f"--densities {text!r}: not START:STOP:STEP or a list like 0.1,0.2")
    start, stop, step = (_number(part, text) for part in parts)
    if not step > 0:
        raise StudyError(f"--densities {text!r}: the step must be positive")
    span = (stop - start) / step  # finite numbers, but the quotient may overflow
    if not span < MAX_DENSITIES:
        raise StudyError(
            f"--densities {text!r}: the step {step:g} makes {_many(span)} densities: at "
            f"most {MAX_DENSITIES:,}"
        )
    count = math.floor(span + 1e-9) + 1
    return [round(start + i * step, 10) for i in range(max(count, 0))]


def _number(part: str, text: str) -> float:
    """One number of ``--densities`` (a finite float).

    Raises
    ------
    StudyError
        ``part`` is not a finite number.
    """
    try:
        value = float(part)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise StudyError(f"--densities {text!r}: not START:STOP:STEP or a list like 0.1,0.2")
    return value


def _many(span: float) -> str:
    """How many densities a range of ``span`` steps makes, as a message says it:
    ``980,000,001``, ``about 1e+300``, ``endless``."""
    if not math.isfinite(span):
        return "endless"
    return f"{math.floor(span + 1e-9) + 1:,}" if span < 1e15 else f"about {span:.0e}"
