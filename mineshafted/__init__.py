"""mineshafted: Minesweeper solved as a constraint-satisfaction problem.

Examples
--------
>>> from mineshafted import BoardManager, sweep_mines
>>> sweep_mines(BoardManager([[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]))
[[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .board import MINE, Board, Geometry, render
from .errors import (
    ContradictionError,
    GameOverError,
    IllegalMoveError,
    InputError,
    InvalidBoardError,
    ManagerError,
    MineshaftedError,
    NeedsGuess,
    NoPlacementError,
    PuzzleFormatError,
    RecordFormatError,
    StartError,
)
from .formats import Puzzle, parse_puzzles, read_puzzles
from .game import (
    AfterMine,
    BoardManager,
    FirstMove,
    Game,
    GameManager,
    GameRecord,
    GameStatus,
    Rules,
    read_record,
    rebuild,
    write_record,
)
from .rating import Rating, rate
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
    Technique,
    sweep_mines,
)

__all__ = [
    "MINE",
    "AfterMine",
    "BacktrackingSearch",
    "Board",
    "BoardManager",
    "CellState",
    "ClueCSP",
    "ClueVariable",
    "ComponentSearch",
    "ConstraintSearch",
    "ContradictionError",
    "FirstMove",
    "Game",
    "GameManager",
    "GameOverError",
    "GameRecord",
    "GameStatus",
    "Geometry",
    "IllegalMoveError",
    "InputError",
    "InvalidBoardError",
    "Knowledge",
    "ManagerError",
    "MineshaftedError",
    "NeedsGuess",
    "NoPlacementError",
    "Position",
    "Puzzle",
    "PuzzleFormatError",
    "Rating",
    "RecordFormatError",
    "Rules",
    "Stage",
    "StartError",
    "Status",
    "Sweep",
    "SweepReport",
    "Technique",
    "parse_puzzles",
    "rate",
    "read_puzzles",
    "read_record",
    "rebuild",
    "render",
    "sweep_mines",
    "write_record",
]

try:
    __version__ = version("mineshafted")
except PackageNotFoundError:  # pragma: no cover - imported from a source tree, not installed
    __version__ = "0+unknown"
