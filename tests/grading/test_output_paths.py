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
from mineshafted.errors import TargetError
from mineshafted.grading.files import write_atomically

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


def test_a_file_written_atomically_takes_its_mode_and_replaces_only_when_asked(
    tmp_path: Path, student: Path
) -> None:
    key = tmp_path / "board.key"
    write_atomically(key, b"secret\n", 0o600, force=False)
    assert key.read_bytes() == b"secret\n" and stat.S_IMODE(key.stat().st_mode) == 0o600
    with pytest.raises(TargetError, match="exists \\(use --force to replace it\\)"):
        write_atomically(key, b"other\n", 0o600, force=False)
    key.chmod(0o644)
    write_atomically(key, b"other\n", 0o600)
    assert key.read_bytes() == b"other\n" and stat.S_IMODE(key.stat().st_mode) == 0o600
    with pytest.raises(TargetError) as raised:
        write_atomically(student, b"x", inputs=[student])
    assert raised.value.reason == f"the same file as the input {student}: write to another"
    with pytest.raises(TargetError) as raised:
        write_atomically(tmp_path / "missing" / "out.json", b"{}")
    assert raised.value.path == str(tmp_path / "missing" / "out.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.key", "student.py"]


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

    one_line(results("--out", "/dev/full"), "/dev/full: not a regular file (a character device)")
    one_line(results("--out", str(fifo), "--force"), f"{fifo}: not a regular file (a FIFO)")
    one_line(
        results("--out", str(student), "--force"),
        f"{student}: the same file as the input {student}: write to another",
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

    one_line(graded(option, "/dev/full"), "/dev/full: not a regular file (a character device)")
    one_line(graded(option, str(fifo), "--force"), f"{fifo}: not a regular file (a FIFO)")
    one_line(
        graded(option, str(student), "--force"),
        f"{student}: the same file as the input {student}: write to another",
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
        "/dev/full: not a folder (a character device)",
    )
    one_line(
        runner.invoke(app, ["grade", "class", str(folder), "--out", str(student)]),
        f"{student}: not a folder (a regular file)",
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
    one_line(runner.invoke(app, args), f"{results}: not a regular file (a FIFO)")
    assert stat.S_ISFIFO(results.stat().st_mode)
