"""Hostile submissions against the sandbox: each cheat gets nothing and leaves nothing behind.

The cheats are those of issue 8: the parent's ``/proc`` (command line, folder, environment,
memory), a walk of the file system for puzzle files, importing ``mineshafted`` for its
shipped puzzles, forking and staying (with and without ``setsid``), filling the disk.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from mineshafted.grading import Outcome, Sandbox, SubmissionError, grade, shipped_puzzles_root
from mineshafted.grading.limits import Limits

from .conftest import CORRECT, PUZZLES, SANDBOXES, TWO, needs_bwrap, one_board, submission

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


@needs_bwrap
def test_the_parents_proc_shows_nothing_of_the_grader(
    tmp_path: Path, secret_puzzle: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MINESHAFTED_GRADER_SECRET", "hunter2")
    path = submission(tmp_path, SNOOP.replace("GRADER", str(os.getpid())))
    result = one_board(path, sandbox=Sandbox.BWRAP)
    assert (result.outcome, result.detail) == (
        Outcome.WRONG,
        "returned NoneType, not a list of rows",
    )
    seen: dict[str, Any] = json.loads(result.output)
    assert seen[f"{os.getpid()}/cmdline"] == "FileNotFoundError"
    assert seen[f"{os.getpid()}/mem"] == "FileNotFoundError"
    text = result.output
    for secret in ("hunter2", secret_puzzle.name, str(tmp_path), sys.argv[0]):
        assert secret not in text


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_walk_of_the_file_system_finds_no_puzzle(
    tmp_path: Path, secret_puzzle: Path, monkeypatch: pytest.MonkeyPatch, sandbox: Sandbox
) -> None:
    monkeypatch.chdir(secret_puzzle.parent)
    code = """
        import os

        def sweep_mines(bm):
            found = []
            for top in ("/tmp", "/submission", "/grader", "/root", "/home", os.getcwd()):
                for folder, _, files in os.walk(top):
                    found += [os.path.join(folder, f) for f in files if f.endswith(".json")]
            print("\\n".join(found))
        """
    result = one_board(submission(tmp_path, code), sandbox=sandbox)
    assert result.outcome is Outcome.WRONG
    if sandbox is Sandbox.BWRAP:  # only the Python installation's own data files
        assert secret_puzzle.name not in result.output
        python = tuple(str(Path(p).resolve()) for p in (sys.prefix, sys.base_prefix))
        lines = result.output.splitlines()
        if result.output_bytes > len(result.output.encode()):
            lines = lines[:-1]  # the capture was capped mid-line
        assert all(line.startswith(python) for line in lines if line)
        # Not even a copy of the package installed into the environment shows its puzzles.
        assert not [line for line in lines if "/mineshafted/" in line]
    else:  # what the sandbox is for: without it the puzzle is there to be found
        assert secret_puzzle.name in result.output


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
    assert result.outcome is Outcome.WRONG
    assert "imported" not in result.output
    assert result.output.splitlines()[-1] == "False"


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
                os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)",
                                          {token!r}])
            if {answer}:
                return None
            os._exit(0)
        """
    result = one_board(submission(tmp_path, code), sandbox=sandbox)
    assert leftovers(token) == []
    assert result.seconds < 5
    if answer:
        assert (result.outcome, result.detail) == (
            Outcome.WRONG,
            "returned NoneType, not a list of rows",
        )
    else:
        assert (result.outcome, result.detail) == (Outcome.CRASHED, "exited with status 0")


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
    assert result.outcome is Outcome.WRONG
    written = eval(result.output)  # a dict of tuples the submission printed
    disk = Limits().disk_mb * 1024 * 1024
    assert 0 < written["/tmp"][0] <= disk and written["/tmp"][1] == "No space left on device"
    for folder in ("/", "/dev", "/dev/shm", "/submission", "/usr"):
        assert written[folder] == (0, "Read-only file system")
    assert {name for name in os.listdir("/tmp") if name.startswith("fill-")} <= before


@needs_bwrap
def test_a_correct_submission_is_graded_the_same_in_both(tmp_path: Path) -> None:
    path = submission(tmp_path, CORRECT)
    jailed = grade(path, PUZZLES, sandbox=Sandbox.BWRAP)
    free = grade(path, PUZZLES, sandbox=Sandbox.NONE)
    assert jailed.score == free.score == 55
    assert [b.moves for b in jailed.boards] == [b.moves for b in free.boards]


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_grading_leaves_the_students_folder_as_it_was(tmp_path: Path, sandbox: Sandbox) -> None:
    folder = tmp_path / "student"
    folder.mkdir()
    path = submission(folder, CORRECT)
    report = grade(path, PUZZLES[:1], sandbox=sandbox)
    assert report.boards[0].outcome is Outcome.SOLVED
    assert [p.name for p in folder.iterdir()] == ["sub.py"]  # no __pycache__


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_sleeping_at_import_is_a_timeout(tmp_path: Path, sandbox: Sandbox) -> None:
    path = submission(tmp_path, "import time\ntime.sleep(60)\ndef sweep_mines(bm):\n    pass\n")
    with pytest.raises(SubmissionError) as raised:
        grade(path, PUZZLES[:1], timeout=0.5, sandbox=sandbox)
    assert raised.value.reason == "timed out while being imported: no answer within 0.5 s"
    result = one_board(path, timeout=0.5, sandbox=sandbox)
    assert (result.outcome, result.detail) == (Outcome.TIMED_OUT, "no answer within 0.5 s")
