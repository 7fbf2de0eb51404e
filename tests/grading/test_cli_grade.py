"""``mineshafted grade`` as a user meets it: odd names shown as they are, --sandbox, timeouts."""

from __future__ import annotations

import json
import logging
import re
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_piped_report_never_wraps_a_board_name(tmp_path: Path) -> None:
    long_name = "a-board-whose-file-name-is-longer-than-a-column-of-eighty-wide-report.json"
    (tmp_path / long_name).write_text(json.dumps({"board": TWO.to_grid()}))
    student = submission(tmp_path, CORRECT)
    result = runner.invoke(app, ["grade", "--sandbox", "none", str(student), str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert long_name in result.stdout


# The command's spellings: grade FILE, grade class FOLDER, and the earlier ones.


def test_grade_help_lists_the_single_grade_s_options_and_the_class_command() -> None:
    text = runner.invoke(app, ["grade", "--help"], terminal_width=200).stdout
    assert text.startswith("Usage: mineshafted grade [OPTIONS] SUBMISSION.py [PUZZLES...]")
    assert "--save-key" in text and "--max-timeouts" in text
    assert re.search(r"^Commands:\n  class +Grade a whole class", text, re.MULTILINE)
    options = text.partition("Options:")[2].partition("Commands:")[0]
    for other in ("--similarity", "--out", "--file", "--visibility", "--class"):
        assert other not in options
    text = runner.invoke(app, ["grade", "class", "--help"], terminal_width=200).stdout
    assert text.startswith("Usage: mineshafted grade class [OPTIONS] SUBMISSIONS")
    for other in ("--save-key", "--log", "--context", "--visibility", "--seed"):
        assert other not in text
    text = runner.invoke(app, ["autograder", "prairielearn", "--help"]).stdout
    assert "--starter" in text and "--visibility" not in text


@pytest.mark.slow
def test_the_earlier_class_spelling_works_with_a_note(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "ann.txt").write_text("not python")
    for spelling in (["--class", str(folder)], [f"--class={folder}"]):
        out = tmp_path / f"out{len(spelling)}"
        done = runner.invoke(app, ["grade", *spelling, "--out", str(out), "--format", "csv"])
        assert done.exit_code == 0, done.output
        assert done.stderr.splitlines()[0] == (
            "warning: 'grade --class FOLDER' is deprecated: use 'grade class FOLDER'"
        )
        assert "ann.txt is not a Python file" in done.stdout and (out / "grades.csv").exists()


def test_the_earlier_platform_spelling_works_with_a_note(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    missing = tmp_path / "missing.py"  # graded at once: nothing to run
    done = runner.invoke(
        app, ["grade", str(missing), "--format", "prairielearn", "--out", str(out)]
    )
    assert done.exit_code == 0, done.output
    assert done.stderr == (
        "warning: 'grade FILE --format prairielearn' is deprecated: use 'autograder results "
        "prairielearn FILE'\n"
    )
    assert json.loads(out.read_text())["message"].endswith("no file missing.py was submitted")
    done = runner.invoke(app, ["grade", str(missing), "--format", "prairielearn", "--jobs", "2"])
    assert done.exit_code == 2
    assert "(see 'mineshafted autograder results --help')" in done.stderr


def test_visibility_is_gradescope_s_alone(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.py")
    done = runner.invoke(
        app, ["autograder", "results", "prairielearn", missing, "--visibility", "hidden"]
    )
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr == (
        "error: --visibility is Gradescope's alone: PrairieLearn's results have none\n"
    )
    done = runner.invoke(app, ["autograder", "prairielearn", "--out", "x.zip", "--visibility", "x"])
    assert done.exit_code == 2 and "No such option: --visibility" in done.stderr
    done = runner.invoke(app, ["autograder", "results", "gradescope", missing, "--visibility", "x"])
    assert done.exit_code == 2 and done.stderr.startswith("error: --visibility: must be one of")


@pytest.mark.parametrize("name", ["", ".", "..", "a/b.py"])
def test_an_autograder_needs_a_file_name_to_grade(tmp_path: Path, name: str) -> None:
    out = tmp_path / "autograder.zip"
    done = runner.invoke(app, ["autograder", "gradescope", "--out", str(out), "--file", name])
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr == f'error: --file: "{name}" is not a file name (no folder in it)\n'
    assert not out.exists()


# The import rule on one submission.

USES_MATH = "import math\n" + CORRECT


@pytest.fixture
def two(tmp_path: Path) -> Path:
    path = tmp_path / "two.json"
    path.write_text(json.dumps({"board": TWO.to_grid()}))
    return path


@pytest.mark.slow
def test_a_disallowed_import_is_refused_at_run_time_by_default(tmp_path: Path, two: Path) -> None:
    path = submission(tmp_path, USES_MATH)
    args = ["grade", str(path), str(two), "--sandbox", "none", "--json", "--allow", "itertools"]
    done = runner.invoke(app, args)
    assert done.exit_code == 2
    assert "ImportError: import not allowed: 'math'" in done.stderr


@pytest.mark.slow
def test_flag_runs_the_boards_and_reports_the_import(tmp_path: Path, two: Path) -> None:
    path = submission(tmp_path, USES_MATH)
    args = ["grade", str(path), str(two), "--sandbox", "none", "--allow", "itertools"]
    done = runner.invoke(app, [*args, "--json", "--disallowed", "flag"])
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["boards"][0]["outcome"] == "solved" and report["imports"] == [
        "line 1: imports math"
    ]
    text = runner.invoke(app, [*args, "--disallowed", "flag"], terminal_width=200).stdout
    assert "import not allowed: line 1: imports math" in text


@pytest.mark.slow
def test_the_starter_s_imports_are_permitted(tmp_path: Path, two: Path) -> None:
    path = submission(tmp_path, USES_MATH)
    starter = submission(tmp_path, "from typing import List\nimport math\n", name="starter.py")
    args = ["grade", str(path), str(two), "--sandbox", "none", "--json", "--allow", "itertools"]
    done = runner.invoke(app, [*args, "--starter", str(starter)])
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["boards"][0]["outcome"] == "solved" and report["imports"] == []
    done = runner.invoke(app, ["grade", str(path), "--starter", str(starter)])
    assert done.exit_code == 2
    assert (
        done.stderr
        == "error: --starter: its imports are permitted under --allow: give --allow too\n"
    )


@pytest.mark.parametrize(
    "command", [["grade"], ["autograder", "results", "gradescope"]], ids=["grade", "results"]
)
def test_a_context_without_a_key_is_one_line_before_any_grading(
    tmp_path: Path, command: list[str]
) -> None:
    student = submission(tmp_path, CORRECT)
    done = CliRunner().invoke(app, [*command, str(student), "--context", "7"])
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr == (
        "error: --context names a board set of a kept key: give the key with --key FILE\n"
    )
