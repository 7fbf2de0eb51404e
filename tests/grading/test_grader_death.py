"""When the grader dies, its children die with it, even without a sandbox."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted import Puzzle
from mineshafted.cli import app
from mineshafted.formats import format_puzzle
from mineshafted.grading import Sandbox, grade, process
from mineshafted.grading.sandbox import none_warning

from .conftest import SANDBOXES, TWO

HOSTILE = Path(__file__).with_name("hostile")

GRADER = """
import sys
import tempfile
from pathlib import Path
from mineshafted import Puzzle
from mineshafted.grading import Sandbox, grade
from tests.grading.conftest import TWO
grade(Path(sys.argv[1]), [("two", Puzzle(TWO))], timeout=600, sandbox=Sandbox(sys.argv[2]))
"""
"""A grader of one board that takes ten minutes to time out."""

DEADLINE = 60.0
"""Seconds to wait for a process to appear or to go (polled: the test ends as soon as it has)."""


@pytest.mark.slow
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_child_ends_when_its_grader_is_killed(
    sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = Path(__file__).parents[2]
    argv = [sys.executable, "-c", GRADER, str(HOSTILE / "sleeps.py"), sandbox.value]
    environment = {**os.environ, "TMPDIR": str(tmp_path)}
    grader = subprocess.Popen(
        argv, cwd=root, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        children = _poll(lambda: _sweeping(grader.pid))
    finally:
        grader.kill()
        grader.wait()
    try:
        assert _poll(lambda: not any(_alive(pid) for pid in children)), children
    finally:
        for pid in children:  # a failure leaves no sleeper behind
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    left = list(tmp_path.glob("mineshafted-grade-*"))
    assert len(left) == (sandbox is Sandbox.NONE)  # bubblewrap needs no folder here
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(process, "_remove_stale_folders", process._remove_stale_folders.__wrapped__)
    grade(HOSTILE / "unexplored.py", [("two", Puzzle(TWO))], sandbox=Sandbox.NONE)
    assert not list(tmp_path.glob("mineshafted-grade-*"))  # the next grader removed it


def _poll(check, deadline: float = DEADLINE):  # type: ignore[no-untyped-def]
    """``check()`` once it is true, or its last value at the deadline."""
    end = time.monotonic() + deadline
    while not (value := check()) and time.monotonic() < end:
        time.sleep(0.01)
    return value


def _sweeping(grader: int) -> list[int]:
    """The processes below ``grader`` that have begun a sweep (``hostile/sleeps.py`` names
    them so), once there are any."""
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            head, tail = stat.rsplit(")", 1)
            parents[int(name)] = int(tail.split()[1])
            names[int(name)] = head.split("(", 1)[1]
    below: set[int] = {grader}
    while grown := {pid for pid, parent in parents.items() if parent in below} - below:
        below |= grown
    return [pid for pid in below if names.get(pid) == "sweeping"]


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
def test_grading_without_a_sandbox_says_what_a_submission_can_do(tmp_path: Path) -> None:
    puzzle = tmp_path / "two.json"
    puzzle.write_text(format_puzzle(Puzzle(TWO)))
    args = ["grade", "--sandbox", "none", str(HOSTILE / "unexplored.py"), str(puzzle)]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0
    assert done.stderr.splitlines()[0] == f"warning: {none_warning()}"
