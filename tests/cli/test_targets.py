"""The guard of targets at the command line: each refusal of :mod:`mineshafted.files`, or a
write that fails, ends the command with one line on stderr naming the path, exit status 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import typer

from mineshafted.cli.targets import check_folder, check_results, check_target, replacing


def _refused(capsys: pytest.CaptureFixture[str], call: object) -> str:
    """The one error line ``call()`` ends with (status 2), without ``error: ``."""
    with pytest.raises(typer.Exit) as stop:
        call()  # type: ignore[operator]
    assert stop.value.exit_code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err.removeprefix("error: ").rstrip("\n")


def test_each_check_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "kept").write_text("x")
    os.mkfifo(tmp_path / "fifo")
    lines = [
        _refused(capsys, lambda: check_target(tmp_path / "kept")),
        _refused(capsys, lambda: check_results(tmp_path / "fifo")),
        _refused(capsys, lambda: check_folder(tmp_path / "kept")),
    ]
    assert lines == [
        f"{tmp_path / 'kept'}: exists (use --force to replace it)",
        f"{tmp_path / 'fifo'}: not a regular file (a FIFO)",
        f"{tmp_path / 'kept'}: not a folder (a regular file)",
    ]


def test_a_failed_write_is_one_line_naming_the_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "page.html"

    def write() -> None:
        with replacing(target) as beside:
            raise OSError(28, "No space left on device", str(beside))

    assert _refused(capsys, write) == f"{target}: No space left on device"
    assert list(tmp_path.iterdir()) == []
