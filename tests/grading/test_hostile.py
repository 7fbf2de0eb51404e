"""Hostile submissions, one file each in ``hostile/``: each is graded as what it is, and the
grader stays small, prompt and in charge of its terminal.

The table below names each file, the outcome it must get and the start of its detail.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted import Puzzle
from mineshafted.cli import app
from mineshafted.formats import format_puzzle
from mineshafted.grading import Sandbox, Verdict, grade, process

from .conftest import SANDBOXES, TWO, needs_bwrap

HOSTILE = Path(__file__).with_name("hostile")


@dataclass(frozen=True)
class Case:
    """One hostile file: the outcome it gets and how its detail starts."""

    name: str
    outcome: Verdict
    detail: str


CASES = [
    Case(
        "unexplored",
        Verdict.NOT_EXPLORED,
        "returned the right board with 17 safe cells never moved onto",
    ),
    Case("empty_lists", Verdict.WRONG, "returned over "),
    Case("escapes", Verdict.CRASHED, "Clear\\x1b[2J\\x1b[H: \\x1b[2J\\x1b[H\\x1b]0;owned\\x07"),
    Case("huge_error", Verdict.CRASHED, "broke the protocol: sent a message over the cap of"),
    Case("huge_repr", Verdict.CRASHED, "broke the protocol: sent a message over the cap of"),
    Case("long_error", Verdict.CRASHED, "T" * 100 + "... (5000 characters): " + "m" * 500),
]

FLOODS = ["empty_lists", "huge_error", "huge_repr", "long_error"]
"""The files that send the grader far more than a board needs."""

PEAK = """
import re, sys
from pathlib import Path
from mineshafted import Puzzle
from mineshafted.grading import grade
from tests.grading.conftest import TWO
grade(Path(sys.argv[1]), [("two", Puzzle(TWO))] * int(sys.argv[2]), jobs=int(sys.argv[2]))
print(re.search(r"VmHWM:\\s+(\\d+) kB", Path("/proc/self/status").read_text()).group(1))
"""
"""Grade a file on copies of one board at once and print the grader's own peak RSS, in KiB.

