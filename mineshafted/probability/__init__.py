"""Exact mine probabilities: placements counted by mine number, combined under the mine total.

The modules, in the order a count uses them: :mod:`.count` (one component's placements by
number of mines, cells in classes), :mod:`.odds` (the components and the unconstrained cells
combined under the mine total), :mod:`.view` (a player's view and position files) and
:mod:`.deduce` (the cells the mine total decides, and a sweep that uses them).
"""

from __future__ import annotations

from .count import Count, count_component
from .deduce import certain, sweep_with_total
from .errors import NoPlacementError, PositionFormatError, Why
from .odds import Odds, combine, odds
from .view import PositionFile, odds_json, parse_position, position_of, read_position, view_odds

__all__ = [
    "Count",
    "NoPlacementError",
    "Odds",
    "PositionFile",
    "PositionFormatError",
    "Why",
    "certain",
    "combine",
    "count_component",
    "odds",
    "odds_json",
    "parse_position",
    "position_of",
    "read_position",
    "sweep_with_total",
    "view_odds",
]
