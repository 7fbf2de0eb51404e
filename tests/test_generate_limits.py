"""The generator keeps to its time limit on any board: a request too big to finish within
``--timeout`` ends with one line on stderr soon after, in bounded memory (issue 33, case 1)."""

from __future__ import annotations

import resource
import subprocess
import sys
import time

import pytest

from mineshafted import Technique
from mineshafted.generate import GenerationError, generate

REQUEST = ["1000", "1000", "200000", "--timeout", "5", "--seed", "1"]
"""The request of issue 33: a million cells at expert density, five seconds."""

MEMORY = 1 << 30
"""The address space the child may use: 1 GiB (the refusal takes about 600 MB here)."""

WALL = 60.0
"""Seconds after which the child is killed: a hang fails the test, it does not hold it up."""


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@pytest.mark.slow
def test_a_million_cell_request_is_refused_in_one_line_soon_after_its_timeout() -> None:
    started = time.perf_counter()
    child = subprocess.run(
        [sys.executable, "-m", "mineshafted", "generate", *REQUEST],
        capture_output=True,
        text=True,
        timeout=WALL,
        preexec_fn=_limit_memory,
        check=False,
    )
    took = time.perf_counter() - started
    assert child.returncode == 2, child.stderr[-500:]
    assert child.stdout == ""
    assert child.stderr.count("\n") == 1 and "Traceback" not in child.stderr, child.stderr
    assert child.stderr.startswith("error: no no-guess 1000x1000 board with 200000 mines")
    assert "within 5 s" in child.stderr
    # Loose, so the verdict does not hang on the machine's load: before the fix this request
    # was still running after 60 s (the first sweep of the board was never timed).
    assert took < 30, f"took {took:.1f} s"


def test_a_sweep_that_outlasts_the_timeout_gives_up_with_the_requests_message() -> None:
    # Seed 1's first draw is certified at once; with a timeout shorter than its one sweep, the
    # sweep itself gives up (the clock used to be read only between sweeps).
    assert generate(9, 9, 10, seed=1, timeout=None).perturbations == 0
    with pytest.raises(GenerationError, match=r"within 1e-06 s \(0 perturbations, 1 draw\(s\)\)"):
        generate(9, 9, 10, seed=1, timeout=1e-6)
    with pytest.raises(GenerationError, match=r"within 1e-06 s"):
        generate(9, 9, 10, seed=1, timeout=1e-6, technique=Technique.AC3, needs=True)