The peak is this program's own (``VmHWM``): ``ru_maxrss`` would also count the pytest process
it was forked from, so the verdict would depend on the tests that ran before."""


@pytest.mark.slow
@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_hostile_submission_is_graded_as_what_it_is(case: Case, sandbox: object) -> None:
    report = grade(HOSTILE / f"{case.name}.py", [("two", Puzzle(TWO))], sandbox=sandbox)  # type: ignore[arg-type]
    (board,) = report.boards
    assert (board.outcome, board.detail[: len(case.detail)]) == (case.outcome, case.detail)
    assert report.score == 0


@pytest.mark.slow
@pytest.mark.parametrize("name", FLOODS)
def test_the_grader_stays_small_whatever_a_child_sends(name: str) -> None:
    root = Path(__file__).parents[2]
    command = [sys.executable, "-c", PEAK, str(HOSTILE / f"{name}.py"), "2"]
    done = subprocess.run(command, capture_output=True, cwd=root, timeout=300, check=True)
    assert int(done.stdout) < 200 * 1024, f"the grader's peak RSS was {int(done.stdout)} KiB"


@pytest.mark.slow
@pytest.mark.parametrize("name", FLOODS)
def test_a_flooding_child_gets_a_short_text_report(name: str, tmp_path: Path) -> None:
    puzzle = tmp_path / "two.json"
    puzzle.write_text(format_puzzle(Puzzle(TWO)))
    done = CliRunner().invoke(app, ["grade", str(HOSTILE / f"{name}.py"), str(puzzle)])
    assert done.exit_code == 0
    assert len(done.stdout) < 8 * 1024 and done.stdout.splitlines()[-1].startswith("score: 0%")


@pytest.mark.slow
def test_a_board_returned_without_exploring_is_reported_as_not_explored(tmp_path: Path) -> None:
    puzzle = tmp_path / "two.json"
    puzzle.write_text(format_puzzle(Puzzle(TWO)))
    args = ["grade", str(HOSTILE / "unexplored.py"), str(puzzle)]
    done = CliRunner().invoke(app, [*args, "--json"])
    (board,) = json.loads(done.stdout)["boards"]
    assert (board["outcome"], board["unexplored"]) == ("not explored", 17)
    text = CliRunner().invoke(app, args).stdout
    assert "not explored" in text and "0/1" in text and "score: 0%" in text


CONTROLS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
"""Every control character but the newline."""


@pytest.mark.slow
def test_escape_sequences_from_a_submission_reach_neither_the_terminal_nor_the_log(
    tmp_path: Path,
) -> None:
    puzzle, log = tmp_path / "two.json", tmp_path / "out.log"
    puzzle.write_text(format_puzzle(Puzzle(TWO)))
    args = ["grade", str(HOSTILE / "escapes.py"), str(puzzle), "--log", str(log)]
    text = CliRunner().invoke(app, args).stdout
    assert not CONTROLS.search(text), repr(CONTROLS.search(text))
    assert [line for line in text.splitlines() if "score:" in line.split("│")[0]] == [
        "score: 0% (0 of 5 achievements)"
    ]
    saved = log.read_text()
    assert not CONTROLS.search(saved) and "\\x1b[2J\\x1b[Hscore: 100%\\r" in saved


@pytest.mark.slow
@needs_bwrap
def test_the_sandbox_shows_no_host_path_of_the_submission_or_the_grader() -> None:
    report = grade(HOSTILE / "mounts.py", [("two", Puzzle(TWO))], sandbox=Sandbox.BWRAP)
    detail = report.boards[0].detail
    assert detail.startswith("ValueError: ")
    for path in (HOSTILE, process.CHILD):
        assert str(path) not in detail, detail


@pytest.mark.slow
@needs_bwrap
def test_the_package_does_not_import_in_the_sandbox_even_as_a_namespace() -> None:
    report = grade(HOSTILE / "package.py", [("two", Puzzle(TWO))], sandbox=Sandbox.BWRAP)
    assert report.boards[0].detail == (
        "ModuleNotFoundError: No module named 'mineshafted' (in package.py, innermost last: "
        "line 6, in sweep_mines: import mineshafted)"
    )


SURROGATES = ["surrogate_error", "surrogate_repr"]
"""The files whose words hold lone surrogates."""

DRIVING_BYTES = (b"\x1b", b"\xc2\x9b", b"\xe2\x80\xae")
"""ESC, and U+009B (CSI) and U+202E (right-to-left override) as UTF-8."""


@pytest.mark.slow
@pytest.mark.parametrize("name", SURROGATES)
def test_a_submission_s_lone_surrogates_cost_nothing_of_the_report(
    name: str, tmp_path: Path
) -> None:
    puzzle, log = tmp_path / "two.json", tmp_path / "out.log"
    puzzle.write_text(format_puzzle(Puzzle(TWO)))
    args = ["grade", str(HOSTILE / f"{name}.py"), str(puzzle)]
    done = CliRunner().invoke(app, [*args, "--log", str(log)])
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[-1] == "score: 0% (0 of 5 achievements)"
    assert "\\udc1b" in done.stdout and "\\udcc2\\udc9b" in done.stdout
    assert not any(raw in done.stdout_bytes for raw in DRIVING_BYTES)
    (board,) = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)["boards"]
    assert board["detail"].encode("utf-8") and "\\udce2\\udc80\\udcae" in board["detail"]
    log.read_bytes().decode("utf-8")


@pytest.mark.slow
def test_surrogates_reach_a_posix_locale_terminal_as_escapes_not_bytes(tmp_path: Path) -> None:
    # In the POSIX locale Python writes a surrogate-escaped byte as the byte itself: a
    # \udcc2\udc9b left in the report would reach the terminal as C1 CSI.
    puzzle = tmp_path / "two.json"
    puzzle.write_text(format_puzzle(Puzzle(TWO)))
    command = [sys.executable, "-m", "mineshafted", "grade"]
    command += [str(HOSTILE / "surrogate_error.py"), str(puzzle)]
    environment = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}
    done = subprocess.run(command, capture_output=True, env=environment, timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"score: 0%" in done.stdout and b"\\udcc2\\udc9b" in done.stdout
    assert not any(raw in done.stdout + done.stderr for raw in DRIVING_BYTES)


@pytest.mark.slow
def test_a_puzzle_file_named_with_undecodable_bytes_is_shown_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "boards"
    folder.mkdir()
    name = os.fsdecode(b"b\xc2\x9b\xff.json")  # U+009B, then a byte that is no UTF-8
    (folder / name).write_text(format_puzzle(Puzzle(TWO)))
    log = tmp_path / "out.log"
    args = ["grade", str(HOSTILE / "unexplored.py"), str(folder), "--log", str(log)]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    assert "b\\x9b\\udcff.json" in done.stdout
    assert not any(raw in done.stdout_bytes for raw in DRIVING_BYTES)
    assert "b\\x9b\\udcff.json" in log.read_bytes().decode("utf-8")
