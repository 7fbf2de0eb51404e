"""Every output path of grade, grade class and autograder: a device, a FIFO or a folder is never
written, an existing file only with --force, the submission never; one line, exit 2."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.grading import GraderFileError
from mineshafted.grading.files import check_output, write_atomically

runner = CliRunner()

WRONG = "def sweep_mines(bm):\n    return [[bm.move(0)]]\n"


@pytest.fixture
def student(tmp_path: Path) -> Path:
    path = tmp_path / "student.py"
    path.write_text(WRONG)
    return path


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def test_check_output_says_why_a_path_is_not_written(tmp_path: Path, student: Path, fifo: Path):
    existing = tmp_path / "old.json"
    existing.write_text("keep")
    link = tmp_path / "link.json"
    link.symlink_to(existing)
    cases = [
        (Path("/dev/full"), True, "not a regular file"),
        (fifo, True, "not a regular file"),
        (tmp_path, True, "not a regular file (a folder)"),
        (link, True, "not a regular file (a symbolic link: never written through)"),
        (student, True, "is the submission: it is never replaced"),
        (existing, False, "exists (use --force to replace it)"),
        (tmp_path / "no" / "x.json", True, f"cannot be written: no folder {tmp_path / 'no'}"),
    ]
    for path, force, reason in cases:
        with pytest.raises(GraderFileError) as raised:
            check_output(path, force=force, protect=[student])
        assert str(raised.value) == f"{path}: {reason}"
    check_output(existing, force=True, protect=[student])
    check_output(tmp_path / "new.json", force=False)


def test_a_failed_write_names_the_path_given_never_the_file_beside_it(tmp_path: Path) -> None:
    with pytest.raises(OSError) as raised:
        write_atomically(tmp_path / "missing" / "out.json", b"{}")
    assert raised.value.filename == str(tmp_path / "missing" / "out.json")


def one_line(done: object, message: str) -> None:
    assert done.exit_code == 2, done.output  # type: ignore[attr-defined]
    assert done.stdout == ""  # type: ignore[attr-defined]
    assert done.stderr.splitlines()[-1] == f"error: {message}"  # type: ignore[attr-defined]


@pytest.mark.parametrize("spelling", ["autograder results gradescope", "grade --format"])
def test_platform_results_are_never_written_over_a_device_a_fifo_or_the_submission(
    tmp_path: Path, student: Path, fifo: Path, spelling: str
) -> None:
    def results(*args: str) -> object:
        if spelling == "grade --format":
            return runner.invoke(app, ["grade", str(student), "--format", "gradescope", *args])
        return runner.invoke(app, ["autograder", "results", "gradescope", str(student), *args])

    for out in ("/dev/full", str(fifo)):
        one_line(results("--out", out, "--force"), f"{out}: not a regular file")
    one_line(
        results("--out", str(student), "--force"),
        f"{student}: is the submission: it is never replaced",
    )
    taken = tmp_path / "results.json"
    taken.write_text("keep")
    one_line(results("--out", str(taken)), f"{taken}: exists (use --force to replace it)")
    assert taken.read_text() == "keep" and student.read_text() == WRONG
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode) and stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.parametrize("option", ["--log", "--save-key"])
def test_grade_s_log_and_key_are_never_written_over_a_device_a_fifo_or_the_submission(
    tmp_path: Path, student: Path, fifo: Path, option: str
) -> None:
    def graded(*args: str) -> object:
        return runner.invoke(app, ["grade", str(student), *args])

    for out in ("/dev/full", str(fifo)):
        one_line(graded(option, out, "--force"), f"{out}: not a regular file")
    one_line(
        graded(option, str(student), "--force"),
        f"{student}: is the submission: it is never replaced",
    )
    taken = tmp_path / "taken"
    taken.write_text("keep")
    one_line(graded(option, str(taken)), f"{taken}: exists (use --force to replace it)")
    assert taken.read_text() == "keep" and student.read_text() == WRONG


def test_a_class_run_folder_must_be_a_folder(tmp_path: Path, student: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ann.py").write_text(WRONG)
    one_line(
        runner.invoke(app, ["grade", "class", str(folder), "--out", "/dev/full"]),
        "/dev/full: not a folder",
    )
    one_line(
        runner.invoke(app, ["grade", "class", str(folder), "--out", str(student)]),
        f"{student}: not a folder",
    )
    assert student.read_text() == WRONG


def test_autograder_run_replaces_its_results_file_but_never_a_fifo(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "results").mkdir(parents=True)
    (root / "submission").mkdir()  # nothing submitted: graded at once, as not graded
    config, key = tmp_path / "autograder.json", tmp_path / "board.key"
    config.write_text(json.dumps({"visibility": "visible"}))
    key.write_text("mineshafted board key 1 " + "ab" * 32 + "\n")
    args = ["autograder", "run", "gradescope", "--root", str(root)]
    args += ["--config", str(config), "--key", str(key)]
    results = root / "results" / "results.json"
    results.write_text("{}")
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    assert "no Python file was submitted" in json.loads(results.read_text())["output"]
    results.unlink()
    os.mkfifo(results)
    one_line(runner.invoke(app, args), f"{results}: not a regular file")
    assert stat.S_ISFIFO(results.stat().st_mode)
