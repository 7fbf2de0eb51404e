"""Shared test helpers: a stand-in for the course's manager, a recording wrapper, a shorthand
for a player's view, and the cores every cross-check of a fast form runs under."""

from __future__ import annotations

import os
import runpy
import sys
import threading
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from mineshafted import Board, core
from mineshafted.solver.count import counted

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
"""The repository's ``scripts/``: benchmarks and makers, not part of the package."""


def script(name: str) -> dict[str, Any]:
    """The globals of ``scripts/NAME`` run as a module (not as ``__main__``), with ``scripts/``
    on the path while it runs: a script imports its neighbours (``sizes``, ``bench_play``)."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        return runpy.run_path(str(SCRIPTS / name))
    finally:
        sys.path.remove(str(SCRIPTS))


REQUIRE_COMPILED = bool(os.environ.get("MINESHAFTED_REQUIRE_COMPILED"))
"""Set (CI sets it): a test under the compiled core fails, instead of skipping, where the
compiled core was not built."""


@pytest.fixture(scope="module", params=["plain", "compiled"])
def each_core(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the module's tests once under each core (``pytestmark =
    pytest.mark.usefixtures("each_core")``): the plain Python forms, then the compiled ones.
    Under the compiled core a test skips where it was not built (fails with
    ``MINESHAFTED_REQUIRE_COMPILED``)."""
    choice: str = request.param
    if choice == "compiled" and not core.available():
        why = core.describe()
        if REQUIRE_COMPILED:
            pytest.fail(f"MINESHAFTED_REQUIRE_COMPILED is set, but {why}")
        pytest.skip(why)
    counted.cache_clear()  # counts remembered under the other core would answer for this one
    with core.use(choice):
        yield choice
    counted.cache_clear()


class CourseManager:
    """Behaves like the course's starter: ``move`` is a generator's ``send`` that raises a bare
    ``RuntimeError`` on a mine (and ``StopIteration`` ever after), ``size`` is a plain attribute."""

    def __init__(self, board: list[list[int]]) -> None:
        self.size = (len(board), len(board[0]))
        it = CourseManager._move(board, self.size[1])
        next(it)
        self.move = it.send

    def get_adjacent(self, index: int) -> list[int]:
        rows, cols = self.size
        row, col = index // cols, index % cols
        # Reverse row-major order on purpose: a solver must not rely on the order.
        return [
            i * cols + j
            for i in range(min(row + 2, rows) - 1, max(row - 1, 0) - 1, -1)
            for j in range(min(col + 2, cols) - 1, max(col - 1, 0) - 1, -1)
            if index != i * cols + j
        ]

    @staticmethod
    def _move(board: list[list[int]], width: int) -> Generator[int, int, None]:
        index = yield 0
        while True:
            clue = board[index // width][index % width]
            if clue == -1:
                raise RuntimeError
            index = yield clue


class Recorder:
    """Wraps a manager and records every move, failing the test on a mine or a repeat."""

    def __init__(self, inner: object, board: Board) -> None:
        self.inner = inner
        self.board = board
        self.size = inner.size  # type: ignore[attr-defined]
        self.moves: list[int] = []

    def move(self, index: int) -> int:
        assert self.board.values[index] != -1, f"moved onto the mine at {index}"
        assert index not in self.moves, f"moved onto {index} twice"
        self.moves.append(index)
        return self.inner.move(index)  # type: ignore[attr-defined,no-any-return]

    def get_adjacent(self, index: int) -> list[int]:
        return self.inner.get_adjacent(index)  # type: ignore[attr-defined,no-any-return]


SAMPLE = [[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]
"""The assignment's 4x3 sample board."""

HUNTED = [
    [0, 0, 0, 1, -1, 1, 0, 0, 0],
    [0, 0, 0, 2, 2, 3, 2, 2, 1],
    [0, 0, 1, 2, -1, 3, -1, -1, 1],
    [0, 0, 1, -1, 4, -1, 4, 4, 2],
    [0, 0, 1, 3, -1, 4, -1, 3, -1],
    [0, 0, 0, 2, -1, 4, 2, 4, -1],
    [1, 1, 0, 1, 1, 2, -1, 3, 2],
    [-1, 1, 0, 0, 0, 1, 2, -1, 1],
]
"""A board that AC-3 alone cannot finish: the component search proves the way through."""


@pytest.fixture
def sample() -> list[list[int]]:
    return [row[:] for row in SAMPLE]


VIEW_CODES: dict[str, int | None] = {".": 0, "?": None, "*": -1, **{str(n): n for n in range(9)}}
"""What each character of :func:`view_of` stands for: a clue, ``.`` a 0, ``?`` an unknown cell,
``*`` a known mine (-1)."""


def view_of(text: str) -> list[list[int | None]]:
    """A player's view from one line of characters per row, e.g. ``"1?1\\n.2*"``.

    Digits are clues, ``.`` a 0, ``?`` an unknown cell (``None``), ``*`` a known mine (-1).
    Blank lines and spaces are ignored, so a view can be written indented, with spaces
    between its cells. A character that stands for nothing, or rows of unequal length, raise
    ``ValueError``.
    """
    rows = ["".join(line.split()) for line in text.splitlines()]
    grid = [[_view_code(char) for char in row] for row in rows if row]
    if not grid or any(len(row) != len(grid[0]) for row in grid):
        raise ValueError(f"not a rectangle of cells: {text!r}")
    return grid


def _view_code(char: str) -> int | None:
    if char not in VIEW_CODES:
        raise ValueError(f"{char!r} is not a view cell: a digit, '.', '?' or '*'")
    return VIEW_CODES[char]


def raised_within(read: Callable[[], object], seconds: float = 10) -> BaseException | None:
    """What ``read()`` raises (``None`` if nothing), failing the test if it has not returned
    within ``seconds`` (a FIFO waiting for its writer: the daemon thread is left waiting)."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            read()
            outcome.append(None)
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, f"still waiting after {seconds} s"
    return outcome[0]
