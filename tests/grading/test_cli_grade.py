"""``mineshafted grade`` as a user meets it: odd names shown as they are, --sandbox, timeouts."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.grading import board_timeout, sandbox

from .conftest import CORRECT, TWO, submission

runner = CliRunner()


@pytest.fixture
def bracketed(tmp_path: Path) -> tuple[Path, Path]:
    """``x[/y]/student[old].py`` and ``x[/y]/b[red].json``: names rich would read as markup."""
    folder = tmp_path / "x[" / "y]"
    folder.mkdir(parents=True)
    (folder / "b[red].json").write_text(json.dumps({"board": TWO.to_grid()}))
    return submission(folder, CORRECT, name="student[old].py"), folder


@pytest.fixture
def no_bwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine where bubblewrap cannot run, and no warning given yet."""
    monkeypatch.setattr(sandbox, "bwrap_problem", lambda: "bwrap is not installed")
    monkeypatch.setattr(sandbox, "_warned", [])


def test_brackets_in_paths_and_names_are_shown_as_they_are(
    bracketed: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, folder = bracketed
    monkeypatch.chdir(folder.parent.parent)
    relative = path.relative_to(folder.parent.parent)
    result = runner.invoke(app, ["grade", str(relative), str(folder)], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "Boards: x[/y]/student[old].py" in result.stdout
    assert "x[/y]/b[red].json" in result.stdout
    assert "score: 15% (1 of 5 achievements)" in result.stdout


def test_without_bwrap_a_note_says_once_that_isolation_is_process_only(
    tmp_path: Path, no_bwrap: None, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "boards"
    folder.mkdir()
    for name in ("a", "b"):
        (folder / f"{name}.json").write_text(json.dumps({"board": TWO.to_grid()}))
    path = submission(tmp_path, CORRECT)
    for _ in range(2):
        result = runner.invoke(app, ["grade", "--json", str(path), str(folder)])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["score"] == 15
    notes = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert notes == [
        "grading without a sandbox (bwrap is not installed): isolation is process-only;"
        " install bubblewrap (apt-get install bubblewrap) to run each board in a sandbox"
    ]


def test_asking_for_bwrap_where_it_cannot_run_is_a_clear_error(
    tmp_path: Path, no_bwrap: None
) -> None:
    path = submission(tmp_path, CORRECT)
    result = runner.invoke(app, ["grade", "--sandbox", "bwrap", str(path)])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: the bwrap sandbox cannot run here: bwrap is not installed; install bubblewrap"
        " (apt-get install bubblewrap) to run each board in a sandbox\n"
    )


def test_sandbox_none_is_accepted(tmp_path: Path, bracketed: tuple[Path, Path]) -> None:
    path, folder = bracketed
    result = runner.invoke(app, ["grade", "--sandbox", "none", "--json", str(path), str(folder)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["boards"][0]["outcome"] == "solved"


def test_an_unknown_sandbox_is_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["grade", "--sandbox", "docker", str(tmp_path / "s.py")])
    assert result.exit_code == 2
    assert "docker" in result.output


@pytest.mark.parametrize(
    ("cells", "seconds"),
    [
        (1, 30.0),
        (16 * 30, 30.0),
        (300_000, 30.0),
        (500_000, 50.0),
        (1000 * 1000, 100.0),
        (2000 * 1000, 200.0),
    ],
)
def test_the_default_time_limit_grows_with_the_board(cells: int, seconds: float) -> None:
    assert board_timeout(cells) == seconds


def test_a_piped_report_never_wraps_a_board_name(tmp_path: Path) -> None:
    long_name = "a-board-whose-file-name-is-longer-than-a-column-of-eighty-wide-report.json"
    (tmp_path / long_name).write_text(json.dumps({"board": TWO.to_grid()}))
    student = submission(tmp_path, CORRECT)
    result = runner.invoke(app, ["grade", "--sandbox", "none", str(student), str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert long_name in result.stdout
