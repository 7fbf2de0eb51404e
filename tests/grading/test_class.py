"""grade --class: a folder of submissions on one board set, into a resumable run folder."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.grading import classrun
from mineshafted.grading.classrun import ClassRun, ClassRunError, StudentGrade
from mineshafted.grading.options import GradeOptions
from mineshafted.grading.roster import MAX_BYTES, RosterError, roster

from .conftest import CORRECT, needs_bwrap

runner = CliRunner()

WRONG = "def sweep_mines(bm):\n    return [[bm.move(0)]]\n"
"""Moves once, returns a 1x1 board: a wrong board everywhere, at once."""

EXPLODES = """
def sweep_mines(bm):
    rows, cols = bm.size
    for cell in range(rows * cols):
        bm.move(cell)
    return []
"""
"""Moves onto every cell in turn: onto a mine sooner or later."""


def write(folder: Path, name: str, code: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(code)
    return path


# The roster.


def test_each_entry_is_a_student_with_the_reason_it_cannot_be_graded(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    write(subs, "ann.py", WRONG)
    write(subs, "bob.ipynb", "{}")
    write(subs, "cy/lab.py", WRONG)
    write(subs, "di/a.py", WRONG)
    write(subs, "di/b.py", WRONG)
    (subs / "ed").mkdir()
    write(subs, "Fay.py", WRONG)
    write(subs, "fay.py", WRONG)
    write(subs, ".hidden.py", WRONG)
    (subs / "gil.py").symlink_to(subs / "ann.py")
    write(subs, "hal.py", "#" * (MAX_BYTES + 1))
    os.mkfifo(subs / "ivy.py")
    found = {s.name: (s.source, s.problem) for s in roster(subs)}
    assert found == {
        "ann": ("ann.py", ""),
        "bob": ("bob.ipynb", "bob.ipynb is not a Python file"),
        "cy": ("cy/lab.py", ""),
        "di": ("di/", "di/ holds several Python files (a.py, b.py): name one with --file NAME"),
        "ed": ("ed/", "ed/ holds no Python file"),
        "Fay": (
            "Fay.py and fay.py",
            "2 submissions of one name: Fay.py and fay.py (rename all but one)",
        ),
        "gil": ("gil.py", "gil.py is a symbolic link: links are not followed"),
        "hal": ("hal.py", "hal.py is over the 1024 KiB a submission may have"),
        "ivy": ("ivy.py", "ivy.py is not a regular file"),
    }


def test_a_file_that_cannot_be_read_is_a_row_with_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mineshafted.grading import roster as module

    write(tmp_path, "ann.py", WRONG)
    write(tmp_path, "bob.py", WRONG)
    real = module.read_submission

    def read(path: Path) -> tuple[bytes, str]:
        if path.name == "bob.py":  # as root, no mode makes a file unreadable: say it is
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(module, "read_submission", read)
    found = {s.name: s.problem for s in roster(tmp_path)}
    assert found == {"ann": "", "bob": "bob.py cannot be read: permission denied"}


def test_file_names_the_file_in_each_student_s_folder(tmp_path: Path) -> None:
    write(tmp_path, "di/a.py", WRONG)
    write(tmp_path, "di/b.py", WRONG)
    (tmp_path / "ed").mkdir()
    found = {s.name: (s.source, s.problem) for s in roster(tmp_path, "b.py")}
    assert found == {"di": ("di/b.py", ""), "ed": ("ed/", "ed/ has no b.py")}


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.mkdir(), "no submissions in it"),
        (lambda p: p.write_text("x"), "not a folder"),
        (lambda p: None, "no such folder of submissions"),
    ],
    ids=["empty", "a file", "missing"],
)
def test_a_folder_that_holds_no_class_is_one_run_level_error(tmp_path, make, message) -> None:
    folder = tmp_path / "subs"
    make(folder)
    with pytest.raises(RosterError, match=message):
        roster(folder)


# The run's folder.


def test_a_new_run_keeps_its_fresh_key_readable_by_its_owner_only(tmp_path: Path) -> None:
    run = ClassRun(tmp_path / "out", GradeOptions())
    key = tmp_path / "out" / "board.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    state = json.loads((tmp_path / "out" / "run.json").read_text())
    assert state["board_set"] == run.board_set.name
    assert state["key"] is None and state["finished"] is False
    assert key.read_text().split()[-1] not in (tmp_path / "out" / "run.json").read_text()


def test_a_folder_that_is_not_a_run_s_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "out/notes.txt", "mine")
    with pytest.raises(ClassRunError, match="not a class run's folder"):
        ClassRun(tmp_path / "out", GradeOptions())


def test_a_resumed_run_keeps_its_options_and_its_key(tmp_path: Path) -> None:
    first = ClassRun(tmp_path / "out", GradeOptions(allow=frozenset({"itertools"})))
    again = ClassRun(tmp_path / "out", GradeOptions(allow=frozenset({"itertools"})))
    assert again.resumed and again.board_set.name == first.board_set.name
    with pytest.raises(ClassRunError, match="graded with --allow itertools, --timeout"):
        ClassRun(tmp_path / "out", GradeOptions(timeout=5))
    other = tmp_path / "other.key"
    from mineshafted.grading import BoardKey

    BoardKey.new().write(other)
    with pytest.raises(ClassRunError, match="not the key of the run"):
        ClassRun(tmp_path / "out", GradeOptions(allow=frozenset({"itertools"})), key=other)


def test_a_given_key_is_recorded_never_copied(tmp_path: Path) -> None:
    from mineshafted.grading import BoardKey

    key = tmp_path / "course.key"
    BoardKey.new().write(key)
    run = ClassRun(tmp_path / "out", GradeOptions(), key=key)
    assert not (tmp_path / "out" / "board.key").exists()
    assert run.board_set.name == BoardKey.read(key).board_set().name
    assert ClassRun(tmp_path / "out", GradeOptions()).board_set.name == run.board_set.name


# Grading, resuming.


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every submission the class run grades, in order."""
    seen: list[str] = []
    real = classrun.grade

    def grade(path, *args, **kwargs):
        seen.append(Path(path).stem)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(classrun, "grade", grade)
    return seen


