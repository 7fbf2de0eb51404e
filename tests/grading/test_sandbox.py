"""Hostile submissions against the sandbox: each cheat gets nothing and leaves nothing behind.

The cheats are those of issue 8: the parent's ``/proc`` (command line, folder, environment,
memory), a walk of the file system for puzzle files, importing ``mineshafted`` for its
shipped puzzles, forking and staying (with and without ``setsid``), filling the disk. And what
the bwrap sandbox gives a child: an interpreter that starts, the grader's packages, its host
name, a ``/tmp`` of exactly its size, hidden folders empty, every copy of the package hidden.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import mineshafted
from mineshafted import Puzzle
from mineshafted.grading import (
    Sandbox,
    SubmissionError,
    Verdict,
    cgroup,
    grade,
    process,
    shipped_puzzles_root,
)
from mineshafted.grading.cgroup import Plan
from mineshafted.grading.limits import MIB, Limits
from mineshafted.grading.sandbox import _package_folders, bwrap_arguments, bwrap_problem

from .conftest import CORRECT, PUZZLES, SANDBOXES, TWO, needs_bwrap, one_board, submission

HOSTILE = Path(__file__).with_name("hostile")

SNOOP = """
import json, os

def read(path, size=4096):
    try:
        with open(path, "rb") as file:
            return file.read(size).decode("utf-8", "replace")
    except Exception as error:
        return type(error).__name__

def sweep_mines(bm):
    seen = {}
    for pid in [GRADER, os.getppid(), *(int(p) for p in os.listdir("/proc") if p.isdigit())]:
        for name in ("cmdline", "environ", "mem"):
            seen[f"{pid}/{name}"] = read(f"/proc/{pid}/{name}")
        try:
            seen[f"{pid}/cwd"] = os.listdir(f"/proc/{pid}/cwd")
        except Exception as error:
            seen[f"{pid}/cwd"] = type(error).__name__
    print(json.dumps(seen))
"""
"""Reads every ``/proc`` entry it can: the grader's (its id written in), its parent's, all."""


@pytest.fixture
def secret_puzzle(tmp_path: Path) -> Path:
    """A puzzle file with a name no cheat could guess, in the caller's folder."""
    path = tmp_path / f"secret-{secrets.token_hex(4)}.json"
    path.write_text(json.dumps({"board": TWO.to_grid()}))
    return path


def leftovers(token: str) -> list[int]:
    """Processes whose command line carries ``token``, once the killed ones have gone (2 s)."""
    deadline = time.monotonic() + 2.0
    while True:
        found = []
        for name in os.listdir("/proc"):
            try:
                with open(f"/proc/{name}/cmdline", "rb") as file:
                    if token.encode() in file.read():
                        found.append(int(name))
            except (OSError, ValueError):
                continue
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.02)  # a killed process takes a moment to go


