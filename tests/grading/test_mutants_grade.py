"""The import check and the grade pass their limits and sandbox on; a capture keeps exactly its
cap; a reply that does not fit says so; the sweep logs what it killed (gaps found by mutation
testing)."""

from __future__ import annotations

import importlib
import logging
from pathlib import Path

import pytest

from mineshafted.grading import (
    BoardResult,
    GradingError,
    Limits,
    Outcome,
    Sandbox,
    SubmissionError,
    grade,
)
from mineshafted.grading.capture import Capture
from mineshafted.grading.grade import check_submission
from mineshafted.grading.limits import MIB
from mineshafted.grading.process import ChildProcess
from mineshafted.grading.sandbox import WORK_FOLDER

from .conftest import PUZZLES, needs_bwrap, one_board, submission

grade_module = importlib.import_module("mineshafted.grading.grade")
"""The module (its name in the package is the function ``grade``)."""

IMPORT_CHECK = """
import os, resource

def check():
    if resource.getrlimit(resource.RLIMIT_AS) != ({memory}, {memory}):
        raise RuntimeError(f"address space {{resource.getrlimit(resource.RLIMIT_AS)}}")
    if resource.getrlimit(resource.RLIMIT_CPU) != ({cpu}, {cpu}):
        raise RuntimeError(f"cpu {{resource.getrlimit(resource.RLIMIT_CPU)}}")
    if {outside} and os.getcwd() == {work!r}:
        raise RuntimeError("inside the bwrap sandbox")

check()

def sweep_mines(bm):
    check()
    return None
"""
"""A submission that fails (imported, and swept) unless it runs under the limits (and outside
bwrap) given."""


def checked(tmp_path: Path, memory: int, cpu: int, outside: bool = False) -> Path:
    code = IMPORT_CHECK.format(memory=memory, cpu=cpu, outside=outside, work=WORK_FOLDER)
    return submission(tmp_path, code)


def test_the_import_check_runs_under_the_default_limits(tmp_path: Path) -> None:
    path = checked(tmp_path, memory=1024 * MIB, cpu=Limits(timeout=30.0).cpu_seconds)
    check_submission(path, sandbox=Sandbox.NONE)


def test_the_import_check_runs_under_the_limits_asked_for(tmp_path: Path) -> None:
    path = checked(tmp_path, memory=300 * MIB, cpu=Limits(timeout=2.5).cpu_seconds)
    check_submission(path, timeout=2.5, memory_mb=300, sandbox=Sandbox.NONE)


def test_a_failing_import_check_names_the_submission(tmp_path: Path) -> None:
    path = checked(tmp_path, memory=1, cpu=1)
    with pytest.raises(SubmissionError) as raised:
        check_submission(path, sandbox=Sandbox.NONE)
    assert raised.value.submission == path
    memory = 1024 * MIB
    assert raised.value.reason == f"cannot be imported: RuntimeError: address space {(memory,) * 2}"


def test_a_missing_submission_is_named_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "absent.py"
    with pytest.raises(SubmissionError) as raised:
        check_submission(path)
    assert (raised.value.submission, raised.value.reason) == (path, "no such file")


def test_a_submission_that_exits_while_imported_is_named(tmp_path: Path) -> None:
    path = submission(tmp_path, "import os\nos._exit(5)\n")
    with pytest.raises(SubmissionError) as raised:
        check_submission(path, sandbox=Sandbox.NONE)
    assert raised.value.submission == path
    assert raised.value.reason == "cannot be imported: exited with status 5"


def test_a_slow_import_is_named(tmp_path: Path) -> None:
    path = submission(tmp_path, "import time\ntime.sleep(60)\n")
    with pytest.raises(SubmissionError) as raised:
        check_submission(path, timeout=0.3, sandbox=Sandbox.NONE)
    assert raised.value.submission == path
    assert raised.value.reason == "timed out while being imported: no answer within 0.3 s"