@pytest.mark.slow
@pytest.mark.usefixtures("small_sets")
def test_an_interrupted_run_goes_on_on_the_same_boards_and_grades_no_one_twice(
    tmp_path: Path, counted: list[str]
) -> None:
    subs = tmp_path / "subs"
    for name in ("ann", "bob", "cy"):
        write(subs, f"{name}.py", WRONG)
    out = tmp_path / "out"
    run = ClassRun(out, GradeOptions(timeout=10))
    boards = [p.board for _, p in run.boards()]
    _, todo = run.plan(roster(subs))

    def interrupt(_grade: StudentGrade) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        list(run.grade_students(todo, jobs=1, finished=interrupt))
    assert sorted(p.name for p in (out / "results").iterdir()) == []  # not kept: interrupted
    kept = list(run.grade_students(todo[:1], jobs=1))
    assert [g.name for g in kept] == ["ann"] and (out / "results" / "ann.json").exists()

    again = ClassRun(out, GradeOptions(timeout=10))
    assert [p.board for _, p in again.boards()] == boards
    done, todo = again.plan(roster(subs))
    assert [g.name for g in done] == ["ann"] and [s.name for s in todo] == ["bob", "cy"]
    list(again.grade_students(todo, jobs=2))
    assert sorted(counted) == ["ann", "ann", "bob", "cy"]  # ann: interrupted once, then kept

    write(subs, "bob.py", WRONG + "\n# changed\n")
    done, todo = ClassRun(out, GradeOptions(timeout=10)).plan(roster(subs))
    assert [s.name for s in todo] == ["bob"]


