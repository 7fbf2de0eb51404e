"""Figures: the labs' studies drawn with matplotlib (an optional extra), one PNG each.

Glossary
--------
band
    The shaded 95% interval around an agent's curve.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import MissingExtraError
from .labs import DensityRow, PresetRow

if TYPE_CHECKING:
    from matplotlib.figure import Figure  # type: ignore[import-not-found,unused-ignore]

__all__ = ["density_figure", "presets_figure"]


def density_figure(rows: Sequence[DensityRow], path: Path, *, size: int) -> None:
    """Draw score against density, one line per agent with its interval as a band.

    Raises
    ------
    MissingExtraError
        Matplotlib (the ``plots`` extra) is not installed.
    """
    figure = _figure()
    axes = figure.subplots()
    for name in _agents(rows):
        mine = sorted((r for r in rows if r.agent == name), key=lambda r: r.density)
        x = [r.density for r in mine]
        (line,) = axes.plot(x, [r.mean_score for r in mine], marker=".", label=name)
        low, high = [r.ci_low for r in mine], [r.ci_high for r in mine]
        axes.fill_between(x, low, high, color=line.get_color(), alpha=0.15, linewidth=0)
    runs = rows[0].runs if rows else 0
    axes.set_xlabel("mine density (mines / cells)")
    axes.set_ylabel("mean score (mines flagged safely / mines)")
    axes.set_title(f"Score by mine density: {size}x{size} board, {runs} paired boards per point")
    axes.set_ylim(0, 1.02)
    axes.grid(alpha=0.3)
    axes.legend(title="agent (95% bands)")
    _save(figure, path)


def presets_figure(rows: Sequence[PresetRow], path: Path) -> None:
    """Draw win rates as grouped bars: one group per preset, one bar per agent, with intervals.

    Raises
    ------
    MissingExtraError
        Matplotlib (the ``plots`` extra) is not installed.
    """
    figure = _figure(width=10)
    axes = figure.subplots()
    presets = list(dict.fromkeys(r.preset for r in rows))
    agents = _agents(rows)
    width = 0.8 / max(len(agents), 1)
    for a, name in enumerate(agents):
        mine = {r.preset: r for r in rows if r.agent == name}
        x = [p + (a - (len(agents) - 1) / 2) * width for p in range(len(presets))]
        rates = [mine[p].win_rate for p in presets]
        errors = [
            [mine[p].win_rate - mine[p].ci_low for p in presets],
            [mine[p].ci_high - mine[p].win_rate for p in presets],
        ]
        axes.bar(x, rates, width, yerr=errors, capsize=2, label=name)
    games = rows[0].games if rows else 0
    axes.set_xticks(range(len(presets)), presets)
    axes.set_xlabel("preset (rows x columns, mines)")
    axes.set_ylabel("win rate")
    axes.set_title(f"Win rate by preset: {games} paired games per bar, 95% intervals")
    axes.set_ylim(0, 1.02)
    axes.grid(axis="y", alpha=0.3)
    figure.legend(title="agent", loc="outside right upper")
    _save(figure, path)


def _figure(width: float = 8) -> Figure:
    """A new figure, without pyplot's global state; matplotlib imported here, lazily."""
    try:
        from matplotlib.figure import Figure  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise MissingExtraError("plots", package="matplotlib", needed_by="the figure") from None
    return Figure(figsize=(width, 5), layout="constrained")


def _save(figure: Any, path: Path) -> None:
    """Write ``figure`` as a PNG (the Agg canvas, no display needed)."""
    figure.savefig(path, dpi=120, format="png", metadata={"Software": None})


def _agents(rows: Sequence[DensityRow] | Sequence[PresetRow]) -> list[str]:
    """The agents of ``rows`` in order of first appearance."""
    return list(dict.fromkeys(r.agent for r in rows))
