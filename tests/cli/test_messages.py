"""What the commands say when something goes wrong, or when there is nothing to do: the file at
fault named, nothing empty, one line however long the value that caused it, one warning for
many of a kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.cli.output import LONGEST_LINE, LONGEST_WORD

from ..conftest import SAMPLE

runner = CliRunner()


def test_a_page_that_cannot_be_written_names_the_page_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mineshafted.replay

    def full(record: object, path: Path, **_: object) -> Path:
        Path(path).write_text("half a page")
        raise OSError(28, "No space left on device", str(path))  # the file beside the page

    monkeypatch.setattr(mineshafted.replay, "write_page", full)
    puzzle = tmp_path / "sample.json"
    puzzle.write_text(json.dumps({"board": SAMPLE}))
    page = tmp_path / "page.html"
    result = runner.invoke(app, ["replay", str(puzzle), "-o", str(page)])
    assert result.exit_code == 2
    assert result.stderr == f"error: {page}: No space left on device\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sample.json"]


def test_a_name_holding_a_lone_surrogate_is_written_as_its_escape(tmp_path: Path) -> None:
    puzzle = tmp_path / "odd.json"
    puzzle.write_text('{"board": [[0, 1, -1]], "name": "a\\ud800b"}')  # JSON's escape
    page = tmp_path / "odd.html"
    result = runner.invoke(app, ["replay", str(puzzle)])
    assert result.exit_code == 0, result.output
    assert "<title>a\\ud800b: solved from the start cell</title>" in page.read_text("utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["odd.html", "odd.json"]


@pytest.mark.skipif(not Path("/proc/version").is_file(), reason="needs /proc")
def test_results_that_cannot_be_written_name_the_file() -> None:
    result = runner.invoke(app, ["play", "4", "4", "2", "-n", "2", "--out", "/proc/version"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: /proc/version: ")
    assert result.stderr.count("\n") == 1


def test_rules_check_says_when_a_file_has_no_rules(tmp_path: Path) -> None:
    empty = tmp_path / "empty.s4"
    empty.write_text("; nothing but a comment\n")
    result = runner.invoke(app, ["rules", "check", str(empty)])
    assert result.exit_code == 0
    assert result.stdout == f"{empty}: no rules to check\n"


LONG = "x" * 10_000


@pytest.mark.parametrize(
    "args",
    [
        [LONG],
        ["solve", LONG],
        ["play", "4", "4", "2", "--policy", LONG],
        ["play", "4", "4", "2", "--start", LONG],
        ["experiment", "density", "--densities", LONG, "--out", "{tmp}"],
        ["generate", "5", "5", "3", "--technique", LONG],
        ["solve", "-", "--search", LONG],
        ["rate", "-", "--start", " ".join([LONG[:50]] * 200)],
    ],
    ids=["command", "file", "policy", "start", "densities", "technique", "choice", "spaces"],
)
def test_a_long_value_is_cut_in_its_error_line(tmp_path: Path, args: list[str]) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = runner.invoke(app, args, input=json.dumps(SAMPLE))
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ") and len(line) <= len("error: ") + LONGEST_LINE + 30
    assert "x" * (LONGEST_WORD + 1) not in line
    assert "... (10000 characters)" in line or "characters)" in line


@pytest.mark.slow  # over a second
def test_games_written_twice_by_two_runs_are_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    out = tmp_path / "games.jsonl"
    first = runner.invoke(app, ["play", "5", "5", "3", "-n", "30", "--out", str(out)])
    assert first.exit_code == 0, first.output
    lines = out.read_text().splitlines()
    out.write_text("\n".join([*lines, *lines[1:]]) + "\n")  # a second run wrote them too
    again = runner.invoke(app, ["play", "5", "5", "3", "-n", "30", "--out", str(out)])
    assert again.exit_code == 0, again.output
    (warning,) = [r for r in caplog.records if r.levelname == "WARNING"]
    assert "30 line(s) repeat a game already in the file" in warning.getMessage()
