"""The zygote: one sandbox per submission, a fresh board process forked for each board, and
no board able to see or change another's state (module state, files, processes, descriptors).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mineshafted import Puzzle
from mineshafted.grading import Limits, Sandbox, Verdict, grade
from mineshafted.grading.zygote import Zygote

from .conftest import (
    CORRECT,
    FIVE,
    ONE,
    PUZZLES,
    TWO,
    checked,
    needs_bwrap,
    raised,
    submission,
)

pytestmark = [needs_bwrap, pytest.mark.slow]

THREE_BOARDS = [("a", Puzzle(ONE)), ("b", Puzzle(TWO)), ("c", Puzzle(FIVE))]


def graded(path: Path, puzzles: list[tuple[str, Puzzle]] = THREE_BOARDS, **options: object):
    """Grade through a zygote, in bubblewrap (never anywhere else: ``BWRAP`` or an error)."""
    return grade(path, puzzles, sandbox=Sandbox.BWRAP, zygote=True, timeout=10, **options)


def test_a_zygote_grades_as_a_fresh_process_per_board_does(tmp_path: Path) -> None:
    path = submission(tmp_path, CORRECT)
    forked = graded(path, PUZZLES)
    fresh = grade(path, PUZZLES, sandbox=Sandbox.BWRAP, timeout=10)
    assert [b.outcome for b in forked.boards] == [Verdict.SOLVED] * 3
    assert [(b.outcome, b.moves, b.opened) for b in forked.boards] == [
        (b.outcome, b.moves, b.opened) for b in fresh.boards
    ]
    assert forked.score == fresh.score


def test_module_state_and_files_of_one_board_are_not_seen_by_the_next(tmp_path: Path) -> None:
    code = """
        import os
        IMPORTED = []
        IMPORTED.append(1)
        SWEPT = []

        def sweep_mines(bm):
            SWEPT.append(1)
            found = sorted(os.listdir("/tmp")) + sorted(os.listdir("."))
            with open("/tmp/left-by-a-board", "w") as file:
                file.write("state")
            with open("left-here", "w") as file:
                file.write("state")
            raise RuntimeError(f"imported {len(IMPORTED)} swept {len(SWEPT)} found {found}")
        """
    from mineshafted.grading.child import _python_below_tmp

    report = graded(submission(tmp_path, code))
    details = [raised(b.detail) for b in report.boards]
    # /tmp holds the working folder, and the interpreter's folders when it lies below /tmp
    python = {Path(root).relative_to("/tmp").parts[0] for root in _python_below_tmp()}
    found = sorted({"grading", *python})
    assert details == [f"RuntimeError: imported 1 swept 1 found {found}"] * 3


def test_a_board_sees_no_other_process_and_no_descriptor_but_its_own(tmp_path: Path) -> None:
    code = """
        import os

        def sweep_mines(bm):
            open_fds = []
            for fd in range(3, 256):
                try:
                    os.fstat(fd)
                except OSError:
                    continue
                open_fds.append(fd)
            raise RuntimeError(f"pid {os.getpid()} proc {os.listdir('/proc')} fds {len(open_fds)}")
        """
    report = graded(submission(tmp_path, code))
    assert [raised(b.detail) for b in report.boards] == ["RuntimeError: pid 1 proc [] fds 2"] * 3


def test_a_board_holds_no_capability_and_cannot_mount(tmp_path: Path) -> None:
    code = """
        import ctypes

        def sweep_mines(bm):
            libc = ctypes.CDLL(None, use_errno=True)
            header = (ctypes.c_uint32 * 2)(0x20080522, 0)
            sets = (ctypes.c_uint32 * 6)()
            libc.capget(header, sets)
            mounted = libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 0, None)
            raise RuntimeError(f"capabilities {list(sets)} mount {mounted} {ctypes.get_errno()}")
        """
    report = graded(submission(tmp_path, code))
    assert {raised(b.detail) for b in report.boards} == {
        "RuntimeError: capabilities [0, 0, 0, 0, 0, 0] mount -1 1"  # EPERM
    }


def test_kill_all_from_a_board_ends_only_that_board_s_processes(tmp_path: Path) -> None:
    code = """
        import os, signal, time

        def sweep_mines(bm):
            if os.getpid() != 1:  # not the first process of a namespace of its own: refuse
                raise RuntimeError("not alone in a PID namespace")
            helper = os.fork()
            if helper == 0:
                time.sleep(60)
                os._exit(0)
            os.kill(-1, signal.SIGKILL)
            _, status = os.waitpid(helper, 0)
            print(f"helper ended by signal {os.WTERMSIG(status)}")
            return None
        """
    sentinel = subprocess.Popen(["sleep", "60"])
    try:
        report = graded(submission(tmp_path, code))
        assert sentinel.poll() is None
    finally:
        sentinel.kill()
        sentinel.wait()
    for board in report.boards:  # every board answered: the zygote lived on
        assert (board.outcome, board.detail) == (
            Verdict.WRONG,
            "returned NoneType, not a list of rows",
        )
        assert board.output == "helper ended by signal 9\n"


def test_the_limits_hold_in_each_board(tmp_path: Path) -> None:
    path = checked(tmp_path, memory=256 * 1024 * 1024, cpu=2 * 10 + 1)
    report = graded(path, memory_mb=256)
    assert [b.detail for b in report.boards] == ["returned NoneType, not a list of rows"] * 3


def test_a_board_cut_off_does_not_hold_up_the_next(tmp_path: Path) -> None:
    code = """
        def sweep_mines(bm):
            rows, cols = bm.size
            if (rows, cols) == (4, 4):
                while True:
                    pass
            raise ValueError(rows)
        """
    report = grade(
        submission(tmp_path, code), THREE_BOARDS, sandbox=Sandbox.BWRAP, zygote=True, timeout=1
    )
    assert [b.outcome for b in report.boards] == [
        Verdict.TIMED_OUT,
        Verdict.CRASHED,
        Verdict.CRASHED,
    ]
    assert report.boards[0].detail == "no answer within 1 s"


def test_a_submission_that_does_not_import_is_found_by_the_zygote(tmp_path: Path) -> None:
    from mineshafted.grading import SubmissionError

    with pytest.raises(SubmissionError, match="SyntaxError"):
        graded(submission(tmp_path, "def sweep_mines(bm:\n"))


def test_a_zygote_that_is_gone_is_a_grading_error_not_the_submission_s(tmp_path: Path) -> None:
    from mineshafted.grading import GradingError

    path = submission(tmp_path, CORRECT)
    with Zygote(path, Limits()) as zygote:
        os.killpg(zygote._popen.pid, signal.SIGKILL)
        zygote._popen.wait()
        with pytest.raises(GradingError, match="zygote is gone"):
            zygote.board(4, 4, Limits(), check=True)


def test_a_board_binds_again_the_interpreter_folders_a_fresh_tmp_would_cover(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A clone under /tmp with its virtual environment inside: a board's fresh /tmp would
    # hide the environment's site-packages (a module not imported before the fork then fails).
    from mineshafted.grading import child

    venv, base = "/tmp/clone/.venv", "/usr/local"
    for name, value in [("prefix", venv), ("exec_prefix", venv), ("base_prefix", base)]:
        monkeypatch.setattr(sys, name, value)
    monkeypatch.setattr(sys, "base_exec_prefix", base)
    monkeypatch.setattr(sys, "executable", f"{venv}/bin/python")
    assert child._python_below_tmp() == [venv]
    monkeypatch.setattr(sys, "prefix", "/opt/venv")
    monkeypatch.setattr(sys, "exec_prefix", "/opt/venv")
    monkeypatch.setattr(sys, "executable", "/opt/venv/bin/python")
    assert child._python_below_tmp() == []