@needs_bwrap
def test_the_import_check_runs_in_the_sandbox_asked_for(tmp_path: Path) -> None:
    path = checked(tmp_path, memory=1024 * MIB, cpu=Limits().cpu_seconds, outside=True)
    check_submission(path, sandbox=Sandbox.NONE)
    with pytest.raises(SubmissionError, match="inside the bwrap sandbox"):
        check_submission(path, sandbox=Sandbox.BWRAP)


@needs_bwrap
def test_grade_checks_and_plays_in_the_sandbox_it_chose(tmp_path: Path) -> None:
    path = checked(tmp_path, memory=1024 * MIB, cpu=Limits(timeout=10.0).cpu_seconds, outside=True)
    report = grade(path, PUZZLES[:1], timeout=10.0, sandbox=Sandbox.NONE)
    assert [(b.outcome, b.detail) for b in report.boards] == [
        (Outcome.WRONG, "returned NoneType, not a list of rows")
    ]


def test_grade_checks_and_plays_under_the_limits_asked_for(tmp_path: Path) -> None:
    path = checked(tmp_path, memory=300 * MIB, cpu=Limits(timeout=2.5).cpu_seconds)
    report = grade(path, PUZZLES[:1], timeout=2.5, memory_mb=300, sandbox=Sandbox.NONE)
    assert [(b.outcome, b.detail) for b in report.boards] == [
        (Outcome.WRONG, "returned NoneType, not a list of rows")
    ]


def test_grade_plays_one_board_at_a_time_by_default(tmp_path: Path) -> None:
    # The first board (4 x 4) is slow, the second fast: one at a time, they finish in order.
    code = """
        import time

        def sweep_mines(bm):
            if bm.size == (4, 4):
                time.sleep(0.6)
            return None
        """
    done: list[str] = []

    def progress(result: BoardResult) -> None:
        done.append(result.puzzle)

    grade(submission(tmp_path, code), PUZZLES[:2], progress=progress, sandbox=Sandbox.NONE)
    assert done == ["one", "two"]


def test_a_capture_keeps_its_last_byte_of_room() -> None:
    capture = Capture(4)
    capture.keep(b"abc")
    capture.keep(b"de")
    capture.keep(b"f")
    assert (capture.kept, capture.total) == (b"abcd", 6)


def test_a_capture_decodes_what_it_kept() -> None:
    capture = Capture(3)
    capture.keep("é".encode() + b"\xff\xfe")
    assert capture.text() == "é\ufffd"


def test_a_reply_that_does_not_fit_in_the_pipe_is_refused(tmp_path: Path) -> None:
    path = submission(tmp_path, "import time\ntime.sleep(30)\n")
    child = ChildProcess(path, 1, 1, Limits(timeout=5.0), check=True)
    with child, pytest.raises(BlockingIOError) as raised:
        child.reply(b"x" * (4 * 1024 * 1024))
    assert str(raised.value) == "the reply did not fit in the pipe"


def test_the_sweep_logs_the_escapee_it_killed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    code = """
        import os, sys, time

        def sweep_mines(bm):
            pid = os.fork()
            if pid == 0:
                os.setsid()
                os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)"])
            while os.getsid(pid) == os.getsid(0):  # until it has left the process group
                time.sleep(0.01)
            return None
        """
    with caplog.at_level(logging.INFO, logger="mineshafted.grading.process"):
        result = one_board(submission(tmp_path, code), sandbox=Sandbox.NONE)
    assert result.outcome is Outcome.WRONG, result.detail
    assert caplog.messages == ["killed 1 process(es) a grading child left running"]


def test_without_the_shipped_puzzles_the_grader_says_to_name_puzzle_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(grade_module, "shipped_puzzles_root", lambda: None)
    with pytest.raises(GradingError) as raised:
        grade_module.shipped_puzzles()
    assert str(raised.value) == "the shipped puzzles are not installed: name puzzle files to grade"


def test_the_shipped_puzzles_are_the_no_guess_sets() -> None:
    root = grade_module.shipped_puzzles_root()
    assert root is not None and (root / "no-guess").is_dir()
    assert grade_module.shipped_puzzles() == root / "no-guess"
