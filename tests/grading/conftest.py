"""Shared by the grading tests: small boards, and submissions written to files."""

from __future__ import annotations

import textwrap
from pathlib import Path

from mineshafted import Board, Puzzle
from mineshafted.grading import BoardResult, grade_board

# Small boards: 1, 2 and 5 mines, all starting on a 0 at index 0.
ONE = Board.from_text(
    """
    . . . .
    . . . .
    . . . *
    . . . .
    """
)
TWO = Board.from_text(
    """
    . . . . .
    . . . * .
    . . . . .
    * . . . .
    """
)
FIVE = Board.from_text(
    """
    . . . . . *
    . . . . . .
    . . * . . .
    * . . . . .
    . . . . * .
    . * . . . .
    """
)
PUZZLES = [("one", Puzzle(ONE)), ("two", Puzzle(TWO)), ("five", Puzzle(FIVE))]


def submission(tmp_path: Path, code: str, name: str = "sub.py") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(code))
    return path


CORRECT = "from mineshafted import sweep_mines\n"
"""A submission that solves every no-guess board: the package's own solver."""


def one_board(
    path: Path, board: Board = TWO, timeout: float = 10.0, memory: int = 1024
) -> BoardResult:
    """Grade ``path`` on one board."""
    return grade_board(path, Puzzle(board), "board", timeout=timeout, memory_mb=memory)
