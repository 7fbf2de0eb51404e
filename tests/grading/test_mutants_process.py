"""The child's standard input, its exit status through bubblewrap, and the board a result
describes (gaps found by mutation testing)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from mineshafted import Puzzle
from mineshafted.grading import Outcome, PuzzleStartError, Sandbox, grade_board

from .conftest import SANDBOXES, TWO, one_board, submission


@pytest.fixture
def piped_stdin() -> Iterator[None]:
    """This process's standard input is a pipe with a line in it while the test runs."""
    saved = os.dup(0)
    read, write = os.pipe()
    os.write(write, b"the grader's input\n")
    os.dup2(read, 0)
    try:
        yield
    finally:
        os.dup2(saved, 0)
        for fd in (saved, read, write):
            os.close(fd)


@pytest.mark.usefixtures("piped_stdin")
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_the_child_reads_nothing_of_the_graders_input(tmp_path: Path, sandbox: Sandbox) -> None:
    code = """
        import os

        def sweep_mines(bm):
            print(repr(os.read(0, 100)), os.path.realpath("/proc/self/fd/0"))
        """
    result = one_board(submission(tmp_path, code), sandbox=sandbox)
    assert result.output == "b'' /dev/null\n"


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize(
    ("code", "detail"),
    [
        ("os._exit(128)", "exited with status 128"),
        ("os.kill(os.getpid(), 15)", "killed by SIGTERM"),
    ],
)
def test_an_exit_is_reported_the_same_in_either_sandbox(
    tmp_path: Path, sandbox: Sandbox, code: str, detail: str
) -> None:
    path = submission(tmp_path, f"import os\ndef sweep_mines(bm):\n    {code}\n")
    result = one_board(path, sandbox=sandbox)
    assert (result.outcome, result.detail) == (Outcome.CRASHED, detail)


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_an_exit_status_above_128_is_an_exit_status(tmp_path: Path, sandbox: Sandbox) -> None:
    path = submission(tmp_path, "import os\ndef sweep_mines(bm):\n    os._exit(200)\n")
    result = one_board(path, sandbox=sandbox)
    assert (result.outcome, result.detail) == (Outcome.CRASHED, "exited with status 200")


def test_a_result_names_its_board(tmp_path: Path) -> None:
    result = one_board(submission(tmp_path, "def sweep_mines(bm):\n    bm.move(0)\n"))
    assert (result.puzzle, result.rows, result.cols, result.mines, result.moves) == (
        "board",
        4,
        5,
        2,
        1,
    )


def test_output_that_is_not_utf8_is_kept_with_replacements(tmp_path: Path) -> None:
    code = "import sys\ndef sweep_mines(bm):\n    sys.stdout.buffer.write(b'a\\xffb')\n"
    result = one_board(submission(tmp_path, code), sandbox=Sandbox.NONE)
    assert (result.output, result.output_bytes) == ("a\ufffdb", 3)


def test_a_board_that_starts_elsewhere_is_refused_by_its_label(tmp_path: Path) -> None:
    path = submission(tmp_path, "def sweep_mines(bm):\n    return None\n")
    with pytest.raises(PuzzleStartError) as raised:
        grade_board(path, Puzzle(TWO, start=6), "elsewhere", sandbox=Sandbox.NONE)
    assert (raised.value.label, raised.value.row, raised.value.col) == ("elsewhere", 1, 1)
