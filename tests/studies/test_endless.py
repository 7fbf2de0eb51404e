"""Studies of any length: games made lazily (bounded memory), workers that end with their
parent (issue 19 §3)."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mineshafted.cli.status import EXIT_INTERRUPTED

TRILLION = str(10**12)


def _limit_memory() -> None:
    """In the child: 1 GiB of address space (a list of 10**12 indices would need terabytes)."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _lines(path: Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


def _wait_for(test: object, deadline: float, what: str) -> None:
    """Poll ``test()`` until it is true; fail at ``deadline`` (a monotonic time)."""
    while not test():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_trillion_games_start_at_once_in_bounded_memory(tmp_path: Path, jobs: str) -> None:
    out = tmp_path / "games.jsonl"
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mineshafted",
            "play",
            "4",
            "4",
            "2",
            "--games",
            TRILLION,
            "--jobs",
            jobs,
            "--out",
            str(out),
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_limit_memory,
    )
    try:
        _wait_for(
            lambda: _lines(out) > 3 or child.poll() is not None,
            time.monotonic() + 60,
            "the first games",
        )
        assert child.poll() is None, child.stderr.read().decode()[-500:]  # type: ignore[union-attr]
        child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == EXIT_INTERRUPTED, stderr.decode()[-500:]
    assert f"of {10**12} game(s) done" in stderr.decode()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_workers_end_when_play_is_killed(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mineshafted",
            "play",
            "9",
            "9",
            "10",
            "--games",
            TRILLION,
            "--jobs",
            "2",
            "--out",
            str(out),
            "--json",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for(lambda: _lines(out) > 3, time.monotonic() + 60, "the first games")
        workers = [
            int(pid)
            for pid in os.listdir("/proc")
            if pid.isdigit() and _parent(int(pid)) == child.pid
        ]
        assert len(workers) >= 2, workers
        child.kill()  # kill -9: no chance to end its workers itself
        child.wait(timeout=10)
        _wait_for(lambda: not any(map(_alive, workers)), time.monotonic() + 10, "the workers")
    finally:
        child.kill()
        for pid in [p for p in locals().get("workers", []) if _alive(p)]:
            os.kill(pid, signal.SIGKILL)


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().split(") ")[1].split()[1])
    except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
        return None
