"""Puzzle files in and out: the only file I/O of the core.

A puzzle is a JSON object ``{"board": [[...]], "name": ..., "source": ..., "start": [r, c]}``
(only ``board`` required), or a bare 2D list. Several puzzles may share one file as JSON Lines,
one puzzle per line. Unknown fields are kept, so reading and writing a puzzle loses nothing.

A boards file (``mineshafted play --boards``) is JSON Lines of boards to play, each a puzzle or
a mine list ``{"rows": R, "cols": C, "mines": [[r, c], ...], "first": [r, c]}``
(:func:`parse_board`); it is read a line at a time (:func:`read_lines`), never whole.
"""

from __future__ import annotations

from ..board import MAX_CELLS
from .boards import parse_board
from .puzzles import (
    Puzzle,
    dump_puzzle,
    find_puzzle_files,
    format_puzzle,
    parse_puzzles,
    read_puzzles,
)
from .reading import MAX_FILE_BYTES, STDIN, read_bytes, read_lines, read_text, writing

__all__ = [
    "MAX_CELLS",
    "MAX_FILE_BYTES",
    "STDIN",
    "Puzzle",
    "dump_puzzle",
    "find_puzzle_files",
    "format_puzzle",
    "parse_board",
    "parse_puzzles",
    "read_bytes",
    "read_lines",
    "read_puzzles",
    "read_text",
    "writing",
]
