"""The default boards to grade on: made fresh for each grading, in the rubric's tiers.

A fixed set of boards can be looked up: a submission that carries the shipped puzzles and
tells same-size boards apart with a few safe moves would score full marks solving nothing.
So by default every grading plays boards made for it from a seed, and the seed is a keyed
hash of a secret the instructor keeps (:mod:`.key`): it is never printed, since the same
seed makes the same boards.

Every board is rated ``ac3`` or below (:mod:`mineshafted.rating`): the assignment promises
boards "solvable using inference via constraint propagation without any guessing", and a
correct AC-3 over the clue domains, exploring every cell it proves safe, solves each one.
"""

from __future__ import annotations

import random
from pathlib import Path

from ..formats import Puzzle, find_puzzle_files, read_puzzles
from ..generate import generate_many
from ..solver.technique import Technique

__all__ = ["FRESH_SETS", "TECHNIQUE", "fresh_boards", "puzzle_files"]

FRESH_SETS: tuple[tuple[int, int, int, int], ...] = (
    (4, 4, 1, 4),
    (5, 5, 2, 4),
    (6, 6, 3, 4),
    (6, 6, 4, 4),
    (8, 8, 5, 4),
    (9, 9, 10, 4),
    (16, 16, 40, 4),
    (16, 30, 99, 4),
)
"""``(rows, cols, mines, boards)``: four boards for each of the tiers of exactly 1, 2, 3 and 4
mines, and for 5+ four each at 8x8/5 and the three classic levels up to expert."""

TECHNIQUE = Technique.AC3
"""The strongest reasoning a default board may need: the assignment's own method."""


def fresh_boards(seed: int) -> list[tuple[str, Puzzle]]:
    """The default grading boards made from ``seed``, labelled ``ROWSxCOLS-MINES-N``.

    Whoever knows ``seed`` can make the same boards: a grading takes it from its board set
    (:meth:`.key.BoardSet.boards`, a 256-bit keyed hash), and never shows it.

    Examples
    --------
    >>> boards = fresh_boards(7)
    >>> len(boards), boards[0][0], boards[-1][0]
    (32, '4x4-1-1', '16x30-99-4')
    >>> [label for label, _ in fresh_boards(7)] == [label for label, _ in boards]
    True

    Notes
    -----
    One generation per board (each ``generate --technique ac3``): tens of milliseconds in
    all, the expert boards the most.
    """
    seeds = random.Random(seed)
    boards: list[tuple[str, Puzzle]] = []
    for rows, cols, mines, count in FRESH_SETS:
        made = generate_many(
            rows, cols, mines, count, seed=seeds.randrange(2**63), technique=TECHNIQUE
        )
        for number, generated in enumerate(made, 1):
            label = f"{rows}x{cols}-{mines}-{number}"
            boards.append((label, generated.to_puzzle(name=label)))
    return boards


def puzzle_files(paths: list[Path]) -> list[tuple[str, Puzzle]]:
    """The puzzles of files or folders of them, to grade on instead of fresh boards, each
    labelled by its file (and its number, in a file of several): relative to here, or to
    the shipped puzzles.

    Raises
    ------
    MineshaftedError
        A file cannot be read as puzzles (:func:`mineshafted.formats.read_puzzles`).
    """
    items: list[tuple[str, Puzzle]] = []
    for path in find_puzzle_files(paths):
        found = read_puzzles(path)
        label = _short(path)
        for number, puzzle in enumerate(found, 1):
            name = label if len(found) == 1 else f"{label}:{number}"
            items.append((name, puzzle))  # grade() refuses a puzzle that starts elsewhere
    return items


def _short(path: Path) -> str:
    """A path as the user would like to read it: relative to here, or to the shipped sets."""
    from .grade import shipped_puzzles_root

    resolved = path.resolve()
    for base in (shipped_puzzles_root(), Path.cwd()):
        if base is not None and resolved.is_relative_to(base):
            return str(resolved.relative_to(base))
    return str(path)
