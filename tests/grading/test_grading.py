"""The grading harness against well-behaved, broken and hostile submissions: the report of each
board, the limits and sandbox a grade runs under, and the shipped puzzles it grades by default."""

from __future__ import annotations

import importlib
import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.grading import (
    BoardResult,
    GradingError,
    Limits,
    Sandbox,
    SubmissionError,
    Verdict,
    check_submission,
    grade,
    shipped_puzzles,
)
from mineshafted.grading.limits import MIB

from .conftest import (
    CORRECT,
    ONE,
    PUZZLES,
    SANDBOXES,
    SOLVE,
    checked,
    needs_bwrap,
    one_board,
    submission,
)

runner = CliRunner()

grade_module = importlib.import_module("mineshafted.grading.grade")
"""The module (its name in the package is the function ``grade``)."""


@pytest.mark.slow
def test_a_correct_submission_earns_full_marks(tmp_path: Path) -> None:
    report = grade(submission(tmp_path, CORRECT), PUZZLES)
    assert [b.outcome for b in report.boards] == [Verdict.SOLVED] * 3
    assert [b.moves for b in report.boards] == [15, 18, 31]
    by_name = {a.name: a for a in report.achievements}
    assert by_name["Sweeps 1 Mine"].earned and by_name["Sweeps 2 Mines"].earned
    assert by_name["Sweeps 5+ Mines"].earned
    assert not by_name["Sweeps 3 Mines"].earned and by_name["Sweeps 3 Mines"].graded == 0
    assert report.score == 10 + 15 + 30


@pytest.mark.slow
def test_full_marks_on_the_shipped_tiers(tmp_path: Path) -> None:
    from mineshafted.formats import find_puzzle_files, read_puzzles

    files = find_puzzle_files(
        [shipped_puzzles() / f"tier-{n}-mine{'s' if n > 1 else ''}" for n in range(1, 6)]
    )
    report = grade(
        submission(tmp_path, CORRECT), [(str(p), read_puzzles(p)[0]) for p in files], jobs=2
    )
    assert report.score == 100


def test_exploding(tmp_path: Path) -> None:
    path = submission(
        tmp_path,
        """
        def sweep_mines(bm):
            rows, cols = bm.size
            return [[bm.move(r * cols + c) for c in range(cols)] for r in range(rows)]
        """,
    )
    result = one_board(path)
    assert result.outcome is Verdict.EXPLODED
    assert result.detail == "moved onto the mine at cell 8 (row 1, column 3)"
    assert result.moves == 8


@pytest.mark.slow
def test_catching_the_explosion_does_not_help(tmp_path: Path) -> None:
    path = submission(
        tmp_path,
        SOLVE
        + textwrap.dedent(
            """
        real = solve

        def sweep_mines(bm):
            try:
                bm.move(8)
            except RuntimeError:
                pass
            return real(bm)
        """
        ),
    )
    assert one_board(path).outcome is Verdict.EXPLODED


@pytest.mark.slow  # it times a child against a wall-clock bound
def test_looping_forever_times_out_after_the_whole_limit(tmp_path: Path) -> None:
    # The limit is the sweep's own: the time reported is the time it had, never less (once,
    # 1.924 s for a limit of 2 s, the interpreter's start counted against it).
    slow_import = "import time\ntime.sleep(0.5)\n"
    path = submission(
        tmp_path, slow_import + "def sweep_mines(bm):\n    while True:\n        pass\n"
    )
    result = one_board(path, timeout=1.0)
    assert result.outcome is Verdict.TIMED_OUT
    assert result.detail == "no answer within 1 s"
    assert result.seconds >= 1.0


@pytest.mark.slow
def test_raising_is_a_crash_with_type_and_message(tmp_path: Path) -> None:
    path = submission(tmp_path, "def sweep_mines(bm):\n    raise ValueError('no idea')\n")
    result = one_board(path)
    assert (result.outcome, result.detail) == (
        Verdict.CRASHED,
        "ValueError: no idea (in sub.py, innermost last: line 2, in sweep_mines: "
        "raise ValueError('no idea'))",
    )


@pytest.mark.slow
def test_sys_exit_costs_only_that_board(tmp_path: Path) -> None:
    path = submission(tmp_path, "import sys\ndef sweep_mines(bm):\n    sys.exit(3)\n")
    report = grade(path, PUZZLES[:2])
    assert [(b.outcome, b.detail) for b in report.boards] == [
        (
            Verdict.CRASHED,
            "SystemExit: 3 (in sub.py, innermost last: line 3, in sweep_mines: sys.exit(3))",
        )
    ] * 2


def test_hard_exit_is_a_crash(tmp_path: Path) -> None:
    path = submission(tmp_path, "import os\ndef sweep_mines(bm):\n    os._exit(0)\n")
    result = one_board(path)
    assert (result.outcome, result.detail) == (Verdict.CRASHED, "exited with status 0")


