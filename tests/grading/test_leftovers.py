"""What graders no longer running left behind: entries named ``PREFIX<pid>-...`` whose process
is gone, found by the pid in the name; a running or someone else's process keeps its own."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mineshafted.grading import leftovers
from mineshafted.grading.leftovers import left_by_gone_graders

PREFIX = "mineshafted-test-"


@pytest.fixture
def gone_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@pytest.fixture
def running() -> Iterator[subprocess.Popen[bytes]]:
    """A process that runs until the test ends."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield child
    child.kill()
    child.wait()


def test_entries_of_a_gone_grader_are_found_and_a_running_ones_kept(
    tmp_path: Path, gone_pid: int, running: subprocess.Popen[bytes]
) -> None:
    folder_left = tmp_path / f"{PREFIX}{gone_pid}-abc"
    folder_left.mkdir()
    file_left = tmp_path / f"{PREFIX}{gone_pid}-board-3-x"
    file_left.touch()
    (tmp_path / f"{PREFIX}{running.pid}-abc").mkdir()
    (tmp_path / f"{PREFIX}{os.getpid()}-def").mkdir()
    assert sorted(left_by_gone_graders(tmp_path, PREFIX)) == sorted([folder_left, file_left])


def test_looking_for_leftovers_sends_no_signal_to_a_running_process(
    tmp_path: Path, running: subprocess.Popen[bytes]
) -> None:
    (tmp_path / f"{PREFIX}{running.pid}-abc").mkdir()
    assert left_by_gone_graders(tmp_path, PREFIX) == []
    assert running.poll() is None


def test_entries_without_a_pid_or_another_prefix_are_left_alone(
    tmp_path: Path, gone_pid: int
) -> None:
    for name in [
        f"{PREFIX}abc-{gone_pid}",  # no pid after the prefix
        f"{PREFIX}{gone_pid}",  # no "-" after the pid
        f"{PREFIX}-{gone_pid}-x",  # an empty pid
        f"{PREFIX}{gone_pid}x-y",  # digits then a letter
        f"other-{gone_pid}-x",  # another prefix
        f"x{PREFIX}{gone_pid}-x",  # the prefix not at the start
    ]:
        (tmp_path / name).mkdir()
    assert left_by_gone_graders(tmp_path, PREFIX) == []


def test_the_pid_is_read_only_up_to_the_first_dash(tmp_path: Path, gone_pid: int) -> None:
    entry = tmp_path / f"{PREFIX}{gone_pid}-{os.getpid()}-x"
    entry.mkdir()
    assert left_by_gone_graders(tmp_path, PREFIX) == [entry]
    kept = tmp_path / f"{PREFIX}{os.getpid()}-{gone_pid}-x"
    kept.mkdir()
    assert left_by_gone_graders(tmp_path, PREFIX) == [entry]


def test_a_missing_folder_has_no_leftovers(tmp_path: Path) -> None:
    assert left_by_gone_graders(tmp_path / "missing", PREFIX) == []


def test_a_folder_that_cannot_be_read_has_no_leftovers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(self: Path, pattern: str) -> Iterator[Path]:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "glob", refuse)
    assert left_by_gone_graders(tmp_path, PREFIX) == []


def test_a_process_of_another_user_counts_as_running(
    tmp_path: Path, gone_pid: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    signals = []

    def refuse(pid: int, signal: int) -> None:
        signals.append((pid, signal))
        raise PermissionError(1, "Operation not permitted")

    (tmp_path / f"{PREFIX}{gone_pid}-abc").mkdir()
    monkeypatch.setattr(leftovers.os, "kill", refuse)
    assert left_by_gone_graders(tmp_path, PREFIX) == []
    assert signals == [(gone_pid, 0)]
