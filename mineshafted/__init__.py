"""mineshafted: Minesweeper solved as a constraint-satisfaction problem.

>>> from mineshafted import BoardManager, sweep_mines
>>> sweep_mines(BoardManager([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]))
[[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .board import MINE, Board, Geometry, render
from .errors import (
    ContradictionError,
    InvalidBoardError,
    MineshaftedError,
    NeedsGuess,
    PuzzleFormatError,
)
from .formats import Puzzle, parse_puzzles, read_puzzles
from .game import BoardManager
from .solver import (
    BacktrackingSearch,
    CellState,
    ClueCSP,
    ClueVariable,
    ComponentSearch,
    ConstraintSearch,
    Knowledge,
    Position,
    Stage,
    Status,
    Sweep,
    SweepReport,
    sweep_mines,
)

__all__ = [
    "MINE",
    "BacktrackingSearch",
    "Board",
    "BoardManager",
    "CellState",
    "ClueCSP",
    "ClueVariable",
    "ComponentSearch",
    "ConstraintSearch",
    "ContradictionError",
    "Geometry",
    "InvalidBoardError",
    "Knowledge",
    "MineshaftedError",
    "NeedsGuess",
    "Position",
    "Puzzle",
    "PuzzleFormatError",
    "Stage",
    "Status",
    "Sweep",
    "SweepReport",
    "parse_puzzles",
    "read_puzzles",
    "render",
    "sweep_mines",
]

try:
    __version__ = version("mineshafted")
except PackageNotFoundError:  # pragma: no cover - imported from a source tree, not installed
    __version__ = "0+unknown"