@pytest.mark.slow
def test_a_wrong_board(tmp_path: Path) -> None:
    path = submission(
        tmp_path,
        """
        def sweep_mines(bm):
            rows, cols = bm.size
            bm.move(0)
            return [[0] * cols for _ in range(rows)]
        """,
    )
    result = one_board(path)
    assert (result.outcome, result.detail) == (
        Verdict.WRONG,
        "cell 2 (row 0, column 2) is 0, not 1, and 12 other cells are wrong; your sweep never "
        "moved onto 17 safe cells",
    )
    bad_type = submission(tmp_path, "def sweep_mines(bm):\n    return 'solved!'\n", "str.py")
    assert one_board(bad_type).detail == "returned str, not a list of rows"
    bad_shape = submission(tmp_path, "def sweep_mines(bm):\n    return [[0]]\n", "shape.py")
    assert one_board(bad_shape).detail == "returned a 1x1 board for a 4x5 one"


def test_printing_a_lot_stays_out_of_the_report(tmp_path: Path) -> None:
    path = submission(
        tmp_path,
        SOLVE
        + textwrap.dedent(
            """
        import sys
        real = solve

        def sweep_mines(bm):
            for _ in range(100_000):
                print("x" * 99)
            print("to stderr", file=sys.stderr)
            return real(bm)
        """
        ),
    )
    result = one_board(path)
    assert result.outcome is Verdict.SOLVED
    assert result.output_bytes == 100 * 100_000 + len("to stderr\n")
    assert len(result.output) == 64 * 1024 and result.output.startswith("x" * 99)


def test_memory_hog_is_stopped(tmp_path: Path) -> None:
    path = submission(tmp_path, "def sweep_mines(bm):\n    return [0] * (10 ** 10)\n")
    result = one_board(path, memory=256)
    assert result.outcome is Verdict.CRASHED and result.detail.startswith("MemoryError")


def test_its_own_board_manager_is_ignored(tmp_path: Path) -> None:
    path = submission(
        tmp_path,
        """
        class BoardManager:
            def __init__(self, board):
                self.size = (1, 1)
            def move(self, index):
                return 0

        def sweep_mines(bm):
            assert not isinstance(bm, BoardManager)
            return [[0] * bm.size[1] for _ in range(bm.size[0])]
        """,
    )
    result = one_board(path, board=ONE)
    assert result.outcome is Verdict.WRONG


CHEAT = """
import gc, inspect, sys

def _grids(rows, cols):
    for obj in gc.get_objects():
        flat = isinstance(obj, (list, tuple)) and len(obj) == rows * cols
        if flat and all(type(v) is int for v in obj):
            yield [list(obj[r * cols:(r + 1) * cols]) for r in range(rows)]
        nested = isinstance(obj, list) and len(obj) == rows
        if nested and all(isinstance(r, list) and len(r) == cols for r in obj):
            yield obj

def sweep_mines(bm):
    rows, cols = bm.size
    seen = [repr(vars(bm)), repr(inspect.getmembers(bm))]
    for frame in sys._current_frames().values():
        while frame is not None:
            seen.append(repr(frame.f_locals))
            frame = frame.f_back
    for grid in _grids(rows, cols):
        if any(-1 in row for row in grid):
            return grid
    print("\\n".join(seen))
    raise LookupError("no board anywhere")
"""


def test_a_cheat_learns_nothing_from_the_manager(tmp_path: Path) -> None:
    result = one_board(submission(tmp_path, CHEAT))
    assert result.outcome is Verdict.CRASHED
    assert result.detail == (
        "LookupError: no board anywhere (in sub.py, innermost last: line 24, in sweep_mines: "
        'raise LookupError("no board anywhere"))'
    )
    assert result.moves == 0
    # What it could see: its own manager, the channel to the parent, no clue values.
    assert "_channel" in result.output


@pytest.mark.slow
def test_unimportable_submissions_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SubmissionError, match="SyntaxError"):
        check_submission(submission(tmp_path, "def sweep_mines(bm:\n", "syntax.py"))
    with pytest.raises(SubmissionError, match="defines no function sweep_mines"):
        check_submission(submission(tmp_path, "x = 1\n", "empty.py"))
    with pytest.raises(SubmissionError, match="no such file"):
        check_submission(tmp_path / "missing.py")
    with pytest.raises(SubmissionError, match="ModuleNotFoundError"):
        check_submission(submission(tmp_path, "import no_such_module_here\n", "imports.py"))


def write_puzzles(tmp_path: Path) -> Path:
    folder = tmp_path / "boards"
    folder.mkdir()
    for name, puzzle in PUZZLES:
        (folder / f"{name}.json").write_text(
            json.dumps({"board": puzzle.board.to_grid(), "name": name})
        )
    return folder


@pytest.mark.slow
def test_cli_grade_table_and_score(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["grade", str(submission(tmp_path, CORRECT)), str(write_puzzles(tmp_path))]
    )
    assert result.exit_code == 0, result.output
    assert "Sweeps 5+ Mines" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1] == "score: 55% (3 of 5 achievements)"


