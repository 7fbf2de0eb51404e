"""The shipped puzzle sets: no-guess ones are solved exactly, needs-guess ones stall cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest

from mineshafted import BoardManager, NeedsGuess, Sweep, read_puzzles, sweep_mines
from mineshafted.formats import find_puzzle_files

from .conftest import CourseManager, script

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
NO_GUESS = sorted(find_puzzle_files([PUZZLES / "no-guess"]))
NEEDS_GUESS = sorted(find_puzzle_files([PUZZLES / "needs-guess"]))


def test_the_sets_are_there() -> None:
    assert len(NO_GUESS) >= 50 and len(NEEDS_GUESS) >= 4
    sizes = {p.parent.name for p in NO_GUESS}
    assert {"4x3-sample", "9x9-10", "16x16-40", "30x16-99", "60x60-540", "200x200-5000"} <= sizes


@pytest.mark.parametrize("path", NO_GUESS, ids=lambda p: str(p.relative_to(PUZZLES)))
def test_no_guess_puzzles_are_solved(path: Path) -> None:
    (puzzle,) = read_puzzles(path)
    report = Sweep(BoardManager(puzzle.board), start=puzzle.start).run()
    assert report.solved
    assert report.board == puzzle.board.to_grid()
    assert report.moves == puzzle.board.safe_count


@pytest.mark.parametrize("path", NO_GUESS[:12], ids=lambda p: str(p.relative_to(PUZZLES)))
def test_no_guess_puzzles_with_the_course_manager(path: Path) -> None:
    (puzzle,) = read_puzzles(path)
    assert puzzle.start == 0
    assert sweep_mines(CourseManager(puzzle.board.to_grid())) == puzzle.board.to_grid()


@pytest.mark.parametrize("path", NEEDS_GUESS, ids=lambda p: p.name)
def test_needs_guess_puzzles_raise_and_never_explode(path: Path) -> None:
    (puzzle,) = read_puzzles(path)
    with pytest.raises(NeedsGuess) as info:
        sweep_mines(BoardManager(puzzle.board))
    truth = puzzle.board.values
    for cell, value in enumerate(v for row in info.value.board for v in row):
        assert value is None or value == truth[cell]
    assert info.value.frontier


def test_make_puzzles_reproduces_the_shipped_files() -> None:
    files = script("make_puzzles.py")["puzzles"]()
    for relative, text in files.items():
        assert (PUZZLES / relative).read_text() == text, relative
    assert len(files) == len(NO_GUESS) + len(NEEDS_GUESS)
