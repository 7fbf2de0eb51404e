"""The import check: a submission is imported under the limits and in the sandbox asked for,
and each way it can fail names the submission and the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.grading import Limits, Sandbox, SubmissionError
from mineshafted.grading.grade import check_submission
from mineshafted.grading.limits import MIB

from .conftest import checked, needs_bwrap, submission


def test_the_import_check_runs_under_the_default_limits(tmp_path: Path) -> None:
    path = checked(tmp_path, memory=1024 * MIB, cpu=Limits(timeout=30.0).cpu_seconds)
    check_submission(path, sandbox=Sandbox.NONE)


@pytest.mark.slow
def test_the_import_check_runs_under_the_limits_asked_for(tmp_path: Path) -> None:
    path = checked(tmp_path, memory=300 * MIB, cpu=Limits(timeout=2.5).cpu_seconds)
    check_submission(path, timeout=2.5, memory_mb=300, sandbox=Sandbox.NONE)


@pytest.mark.slow
def test_a_failing_import_check_names_the_submission(tmp_path: Path) -> None:
    path = checked(tmp_path, memory=1, cpu=1)
    with pytest.raises(SubmissionError) as raised:
        check_submission(path, sandbox=Sandbox.NONE)
    assert raised.value.submission == path
    memory = 1024 * MIB
    assert raised.value.reason == (
        f"cannot be imported: RuntimeError: address space {(memory,) * 2} (in sub.py, innermost "
        'last: line 12: check(); line 6, in check: raise RuntimeError(f"address space '
        '{resource.getrlimit(resource.RLIMIT_AS)}"))'
    )


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("folder.py", "is a directory, not a Python file"),
        ("/dev/null", "is not a regular file"),
        ("absent/sub.py", "no such file"),
        ("file.py/sub.py", "no such file"),
    ],
)
def test_what_is_not_a_readable_file_is_named_as_what_it_is(
    tmp_path: Path, name: str, reason: str
) -> None:
    (tmp_path / "folder.py").mkdir()
    (tmp_path / "file.py").write_text("")
    path = tmp_path / name
    with pytest.raises(SubmissionError) as raised:
        check_submission(path)
    assert raised.value.reason == reason
    done = CliRunner().invoke(app, ["grade", str(path)])
    assert (done.exit_code, done.stderr) == (2, f"error: {path}: {reason}\n")


def test_a_missing_submission_is_named_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "absent.py"
    with pytest.raises(SubmissionError) as raised:
        check_submission(path)
    assert (raised.value.submission, raised.value.reason) == (path, "no such file")


@pytest.mark.slow
def test_a_submission_that_exits_while_imported_is_named(tmp_path: Path) -> None:
    path = submission(tmp_path, "import os\nos._exit(5)\n")
    with pytest.raises(SubmissionError) as raised:
        check_submission(path, sandbox=Sandbox.NONE)
    assert raised.value.submission == path
    assert raised.value.reason == "cannot be imported: exited with status 5"


@pytest.mark.slow
def test_a_slow_import_is_named(tmp_path: Path) -> None:
    path = submission(tmp_path, "import time\ntime.sleep(60)\n")
    with pytest.raises(SubmissionError) as raised:
        check_submission(path, timeout=0.3, sandbox=Sandbox.NONE)
    assert raised.value.submission == path
    assert raised.value.reason == "timed out while being imported: no answer within 0.3 s"


@pytest.mark.slow
@needs_bwrap
def test_the_import_check_runs_in_the_sandbox_asked_for(tmp_path: Path) -> None:
    path = checked(tmp_path, memory=1024 * MIB, cpu=Limits().cpu_seconds, outside=True)
    check_submission(path, sandbox=Sandbox.NONE)
    with pytest.raises(SubmissionError, match="inside the bwrap sandbox"):
        check_submission(path, sandbox=Sandbox.BWRAP)


@needs_bwrap
def test_a_submission_that_imports_mineshafted_is_told_to_use_sandbox_none(
    tmp_path: Path,
) -> None:
    path = submission(tmp_path, "from mineshafted import sweep_mines\n")
    with pytest.raises(SubmissionError) as raised:
        check_submission(path, sandbox=Sandbox.BWRAP)
    assert "hides the mineshafted package" in str(raised.value)
    assert "--sandbox none" in str(raised.value)


def test_an_import_error_of_another_module_gets_no_sandbox_hint(tmp_path: Path) -> None:
    path = submission(tmp_path, "import no_such_module_anywhere\n")
    with pytest.raises(SubmissionError) as raised:
        check_submission(path, sandbox=Sandbox.NONE)
    assert "--sandbox none" not in str(raised.value)
