"""What the bwrap sandbox gives a child: an interpreter that starts, the grader's packages, its
host name, a ``/tmp`` of exactly its size, hidden folders empty (gaps found by mutation testing:
a sandbox that could not start only skipped the tests that needed it)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import mineshafted
from mineshafted.grading import Outcome, Sandbox
from mineshafted.grading.limits import MIB, Limits
from mineshafted.grading.sandbox import _package_folders, bwrap_arguments, bwrap_problem

from .conftest import needs_bwrap, one_board, submission


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
    assert result.outcome is Outcome.WRONG, result.detail
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
