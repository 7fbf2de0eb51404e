"""What a grading child runs under: its own limits, an empty folder, none of the grader's
environment; and a grader that imports without ``resource``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mineshafted.grading import Limits, Sandbox, Verdict
from mineshafted.grading.process import MARKER

from .conftest import SANDBOXES, needs_bwrap, one_board, submission

REPORTER = """
import json, os, resource

def sweep_mines(bm):
    names = ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_NPROC", "RLIMIT_CORE")
    print(json.dumps({
        "limits": {name: resource.getrlimit(getattr(resource, name)) for name in names},
        "environment": dict(os.environ),
        "folder": os.getcwd(),
        "files": os.listdir("."),
    }))
    return None
"""


@pytest.fixture
def spawned(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The keyword arguments of every process the grader starts (the processes still start)."""
    calls: list[dict[str, Any]] = []
    real = subprocess.Popen

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", spy)
    return calls


def report(
    tmp_path: Path, timeout: float, memory: int, sandbox: Sandbox | None = None
) -> dict[str, Any]:
    path = submission(tmp_path, REPORTER)
    result = one_board(path, timeout=timeout, memory=memory, sandbox=sandbox)
    assert result.outcome is Verdict.WRONG, result.detail
    seen: dict[str, Any] = json.loads(result.output)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_the_child_sets_the_limits_it_was_given(tmp_path: Path, sandbox: Sandbox) -> None:
    limits = report(tmp_path, timeout=3.0, memory=300, sandbox=sandbox)["limits"]
    expected = Limits(timeout=3.0, memory_mb=300)
    assert limits == {
        "RLIMIT_AS": [300 * 1024 * 1024] * 2,
        "RLIMIT_CPU": [expected.cpu_seconds] * 2,
        "RLIMIT_FSIZE": [64 * 1024 * 1024] * 2,
        "RLIMIT_NPROC": [64, 64],
        "RLIMIT_CORE": [0, 0],
    }


@pytest.mark.slow
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_no_code_runs_between_fork_and_exec(
    tmp_path: Path, spawned: list[dict[str, Any]], sandbox: Sandbox
) -> None:
    path = submission(tmp_path, "def sweep_mines(bm):\n    return None\n")
    one_board(path, sandbox=sandbox)
    assert len(spawned) == 1
    assert spawned[0].get("preexec_fn") is None
    assert spawned[0]["start_new_session"] is True


@pytest.mark.slow
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_the_child_sees_none_of_the_graders_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox: Sandbox
) -> None:
    monkeypatch.setenv("MINESHAFTED_GRADER_SECRET", "hunter2")
    monkeypatch.setenv("PATH", "/grader/only/bin:" + os.environ.get("PATH", ""))
    environment = report(tmp_path, timeout=10.0, memory=1024, sandbox=sandbox)["environment"]
    marker = environment.pop(MARKER)
    if sandbox is Sandbox.BWRAP:
        assert environment.pop("PWD") == "/tmp/grading"  # bubblewrap's, after its --chdir
    assert environment == {"PATH": os.defpath, "LANG": "C.UTF-8", "HOME": "/nonexistent"}
    assert len(marker) == 32 and "hunter2" not in marker


def test_without_a_sandbox_the_child_works_in_an_empty_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "callers-file.txt").write_text("not for the child")
    seen = report(tmp_path, timeout=10.0, memory=1024, sandbox=Sandbox.NONE)
    folder = Path(seen["folder"])
    assert seen["files"] == []
    assert folder != tmp_path and folder.name.startswith("mineshafted-grade-")
    assert not folder.exists()


@needs_bwrap
def test_in_bwrap_the_child_works_in_its_own_empty_tmp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "callers-file.txt").write_text("not for the child")
    seen = report(tmp_path, timeout=10.0, memory=1024, sandbox=Sandbox.BWRAP)
    assert (seen["folder"], seen["files"]) == ("/tmp/grading", [])


@pytest.mark.slow
@pytest.mark.parametrize("module", ["mineshafted.grading", "mineshafted.cli.grade"])
def test_the_grader_imports_where_there_is_no_resource_module(module: str) -> None:
    code = f"import sys; sys.modules['resource'] = None; import {module}"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture
def piped_stdin() -> Iterator[None]:
    """This process's standard input is a pipe with a line in it while the test runs."""
    saved = os.dup(0)
    read, write = os.pipe()
    os.write(write, b"the grader's input\n")
    os.dup2(read, 0)
    try:
        yield
    finally:
        os.dup2(saved, 0)
        for fd in (saved, read, write):
            os.close(fd)


@pytest.mark.usefixtures("piped_stdin")
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_the_child_reads_nothing_of_the_graders_input(tmp_path: Path, sandbox: Sandbox) -> None:
    code = """
        import os

        def sweep_mines(bm):
            print(repr(os.read(0, 100)), os.path.realpath("/proc/self/fd/0"))
        """
    result = one_board(submission(tmp_path, code), sandbox=sandbox)
    assert result.output == "b'' /dev/null\n"
