"""Optimal play: the exact chance that best possible play wins, and the moves that achieve it.

:mod:`.placements` (every placement of a start, and what each cell shows in each),
:mod:`.states` (belief states read many placements at a time), :mod:`.search` (best
play's wins over belief states, remembered compactly),
:mod:`.optimum` (a board under each first-click rule, or a position) and :mod:`.reference`
(the same by plain search, for the tests).
"""

from __future__ import annotations

from .optimum import MAX_PLACEMENTS, OptimalPlay, Optimum, board_optimum, position_optimum
from .placements import MINE_BYTE, Placements, TooManyPlacements, board_symmetries, table_mib
from .search import Budget, Search

__all__ = [
    "MAX_PLACEMENTS",
    "MINE_BYTE",
    "Budget",
    "OptimalPlay",
    "Optimum",
    "Placements",
    "Search",
    "TooManyPlacements",
    "board_optimum",
    "board_symmetries",
    "position_optimum",
    "table_mib",
]