@pytest.mark.slow
@needs_bwrap
def test_the_parents_proc_shows_nothing_of_the_grader(
    tmp_path: Path, secret_puzzle: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MINESHAFTED_GRADER_SECRET", "hunter2")
    path = submission(tmp_path, SNOOP.replace("GRADER", str(os.getpid())))
    result = one_board(path, sandbox=Sandbox.BWRAP)
    assert (result.outcome, result.detail) == (
        Verdict.WRONG,
        "returned NoneType, not a list of rows",
    )
    seen: dict[str, Any] = json.loads(result.output)
    assert seen[f"{os.getpid()}/cmdline"] == "FileNotFoundError"
    assert seen[f"{os.getpid()}/mem"] == "FileNotFoundError"
    text = result.output
    for secret in ("hunter2", secret_puzzle.name, str(tmp_path), sys.argv[0]):
        assert secret not in text


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.slow
def test_a_walk_of_the_file_system_finds_no_puzzle(
    tmp_path: Path, secret_puzzle: Path, sandbox: Sandbox
) -> None:
    # The walk prints only what the sandbox must hide: JSON files outside the Python
    # installation, and any of the package's. It starts at the secret's folder and stops on
    # the secret, so what else lies on the disk can neither crowd it out of the capped output
    # nor hide a leak.
    python = tuple(str(Path(p).resolve()) for p in (sys.prefix, sys.base_prefix))
    ours = tuple(f"{folder}/" for folder in _package_folders())  # a clone may be ".../mineshafted"
    tops = (str(secret_puzzle.parent), "/tmp", "/submission", "/grader", "/root", "/home")
    code = f"""
        import os

        def sweep_mines(bm):
            for top in {tops!r}:
                for folder, _, files in os.walk(top):
                    for name in files:
                        path = os.path.join(folder, name)
                        theirs = path.startswith({python!r}) and not path.startswith({ours!r})
                        if name.endswith(".json") and not theirs:
                            print(path)
                        if name == {secret_puzzle.name!r}:
                            return None
        """
    result = one_board(submission(tmp_path, code), sandbox=sandbox)
    assert result.outcome is Verdict.WRONG
    if sandbox is Sandbox.BWRAP:  # only the Python installation's own data files, not shown
        assert result.output == ""
    elif os.geteuid() == 0:  # a root grader's board runs as a user of its own: 0700 holds
        assert str(secret_puzzle) not in result.output
    else:  # what the sandbox is for: without it the puzzle is there to be found
        assert result.output == f"{secret_puzzle}\n"


@needs_bwrap
def test_importing_mineshafted_finds_neither_the_package_nor_its_puzzles(tmp_path: Path) -> None:
    shipped = shipped_puzzles_root()
    assert shipped is not None
    code = f"""
        import os

        def sweep_mines(bm):
            try:
                import mineshafted.grading
                print("imported", mineshafted.grading.shipped_puzzles_root())
            except Exception as error:
                print(type(error).__name__)
            print(os.path.exists({str(shipped)!r}))
        """
    result = one_board(submission(tmp_path, code), sandbox=Sandbox.BWRAP)
    assert result.outcome is Verdict.WRONG
    assert "imported" not in result.output
    assert result.output.splitlines()[-1] == "False"


@pytest.mark.slow  # it times a child against a wall-clock bound
@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("setsid", [False, True], ids=["fork", "fork-setsid"])
@pytest.mark.parametrize("answer", [True, False], ids=["answers", "exits"])
def test_forking_and_staying_leaves_nothing_running(
    tmp_path: Path, sandbox: Sandbox, setsid: bool, answer: bool
) -> None:
    token = f"stay-{secrets.token_hex(6)}"
    code = f"""
        import os, sys

        def sweep_mines(bm):
            if os.fork() == 0:
                if {setsid}:
                    os.setsid()
                os.execv("/bin/sh", ["/bin/sh", "-c", "sleep 60; :", {token!r}])
            if {answer}:
                return None
            os._exit(0)
        """
    result = one_board(submission(tmp_path, code), sandbox=sandbox)
    assert leftovers(token) == []
    assert result.seconds < 5
    if answer:
        assert (result.outcome, result.detail) == (
            Verdict.WRONG,
            "returned NoneType, not a list of rows",
        )
    else:
        assert (result.outcome, result.detail) == (Verdict.CRASHED, "exited with status 0")


@needs_bwrap
@pytest.mark.slow
def test_every_writable_mount_in_the_sandbox_has_a_size(monkeypatch: pytest.MonkeyPatch) -> None:
    # Where no cgroup can be made, a tmpfs's files are host memory that nothing else bounds:
    # the one that hid the package had no size and took 2,048 MiB from one board.
    plan = Plan(missing={"memory": "none in this test", "pids": "none in this test"})
    for module in (cgroup, process):
        monkeypatch.setattr(module, "group_plan", lambda: plan)
    report = grade(HOSTILE / "fills.py", [("two", Puzzle(TWO))], sandbox=Sandbox.BWRAP)
    found = json.loads(report.boards[0].output)
    written = {point: mib for point, (mib, *_) in found.items() if mib}
    assert written == {"/tmp": Limits().disk_mb}, found
    for point, (_, options, kind, super_options) in found.items():
        if "rw" in options.split(",") and kind != "devpts":  # terminals: no file is stored
            assert kind == "tmpfs" and "size=" in super_options, (point, found[point])
    hiding = [point for point in found if point.endswith("/mineshafted")]
    # A package folder the sandbox can see is hidden read-only (an editable install binds none).
    assert all(found[point][1].startswith("ro,") for point in hiding), found


@pytest.mark.slow
@needs_bwrap
def test_filling_the_disk_is_bounded_and_leaves_nothing_behind(tmp_path: Path) -> None:
    code = """
        import os

        def sweep_mines(bm):
            written = {}
            for folder in ("/tmp", "/", "/dev", "/dev/shm", "/submission", "/usr"):
                total = 0
                try:
                    for n in range(1000):
                        with open(os.path.join(folder, f"fill-{n}"), "wb") as file:
                            for _ in range(16):
                                total += file.write(b"x" * (1 << 20))
                except OSError as error:
                    written[folder] = (total, error.strerror)
            print(written)
        """
    before = set(os.listdir("/tmp"))
    result = one_board(submission(tmp_path, code), sandbox=Sandbox.BWRAP)
    assert result.outcome is Verdict.WRONG
    written = eval(result.output)  # a dict of tuples the submission printed
    disk = Limits().disk_mb * 1024 * 1024
    assert 0 < written["/tmp"][0] <= disk and written["/tmp"][1] == "No space left on device"
    for folder in ("/", "/dev", "/dev/shm", "/submission", "/usr"):
        assert written[folder] == (0, "Read-only file system")
    assert {name for name in os.listdir("/tmp") if name.startswith("fill-")} <= before


@pytest.mark.slow
@needs_bwrap
def test_a_correct_submission_is_graded_the_same_in_both(tmp_path: Path) -> None:
    path = submission(tmp_path, CORRECT)
    jailed = grade(path, PUZZLES, sandbox=Sandbox.BWRAP)
    free = grade(path, PUZZLES, sandbox=Sandbox.NONE)
    assert jailed.score == free.score == 55
    assert [b.moves for b in jailed.boards] == [b.moves for b in free.boards]


@pytest.mark.slow
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_grading_leaves_the_students_folder_as_it_was(tmp_path: Path, sandbox: Sandbox) -> None:
    folder = tmp_path / "student"
    folder.mkdir()
    path = submission(folder, CORRECT)
    report = grade(path, PUZZLES[:1], sandbox=sandbox)
    assert report.boards[0].outcome is Verdict.SOLVED
    assert [p.name for p in folder.iterdir()] == ["sub.py"]  # no __pycache__


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.slow
def test_sleeping_at_import_is_a_timeout(tmp_path: Path, sandbox: Sandbox) -> None:
    path = submission(tmp_path, "import time\ntime.sleep(60)\ndef sweep_mines(bm):\n    pass\n")
    with pytest.raises(SubmissionError) as raised:
        grade(path, PUZZLES[:1], timeout=0.5, sandbox=sandbox)
    assert raised.value.reason == "timed out while being imported: no answer within 0.5 s"
    result = one_board(path, timeout=0.5, sandbox=sandbox)
    assert (result.outcome, result.detail) == (Verdict.TIMED_OUT, "no answer within 0.5 s")


@pytest.mark.slow
def test_the_sweep_logs_the_escapee_it_killed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    code = """
        import os, sys, time

        def sweep_mines(bm):
            pid = os.fork()
            if pid == 0:
                os.setsid()
                os.execv("/bin/sleep", ["/bin/sleep", "60"])
            while os.getsid(pid) == os.getsid(0):  # until it has left the process group
                time.sleep(0.01)
            return None
        """
    with caplog.at_level(logging.INFO, logger="mineshafted.grading.process"):
        result = one_board(submission(tmp_path, code), sandbox=Sandbox.NONE)
    assert result.outcome is Verdict.WRONG, result.detail
    assert caplog.messages == ["killed 1 process(es) a grading child left running"]


def _bare_bwrap_runs() -> bool:
    """Whether bubblewrap itself runs here, asked without the package's own arguments."""
    if not sys.platform.startswith("linux") or shutil.which("bwrap") is None:
        return False
    probe = ["bwrap", "--unshare-all", "--ro-bind", "/", "/", "true"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=30, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.skipif(not _bare_bwrap_runs(), reason="bubblewrap itself cannot run here")
def test_where_bubblewrap_runs_the_grader_can_run_its_interpreter_in_it() -> None:
    assert bwrap_problem.__wrapped__() is None


@needs_bwrap
def test_the_sandboxed_child_sees_its_host_name_its_tmp_and_the_graders_packages(
    tmp_path: Path,
) -> None:
    code = """
        import importlib.util, json, os, socket

        def sweep_mines(bm):
            tmp = os.statvfs("/tmp")
            print(json.dumps({
                "host": socket.gethostname(),
                "tmp": tmp.f_blocks * tmp.f_frsize,
                "networkx": importlib.util.find_spec("networkx") is not None,
            }))
        """
    result = one_board(submission(tmp_path, code), sandbox=Sandbox.BWRAP)
    assert result.outcome is Verdict.WRONG, result.detail
    assert json.loads(result.output) == {
        "host": "grading",
        "tmp": Limits().disk_mb * MIB,
        "networkx": True,
    }


@needs_bwrap
def test_a_hidden_folder_is_empty_in_the_sandbox() -> None:
    arguments = bwrap_arguments(Path(sys.executable), 1, hidden=(Path("/usr/share"),))
    listing = "import os; print(len(os.listdir('/usr/share')))"
    done = subprocess.run(
        [*arguments, sys.executable, "-I", "-c", listing],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, "0\n"), done.stderr


def test_every_copy_of_the_package_on_the_path_is_hidden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed = tmp_path / "site" / "mineshafted"
    installed.mkdir(parents=True)
    (tmp_path / "other").mkdir()
    monkeypatch.setattr(sys, "path", [str(tmp_path / "other"), "", str(installed.parent)])
    package = Path(mineshafted.__file__).resolve().parent
    assert _package_folders() == [package, package.parent / "puzzles", installed.resolve()]


def test_a_copy_already_listed_is_not_listed_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    package = Path(mineshafted.__file__).resolve().parent
    monkeypatch.setattr(sys, "path", [str(package.parent), str(package.parent)])
    assert _package_folders() == [package, package.parent / "puzzles"]
