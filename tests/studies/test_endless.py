"""Studies of any length: games made lazily and folded as they finish (bounded memory),
results files read as a stream, workers that end with their parent (issue 19 §3)."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from mineshafted.cli.status import EXIT_INTERRUPTED, EXIT_TERMINATED
from mineshafted.studies import Finished, run_study

TRILLION = str(10**12)


def _limit_memory() -> None:
    """In the child: 1 GiB of address space (a list of 10**12 indices would need terabytes),
    and Ctrl-C's default handling, however this suite was started (a shell starts a background
    job with SIGINT ignored, and a child inherits that)."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _lines(path: Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


def _playing_a_trillion(out: Path, jobs: str, *options: str) -> subprocess.Popen[bytes]:
    """``mineshafted play 4 4 2`` of a trillion games into ``out``, in a child of bounded
    memory, once it has written its first games (and is still playing)."""
    args = ["play", "4", "4", "2", "--games", TRILLION, "--jobs", jobs, "--out", str(out)]
    child = subprocess.Popen(
        [sys.executable, "-m", "mineshafted", *args, *options],
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
    except BaseException:
        child.kill()
        raise
    return child


def _wait_for(test: object, deadline: float, what: str) -> None:
    """Poll ``test()`` until it is true; fail at ``deadline`` (a monotonic time)."""
    while not test():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.slow
def test_a_trillion_games_start_at_once_in_bounded_memory(tmp_path: Path, jobs: str) -> None:
    out = tmp_path / "games.jsonl"
    child = _playing_a_trillion(out, jobs, "--json")
    try:
        child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == EXIT_INTERRUPTED, stderr.decode()[-500:]
    assert f"of {10**12} game(s) done" in stderr.decode()


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.slow
def test_sigterm_stops_a_study_and_says_where(tmp_path: Path, jobs: str) -> None:
    out = tmp_path / "games.jsonl"
    child = _playing_a_trillion(out, jobs)
    try:
        child.terminate()
        stdout, stderr = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == EXIT_TERMINATED, stderr.decode()[-500:]
    (line,) = stderr.decode().splitlines()
    done = _lines(out) - 1
    assert line == f"terminated: {done} of {10**12} game(s) done; run the same command to resume"
    assert stdout.decode().startswith("4x4/2, first move safe")


@pytest.mark.slow
def test_the_interrupting_tests_pass_when_the_suite_ignores_ctrl_c() -> None:
    # As `pytest &` from a shell: this file's tests that interrupt a child run with SIGINT
    # ignored from the start, inherited by every process they start.
    def ignore_ctrl_c() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    suite = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            __file__,
            "-k",
            "trillion",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=ignore_ctrl_c,
        check=False,
    )
    assert suite.returncode == 0, suite.stdout[-2000:]
    assert "2 passed" in suite.stdout


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.slow
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


# -- memory that does not grow with the number of games --------------------------------------


@dataclass(frozen=True, slots=True)
class Tick:
    """A game of :class:`Ticks`: nothing but its index."""

    index: int

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index}


@dataclass(frozen=True)
class Ticks:
    """A study kind whose games take no time: game ``i`` is :class:`Tick` ``i``."""

    games: int

    @property
    def count(self) -> int:
        return self.games

    @property
    def key(self) -> dict[str, Any]:
        return {"kind": "ticks"}

    def check(self) -> None:
        pass

    def play(self, index: int) -> Tick:
        return Tick(index)

    def read(self, data: Any) -> Tick:
        if not isinstance(data, dict) or type(data.get("index")) is not int:
            raise ValueError(f"{data!r} is not a tick")
        return Tick(data["index"])


MANY = 100_000
"""Games enough that keeping each one (some 100 bytes a game) would take megabytes."""

BOUND = 256 * 1024
"""What running a study of any length may allocate at its peak, in bytes."""


def _peak(run: Callable[[], Finished]) -> tuple[Finished, int]:
    """``run()`` and the peak of the memory it allocated (tracemalloc's)."""
    tracemalloc.start()
    try:
        finished = run()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return finished, peak


def _count(done: list[int]) -> Callable[[Tick, int], None]:
    def counted(line: Tick, games: int) -> None:
        done[0] = games

    return counted


@pytest.mark.slow
def test_a_long_study_runs_in_memory_that_does_not_grow_with_its_games() -> None:
    done = [0]
    finished, peak = _peak(lambda: run_study(Ticks(MANY), on_game=_count(done)))
    assert done[0] == MANY and not finished.interrupted
    assert peak < BOUND, f"{peak:,} bytes at the peak for {MANY:,} games"


@pytest.mark.slow
def test_a_long_study_is_folded_and_recorded_in_memory_that_does_not_grow(tmp_path: Path) -> None:
    out = tmp_path / "ticks.jsonl"
    folded = [0]

    def fold(line: Tick) -> None:
        folded[0] += 1

    finished, peak = _peak(lambda: run_study(Ticks(MANY), out=out, fold=fold))
    assert finished.games == folded[0] == MANY == len(out.read_text().splitlines()) - 1
    assert peak < BOUND, f"{peak:,} bytes at the peak for {MANY:,} games"


@pytest.mark.slow
def test_a_long_results_file_is_resumed_in_memory_that_does_not_grow(tmp_path: Path) -> None:
    # Written in the order chunks finish (a few out of order) with gaps left by interruptions:
    # read as a stream, its indices kept as runs, and only the gaps played.
    out = tmp_path / "ticks.jsonl"
    order = [i ^ 3 for i in range(MANY)]  # 3, 2, 1, 0, 7, 6, 5, 4, ...: nearly in order
    gaps = set(range(5_000, 5_016)) | set(range(70_000, 70_100)) | {MANY - 1}
    with out.open("w") as stream:
        stream.write(json.dumps({"study": Ticks(0).key}) + "\n")
        stream.writelines(f'{{"index": {i}}}\n' for i in order if i not in gaps)
    folded, played = [0], []

    def fold(line: Tick) -> None:
        folded[0] += 1

    def counted(line: Tick, games: int) -> None:
        played.append(line.index)

    finished, peak = _peak(lambda: run_study(Ticks(MANY), out=out, fold=fold, on_game=counted))
    assert (finished.resumed, finished.games, folded[0]) == (MANY - len(gaps), MANY, MANY)
    assert played == sorted(gaps)
    assert peak < BOUND, f"{peak:,} bytes at the peak to resume {MANY:,} games"
