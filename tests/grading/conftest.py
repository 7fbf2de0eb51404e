"""Shared by the grading tests: small boards, and submissions written to files."""

from __future__ import annotations

import json
import os
import re
import textwrap
from pathlib import Path

import pytest

from mineshafted import Board, Puzzle
from mineshafted.grading import BoardResult, Sandbox, boards, grade_board
from mineshafted.grading.sandbox import WORK_FOLDER, bwrap_problem

NO_BWRAP = bwrap_problem()
"""Why bubblewrap cannot run here (``None`` when it can)."""

REQUIRE_BWRAP = bool(os.environ.get("MINESHAFTED_REQUIRE_SANDBOX"))
"""Set by CI where bwrap is installed: a sandbox that cannot run is then a failure."""


@pytest.fixture
def _bwrap_required() -> None:
    pytest.fail(f"MINESHAFTED_REQUIRE_SANDBOX is set, but bubblewrap cannot run: {NO_BWRAP}")


if NO_BWRAP is not None and REQUIRE_BWRAP:
    needs_bwrap = pytest.mark.usefixtures("_bwrap_required")
else:
    needs_bwrap = pytest.mark.skipif(
        NO_BWRAP is not None, reason=f"bubblewrap cannot run here: {NO_BWRAP}"
    )
"""Mark a test that needs a working bubblewrap (``.ci/run`` installs it and requires it)."""

SANDBOXES = [
    pytest.param(Sandbox.BWRAP, id="bwrap", marks=needs_bwrap),
    pytest.param(Sandbox.NONE, id="none"),
]
"""Parametrize a test over both sandboxes."""

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


SOLVE = """
def solve(bm):
    rows, cols = bm.size
    clues, mines = {0: bm.move(0)}, set()
    while True:
        rules = []
        for cell, clue in clues.items():
            around = bm.get_adjacent(cell)
            hidden = [n for n in around if n not in clues and n not in mines]
            if hidden:
                rules.append((hidden, clue - sum(n in mines for n in around)))
        cells = sorted({n for hidden, _ in rules for n in hidden})
        seen, chosen = {n: set() for n in cells}, {}

        def search(k):
            for hidden, need in rules:
                set_ = sum(chosen.get(n, 0) for n in hidden)
                if set_ > need or set_ + sum(n not in chosen for n in hidden) < need:
                    return
            if k == len(cells):
                for n in cells:
                    seen[n].add(chosen[n])
                return
            for value in (0, 1):
                chosen[cells[k]] = value
                search(k + 1)
            del chosen[cells[k]]

        search(0)
        safe = [n for n in cells if seen[n] == {0}]
        mines |= {n for n in cells if seen[n] == {1}}
        for n in safe:
            clues[n] = bm.move(n)
        if not safe:
            break
    return [[-1 if r * cols + c in mines else clues[r * cols + c] for c in range(cols)]
            for r in range(rows)]
"""
"""``solve(bm)``: a self-contained solver for small no-guess boards (every frontier
assignment tried), since a sandboxed child cannot import ``mineshafted``."""

CORRECT = SOLVE + "\nsweep_mines = solve\n"
"""A submission that solves every no-guess board that needs no mine total."""

CORRECT_BY_IMPORT = "from mineshafted import sweep_mines\n"
"""The package's own solver as a submission: it runs only without a sandbox."""


def one_board(
    path: Path,
    board: Board = TWO,
    timeout: float = 10.0,
    memory: int = 1024,
    sandbox: Sandbox | None = None,
) -> BoardResult:
    """Grade ``path`` on one board (by default in bubblewrap where it runs)."""
    return grade_board(
        path, Puzzle(board), "board", timeout=timeout, memory_mb=memory, sandbox=sandbox
    )


IMPORT_CHECK = """
import os, resource

def check():
    if resource.getrlimit(resource.RLIMIT_AS) != ({memory}, {memory}):
        raise RuntimeError(f"address space {{resource.getrlimit(resource.RLIMIT_AS)}}")
    if resource.getrlimit(resource.RLIMIT_CPU) != ({cpu}, {cpu}):
        raise RuntimeError(f"cpu {{resource.getrlimit(resource.RLIMIT_CPU)}}")
    if {outside} and os.getcwd() == {work!r}:
        raise RuntimeError("inside the bwrap sandbox")

check()

def sweep_mines(bm):
    check()
    return None
"""
"""A submission that fails (imported, and swept) unless it runs under the limits (and outside
bwrap) given."""


def checked(tmp_path: Path, memory: int, cpu: int, outside: bool = False) -> Path:
    """:data:`IMPORT_CHECK` for these limits, written to a file in ``tmp_path``."""
    code = IMPORT_CHECK.format(memory=memory, cpu=cpu, outside=outside, work=WORK_FOLDER)
    return submission(tmp_path, code)


SMALL_SETS = ((4, 4, 1, 2), (5, 5, 2, 1), (6, 6, 3, 1), (6, 6, 4, 1), (8, 8, 5, 1))
"""One or two boards a tier: enough for the command's tests, quick to grade."""


@pytest.fixture
def small_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fewer default boards: the command's tests grade them quickly."""
    monkeypatch.setattr(boards, "FRESH_SETS", SMALL_SETS)


def lookup_submission(
    tmp_path: Path, known: list[list[list[int]]], name: str = "lookup.py"
) -> Path:
    """A submission that solves nothing: it carries ``known`` boards, tells the ones of the
    board's size apart by a few safe moves, and answers the one left, moving onto its safe
    cells."""
    code = f"""
KNOWN = {json.dumps(known)}

def sweep_mines(bm):
    rows, cols = bm.size
    cells = rows * cols
    first = bm.move(0)
    left = [b for b in KNOWN if (len(b), len(b[0])) == (rows, cols) and b[0][0] == first]
    while len(left) > 1:  # a safe move whose clue tells the candidates apart
        for n in range(cells):
            seen = {{b[n // cols][n % cols] for b in left}}
            if -1 not in seen and len(seen) > 1:
                clue = bm.move(n)
                left = [b for b in left if b[n // cols][n % cols] == clue]
                break
        else:
            break
    if not left:
        return [[0] * cols for _ in range(rows)]
    board = left[0]
    for n in range(1, cells):
        if board[n // cols][n % cols] >= 0:
            bm.move(n)
    return board
"""
    return submission(tmp_path, code, name=name)


def raised(detail: str) -> str:
    """A crash's detail without where in the submission's code it was raised: the exception
    alone, as tests that pass facts out in an exception's message compare it."""
    return re.sub(r" \(in \S+, innermost last.*\)\Z", "", detail, flags=re.S)


collect_ignore = ["hostile"]
"""The hostile submissions are files to grade, not modules to import (test_hostile.py)."""