@pytest.mark.slow
@pytest.mark.usefixtures("small_sets")
def test_a_finished_run_refuses_a_new_or_changed_submission(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    write(subs, "ann.py", WRONG)
    out = tmp_path / "out"
    assert cli(subs, "--out", out, "--timeout", "10").exit_code == 0
    assert json.loads((out / "run.json").read_text())["finished"] is True
    write(subs, "bob.py", WRONG)
    result = cli(subs, "--out", out, "--timeout", "10")
    assert result.exit_code == 2
    assert "this run has finished and its feedback shows its boards" in result.stderr
    assert "(bob)" in result.stderr


def cli(*args: object):
    """``mineshafted grade class ARGS``."""
    return runner.invoke(app, ["grade", "class", *map(str, args)])


@pytest.mark.slow
@needs_bwrap
@pytest.mark.usefixtures("small_sets")
def test_grade_class_writes_the_gradebook_and_feedback_on_one_board_set(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    write(subs, "ann.py", CORRECT)
    write(subs, "bob/lab.py", WRONG)
    write(subs, "cy.py", EXPLODES)
    write(subs, "di.py", "import numpy\n" + WRONG)
    write(subs, "ed.txt", "hello")
    write(subs, "fay.py", "def sweep_mines(bm:\n")
    out = tmp_path / "out"
    result = cli(subs, "--out", out, "--allow", "itertools", "--format", "csv", "-j", "2")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert rows == list(csv.DictReader((out / "grades.csv").open()))
    by = {row["student"]: row for row in rows}
    assert list(by) == ["ann", "bob", "cy", "di", "ed", "fay"]
    name = json.loads((out / "run.json").read_text())["board_set"]
    assert {row["board set"] for row in rows} == {name}
    assert by["ann"]["score"] == "100" and by["ann"]["solved"] == "6"
    assert by["bob"]["submission"] == "bob/lab.py" and by["bob"]["wrong board"] == "6"
    assert int(by["cy"]["exploded"]) >= 1
    assert by["di"]["notes"].startswith(
        "not gradable: cannot be imported: ImportError: import not allowed: 'numpy'"
    )
    assert "imports not allowed: line 1: imports numpy" in by["di"]["notes"]
    assert by["ed"]["notes"] == "ed.txt is not a Python file"
    assert by["fay"]["notes"].startswith("not gradable: cannot be imported: SyntaxError")
    data = json.loads((out / "grades.json").read_text())
    assert data["board_set"] == name and [s["student"] for s in data["students"]] == list(by)
    feedback = (out / "feedback" / "cy.md").read_text()
    assert name in feedback and "was onto the mine at" in feedback and "```text" in feedback
    page = (out / "feedback" / "cy.html").read_text()
    assert "<iframe" in page and "srcdoc=" in page  # the replay of the first failed board
    assert (
        "could not be graded: ed.txt is not a Python file"
        in (out / "feedback" / "ed.md").read_text()
    )
    assert (out / "board.key").read_text().split()[-1] not in page + feedback + result.stdout


@pytest.mark.slow
@needs_bwrap
@pytest.mark.usefixtures("small_sets")
def test_a_student_who_misbehaves_is_a_row_the_run_goes_on(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    write(subs, "loud.py", "def sweep_mines(bm):\n    print('x' * 10_000_000)\n    return []\n")
    write(subs, "hangs.py", "import time\ndef sweep_mines(bm):\n    time.sleep(60)\n")
    write(subs, "forks.py", "import os\ndef sweep_mines(bm):\n    while True:\n        os.fork()\n")
    write(subs, "spins.py", "while True:\n    pass\n")
    write(subs, "ok.py", CORRECT)
    out = tmp_path / "out"
    result = cli(subs, "--out", out, "--timeout", "1", "--format", "json", "-j", "2")
    assert result.exit_code == 0, result.output
    by = {s["student"]: s for s in json.loads(result.stdout)["students"]}
    assert by["ok"]["score"] == 100
    assert {b["outcome"] for b in by["loud"]["boards"]} == {"wrong board"}
    hangs = [b["outcome"] for b in by["hangs"]["boards"]]
    assert hangs[:2] == ["timed out"] * 2 and set(hangs[2:]) == {"out of time"}
    assert {b["outcome"] for b in by["forks"]["boards"]} <= {"timed out", "crashed", "out of time"}
    assert by["spins"]["notes"] == [
        "not gradable: timed out while being imported: no answer within 1 s"
    ]


def test_class_run_level_problems_are_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = cli(empty, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0 and "no submissions in it" in result.stderr
    result = cli(empty, tmp_path / "x.py")
    assert result.exit_code == 2 and "unexpected extra argument" in result.stderr
    result = cli(empty, "--format", "gradescope")
    assert result.exit_code == 2 and "'gradescope' is not one of" in result.stderr
    result = cli(empty, "--starter", tmp_path / "s.py")
    assert result.exit_code == 2 and "give one of them" in result.stderr
    for option in ("--log", "--save-key", "--context"):
        result = cli(empty, option, "x")
        assert result.exit_code == 2 and f"No such option: {option}" in result.stderr
