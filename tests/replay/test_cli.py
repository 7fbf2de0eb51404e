"""``mineshafted replay`` through typer's runner: records, puzzles, --out, --force, --open."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.game import GameRecord, write_record

from .conftest import PUZZLES

runner = CliRunner()


@pytest.fixture
def record_file(tmp_path: Path, guessing_game: GameRecord) -> Path:
    path = tmp_path / "game.jsonl"
    write_record(guessing_game, path)
    return path


def _data(path: Path) -> dict[str, object]:
    text = path.read_text()
    start = text.index('id="data">') + len('id="data">')
    data: dict[str, object] = json.loads(text[start : text.index("</script>", start)])
    return data


def test_a_record_becomes_a_page_beside_it(record_file: Path) -> None:
    result = runner.invoke(app, ["replay", str(record_file)])
    assert result.exit_code == 0, result.output
    page = record_file.with_suffix(".html")
    assert result.output.startswith(f"wrote {page}: ")
    data = _data(page)
    assert data["title"] == "game.jsonl"
    assert data["outcome"]["status"] == "won"  # type: ignore[index]


def test_a_puzzle_is_solved_and_recorded_with_reasons(tmp_path: Path) -> None:
    out = tmp_path / "solve.html"
    puzzle = PUZZLES / "needs-guess" / "30x16-99-01.json"
    result = runner.invoke(app, ["replay", str(puzzle), "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = _data(out)
    assert {"start", "count", "ac3", "complete"} <= set(data["reasons"])  # type: ignore[arg-type]
    assert data["outcome"] == {"status": None, "step": None, "mines": []}  # a stall


def test_with_total_tells_the_solver_and_the_page(tmp_path: Path) -> None:
    puzzle = tmp_path / "walled.json"
    puzzle.write_text(json.dumps({"board": [[0, 1, -1, 1]]}))
    result = runner.invoke(app, ["replay", str(puzzle), "--with-total"])
    assert result.exit_code == 0, result.output
    data = _data(tmp_path / "walled.html")
    assert data["total_known"] is True and "total" in data["reasons"]  # type: ignore[operator]


def test_an_existing_page_is_kept_without_force(record_file: Path) -> None:
    page = record_file.with_suffix(".html")
    page.write_text("keep")
    result = runner.invoke(app, ["replay", str(record_file)])
    assert result.exit_code == 2
    assert result.output == f"error: {page}: exists (use --force to replace it)\n"
    assert page.read_text() == "keep"
    assert runner.invoke(app, ["replay", str(record_file), "--force"]).exit_code == 0
    assert page.read_text() != "keep"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"format": "mineshafted-game", "version": 9}\n', "unknown format version 9"),
        ("not json\n", "not valid JSON"),
        ('{"board": [[0, 1], [1, 2]]}', "row 0, column 1: clue 1 but 0 adjacent mine"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path: Path, content: str, message: str) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_text(content)
    result = runner.invoke(app, ["replay", str(source)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and message in result.output, result.output
    assert not (tmp_path / "bad.html").exists()


def test_a_record_that_does_not_replay_exits_2(tmp_path: Path, record_file: Path) -> None:
    lines = record_file.read_text().splitlines()
    source = tmp_path / "cut.jsonl"
    source.write_text("\n".join([lines[0], *lines[2:]]) + "\n")  # the first reveal dropped
    result = runner.invoke(app, ["replay", str(source)])
    assert result.exit_code == 2 and result.output.startswith(f"error: {source}: "), result.output


def test_a_missing_file_and_a_missing_puzzle_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.json")])
    assert result.exit_code == 2 and "nope.json" in result.output
    puzzle = tmp_path / "one.json"
    puzzle.write_text(json.dumps({"board": [[0, 0]]}))
    result = runner.invoke(app, ["replay", str(puzzle), "--puzzle", "2"])
    assert result.exit_code == 2
    assert "--puzzle 2, but the file holds 1 puzzle(s)" in result.output


def test_open_hands_the_page_to_the_browser(
    record_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: opened.append(url) or True)
    out = record_file.parent / "shown.html"
    result = runner.invoke(app, ["replay", str(record_file), "-o", str(out), "--open"])
    assert result.exit_code == 0, result.output
    assert opened == [out.resolve().as_uri()]


def test_open_with_no_browser_says_so_and_where_the_page_is(
    record_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: False)
    out = record_file.parent / "shown.html"
    result = runner.invoke(app, ["replay", str(record_file), "-o", str(out), "--open"])
    assert result.exit_code == 0, result.output
    assert f"no browser could be started; open {out.resolve()}" in result.output


def test_a_stalled_solve_is_titled_as_needing_a_guess(tmp_path: Path) -> None:
    puzzle = tmp_path / "stall.json"
    puzzle.write_text(json.dumps({"board": [[1, -1], [1, 1]], "name": "one mine in three"}))
    result = runner.invoke(app, ["replay", str(puzzle)])
    assert result.exit_code == 0, result.output
    title = _data(puzzle.with_suffix(".html"))["title"]
    assert title == "one mine in three: stalled: needs a guess"


def test_a_solved_puzzle_is_titled_as_solved(tmp_path: Path) -> None:
    puzzle = tmp_path / "sample.json"
    puzzle.write_text(json.dumps({"board": [[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]}))
    result = runner.invoke(app, ["replay", str(puzzle)])
    assert result.exit_code == 0, result.output
    assert _data(puzzle.with_suffix(".html"))["title"] == "sample.json: solved from the start cell"
