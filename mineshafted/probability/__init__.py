"""Exact mine probabilities under the mine total, from a stalled sweep or a player's view.

The counting itself is the solver's (:func:`mineshafted.solver.tally`: the mine total is
the last layer of deduction); here it becomes probabilities. :mod:`.odds` (each unknown
cell's exact chance of a mine) and :mod:`.view` (a player's view and position files).
"""

from __future__ import annotations

from .errors import PositionFormatError
from .odds import Odds, odds
from .view import PositionFile, odds_json, parse_position, position_of, read_position, view_odds

__all__ = [
    "Odds",
    "PositionFile",
    "PositionFormatError",
    "odds",
    "odds_json",
    "parse_position",
    "position_of",
    "read_position",
    "view_odds",
]
