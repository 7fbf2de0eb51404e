"""mineshafted: Minesweeper solved as a constraint-satisfaction problem.

>>> from mineshafted import BoardManager, sweep_mines
>>> sweep_mines(BoardManager([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]))
[[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]
"""

from __future__ import annotations

from .board import MINE, Board, Geometry, render
from .errors import (
    ContradictionError,
    InvalidBoardError,
    MineshaftedError,
    NeedsGuess,
    PuzzleFormatError,
)
from .formats import Puzzle, parse_puzzles, read_puzzles
from .game.manager import BoardManager
from .solver.csp import ClueCSP, ClueVariable
from .solver.knowledge import CellState, Knowledge
from .solver.search import BacktrackingSearch, ConstraintSearch
from .solver.sweep import Status, Sweep, SweepReport, sweep_mines

__all__ = [
    "MINE",
    "BacktrackingSearch",
    "Board",
    "BoardManager",
    "CellState",
    "ClueCSP",
    "ClueVariable",
    "ConstraintSearch",
    "ContradictionError",
    "Geometry",
    "InvalidBoardError",
    "Knowledge",
    "MineshaftedError",
    "NeedsGuess",
    "Puzzle",
    "PuzzleFormatError",
    "Status",
    "Sweep",
    "SweepReport",
    "parse_puzzles",
    "read_puzzles",
    "render",
    "sweep_mines",
]

__version__ = "0.1.0"
