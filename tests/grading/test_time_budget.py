"""A submission's time budget: once --max-timeouts of its boards have timed out, its remaining
boards are not run (out of time), and the report, the gradebook and the feedback say so."""

from __future__ import annotations

import csv
import importlib
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted import Puzzle
from mineshafted.cli import app
from mineshafted.grading import BoardResult, Sandbox, Verdict, grade
from mineshafted.grading.options import GradeOptions
from mineshafted.grading.student import StudentGrade

from .conftest import CORRECT, ONE, TWO, needs_bwrap, submission

runner = CliRunner()

grade_module = importlib.import_module("mineshafted.grading.grade")

HANGS = "import time\n\ndef sweep_mines(bm):\n    time.sleep(600)\n"

BOARDS = [(f"b{n}", Puzzle(TWO)) for n in range(6)]


@pytest.fixture
def timed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Path, list[str]]:
    """A submission whose boards named in the list time out at once (no child is started:
    the grading of a board is stood in for)."""
    hanging: list[str] = []

    def board(path: Path, puzzle: Puzzle, label: str, **_: object) -> BoardResult:
        outcome = Verdict.TIMED_OUT if label in hanging else Verdict.SOLVED
        return BoardResult(label, 4, 5, 2, outcome, 0, 0.0)

    monkeypatch.setattr(grade_module, "check_submission", lambda *a, **k: None)
    monkeypatch.setattr(grade_module, "grade_board", board)
    return submission(tmp_path, CORRECT), hanging


def outcomes(path: Path, options: GradeOptions, jobs: int = 1) -> list[str]:
    report = grade(path, BOARDS, options, jobs=jobs, sandbox=Sandbox.NONE)
    return [b.outcome.value for b in report.boards]


def test_after_the_most_timeouts_the_rest_are_out_of_time(timed: tuple[Path, list[str]]) -> None:
    path, hanging = timed
    hanging += ["b1", "b3"]
    assert outcomes(path, GradeOptions()) == [
        "solved",
        "timed out",
        "solved",
        "timed out",
        "out of time",
        "out of time",
    ]
    hanging[:] = ["b0", "b1", "b2", "b3", "b4", "b5"]
    assert outcomes(path, GradeOptions(max_timeouts=1))[:2] == ["timed out", "out of time"]


def test_no_limit_runs_every_board(timed: tuple[Path, list[str]]) -> None:
    path, hanging = timed
    hanging[:] = [label for label, _ in BOARDS]
    assert outcomes(path, GradeOptions(max_timeouts=0)) == ["timed out"] * 6


def test_boards_graded_at_once_stop_after_the_budget_too(timed: tuple[Path, list[str]]) -> None:
    path, hanging = timed
    hanging[:] = [label for label, _ in BOARDS]
    found = outcomes(path, GradeOptions(max_timeouts=2), jobs=2)
    assert found.count("timed out") >= 2 and found.count("out of time") >= 2
    assert found[-1] == "out of time"


def test_a_board_out_of_time_is_not_solved_and_says_why(timed: tuple[Path, list[str]]) -> None:
    path, hanging = timed
    hanging[:] = ["b0", "b1"]
    report = grade(path, BOARDS, GradeOptions(), sandbox=Sandbox.NONE)
    last = report.boards[-1]
    assert last.outcome is Verdict.OUT_OF_TIME and (last.moves, last.seconds) == (0, 0.0)
    assert last.detail == (
        "not run: your sweep used up its time on earlier boards (2 timed out, the most a "
        "submission may: --max-timeouts 2)"
    )
    assert last.unexplored == 4 * 5 - len(TWO.mines)
    assert report.score == 0 and report.to_json()["boards"][-1]["outcome"] == "out of time"
    grade_ = StudentGrade("ann", str(path), report=report)
    assert "out of time: 4 board(s) not run after 2 timed out" in grade_.notes()
    assert StudentGrade.from_json(json.loads(json.dumps(grade_.to_json()))).report == report


@pytest.mark.slow
@needs_bwrap
@pytest.mark.usefixtures("small_sets")
def test_a_hanging_student_costs_the_class_two_timeouts(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "hangs.py").write_text(HANGS)
    (subs / "ok.py").write_text(CORRECT)
    out = tmp_path / "out"
    args = ["grade", "class", str(subs), "--out", str(out), "--timeout", "1", "-j", "2"]
    done = runner.invoke(app, [*args, "--format", "csv"])
    assert done.exit_code == 0, done.output
    rows = {row["student"]: row for row in csv.DictReader(io.StringIO(done.stdout))}
    assert (rows["hangs"]["timed out"], rows["hangs"]["out of time"]) == ("2", "4")
    assert rows["hangs"]["notes"] == "out of time: 4 board(s) not run after 2 timed out"
    assert rows["ok"]["out of time"] == "0" and rows["ok"]["score"] == "100"
    feedback = (out / "feedback" / "hangs.md").read_text()
    assert "out of time" in feedback and "--max-timeouts 2" in feedback


@pytest.mark.slow
def test_a_single_grade_stops_a_hanging_submission_too(tmp_path: Path) -> None:
    path = submission(tmp_path, HANGS)
    items = [("one", Puzzle(ONE)), ("two", Puzzle(TWO)), ("three", Puzzle(ONE))]
    report = grade(path, items, GradeOptions(timeout=0.3, max_timeouts=1, sandbox=Sandbox.NONE))
    assert [b.outcome for b in report.boards] == [
        Verdict.TIMED_OUT,
        Verdict.OUT_OF_TIME,
        Verdict.OUT_OF_TIME,
    ]