@pytest.mark.slow
def test_cli_grade_json_and_log(tmp_path: Path) -> None:
    noisy = submission(
        tmp_path,
        SOLVE + "s = solve\ndef sweep_mines(bm):\n    print('hello')\n    return s(bm)\n",
    )
    log = tmp_path / "out.log"
    result = runner.invoke(
        app, ["grade", "--json", "--log", str(log), str(noisy), str(write_puzzles(tmp_path))]
    )
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["score"] == 55
    assert {b["outcome"] for b in report["boards"]} == {"solved"}
    assert "hello" not in result.stdout
    assert log.read_text().count("hello") == 3


@pytest.mark.slow
def test_cli_grade_exit_codes(tmp_path: Path) -> None:
    boards = str(write_puzzles(tmp_path))
    broken = runner.invoke(app, ["grade", str(submission(tmp_path, "def (\n", "bad.py")), boards])
    assert broken.exit_code == 2
    assert broken.stderr.startswith("error: ") and "SyntaxError" in broken.stderr
    missing = runner.invoke(app, ["grade", str(tmp_path / "nope.py"), boards])
    assert missing.exit_code == 2 and "no such file" in missing.stderr
    no_puzzle = runner.invoke(
        app, ["grade", str(submission(tmp_path, CORRECT)), str(tmp_path / "none.json")]
    )
    assert no_puzzle.exit_code == 2 and "none.json: no such file" in no_puzzle.stderr
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps({"board": ONE.to_grid(), "start": [3, 0]}))
    moved = runner.invoke(app, ["grade", str(submission(tmp_path, CORRECT)), str(elsewhere)])
    assert moved.exit_code == 2 and "starts at [3, 0]" in moved.stderr
    failing = runner.invoke(
        app,
        [
            "grade",
            str(submission(tmp_path, "def sweep_mines(bm):\n    raise ValueError\n", "fail.py")),
            boards,
        ],
    )
    assert failing.exit_code == 0


def test_a_grading_process_that_cannot_start_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.executable", str(tmp_path / "no-python-here"))
    with pytest.raises(GradingError, match="cannot start a grading process"):
        check_submission(submission(tmp_path, CORRECT), sandbox=Sandbox.NONE)


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
    assert (result.outcome, result.detail) == (Verdict.CRASHED, detail)


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_an_exit_status_above_128_is_an_exit_status(tmp_path: Path, sandbox: Sandbox) -> None:
    path = submission(tmp_path, "import os\ndef sweep_mines(bm):\n    os._exit(200)\n")
    result = one_board(path, sandbox=sandbox)
    assert (result.outcome, result.detail) == (Verdict.CRASHED, "exited with status 200")


def test_a_result_names_its_board(tmp_path: Path) -> None:
    result = one_board(submission(tmp_path, "def sweep_mines(bm):\n    bm.move(0)\n"))
    assert (result.puzzle, result.rows, result.cols, result.mines, result.moves) == (
        "board",
        4,
        5,
        2,
        1,
    )


@pytest.mark.slow
@needs_bwrap
def test_grade_checks_and_plays_in_the_sandbox_it_chose(tmp_path: Path) -> None:
    path = checked(tmp_path, memory=1024 * MIB, cpu=Limits(timeout=10.0).cpu_seconds, outside=True)
    report = grade(path, PUZZLES[:1], timeout=10.0, sandbox=Sandbox.NONE)
    assert [(b.outcome, b.detail) for b in report.boards] == [
        (Verdict.WRONG, "returned NoneType, not a list of rows")
    ]


@pytest.mark.slow
def test_grade_checks_and_plays_under_the_limits_asked_for(tmp_path: Path) -> None:
    path = checked(tmp_path, memory=300 * MIB, cpu=Limits(timeout=2.5).cpu_seconds)
    report = grade(path, PUZZLES[:1], timeout=2.5, memory_mb=300, sandbox=Sandbox.NONE)
    assert [(b.outcome, b.detail) for b in report.boards] == [
        (Verdict.WRONG, "returned NoneType, not a list of rows")
    ]


@pytest.mark.slow
def test_grade_plays_one_board_at_a_time_by_default(tmp_path: Path) -> None:
    # The first board (4 x 4) is slow, the second fast: one at a time, they finish in order.
    code = """
        import time

        def sweep_mines(bm):
            if bm.size == (4, 4):
                time.sleep(0.6)
            return None
        """
    done: list[str] = []

    def progress(result: BoardResult) -> None:
        done.append(result.puzzle)

    grade(submission(tmp_path, code), PUZZLES[:2], progress=progress, sandbox=Sandbox.NONE)
    assert done == ["one", "two"]


def test_without_the_shipped_puzzles_the_grader_says_to_name_puzzle_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(grade_module, "shipped_puzzles_root", lambda: None)
    with pytest.raises(GradingError) as raised:
        grade_module.shipped_puzzles()
    assert str(raised.value) == "the shipped puzzles are not installed: name puzzle files to grade"


def test_the_shipped_puzzles_are_the_no_guess_sets() -> None:
    root = grade_module.shipped_puzzles_root()
    assert root is not None and (root / "no-guess").is_dir()
    assert grade_module.shipped_puzzles() == root / "no-guess"
