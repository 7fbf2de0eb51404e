"""Exact mine probabilities under the mine total, from a stalled sweep or a player's view.

The counting itself is the solver's (:func:`mineshafted.solver.tally`: the mine total is
the last layer of deduction); here it becomes probabilities. :mod:`.odds` (each unknown
cell's exact chance of a mine), :mod:`.view` (a player's view and position files),
:mod:`.policy` (which cell to guess at a stall), :mod:`.lookahead` (what revealing a cell
may show, counted exactly), :mod:`.endgame` (the exactly best reveal when few placements
remain), :mod:`.regions` (the same in an isolated region), :mod:`.play` (one game played to
its end) and :mod:`.optimal` (best possible play on a small board, exactly, and a policy's
exact score).
"""

from __future__ import annotations

from .endgame import Endgame, best_reveal
from .errors import PositionFormatError
from .lookahead import Outlook, outlook
from .odds import Odds, odds
from .play import (
    Guess,
    Played,
    Start,
    check_board,
    check_game,
    play_board,
    play_game,
    start_cell,
)
from .policy import Best, Policy, PolicyName, RandomGuess, Safest, policy_named
from .regions import region_reveal
from .view import PositionFile, odds_json, parse_position, position_of, read_position, view_odds

__all__ = [
    "Best",
    "Endgame",
    "Guess",
    "Odds",
    "Outlook",
    "Played",
    "Policy",
    "PolicyName",
    "PositionFile",
    "PositionFormatError",
    "RandomGuess",
    "Safest",
    "Start",
    "best_reveal",
    "check_board",
    "check_game",
    "odds",
    "odds_json",
    "outlook",
    "parse_position",
    "play_board",
    "play_game",
    "policy_named",
    "position_of",
    "read_position",
    "region_reveal",
    "start_cell",
    "view_odds",
]
