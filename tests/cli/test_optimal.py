"""``mineshafted optimal`` through typer's runner: boards, positions, budgets, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app

runner = CliRunner()

CODE_GOLF = {
    "board": [[None] * 5, [None, 1, None, None, None], [None, 3, None, None, None], [None] * 5],
    "mines": 5,
}
"""The Code Golf challenge's second example: best play wins 285 of 360, first at (0, 2)."""


def test_a_board_in_text() -> None:
    result = runner.invoke(app, ["optimal", "3", "3", "2", "--first", "none"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "3x3 with 2 mines, first reveal unprotected: best play wins 24 of 36 placements = "
        "24/36 = 66.6667%"
    )
    assert lines[1] == "best first reveals: (0,1), (1,0), (1,2), (2,1)"
    assert lines[2].startswith("searched ") and "belief states" in lines[2]


def test_a_board_in_json() -> None:
    result = runner.invoke(app, ["optimal", "3", "3", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {k: data[k] for k in ("rows", "cols", "mines", "first", "start")} == {
        "rows": 3,
        "cols": 3,
        "mines": 2,
        "first": "safe",
        "start": None,
    }
    assert (data["wins"], data["placements"]) == (24, 28)
    assert data["percent"] == pytest.approx(100 * 24 / 28)
    assert data["best"] == [[0, 1], [1, 0], [1, 2], [2, 1]]
    assert data["states"] >= 1 and data["seconds"] >= 0


def test_a_given_first_reveal() -> None:
    result = runner.invoke(
        app, ["optimal", "3", "3", "2", "--first", "opening", "--start", "0,0", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["wins"], data["placements"], data["start"]) == (9, 10, [0, 0])
    text = runner.invoke(app, ["optimal", "3", "3", "2", "--start", "corner"])
    assert "first reveal at (0,0)" in text.stdout


def test_a_position(tmp_path: Path) -> None:
    path = tmp_path / "golf.json"
    path.write_text(json.dumps(CODE_GOLF))
    result = runner.invoke(app, ["optimal", str(path)])
    assert result.exit_code == 0, result.output
    assert "best play wins 285 of 360 placements" in result.stdout
    assert "best move: (0,2)" in result.stdout
    data = json.loads(runner.invoke(app, ["optimal", str(path), "--json"]).stdout)
    assert (data["position"], data["wins"], data["best"]) == (str(path), 285, [[0, 2]])


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["4", "x", "3"], "COLS must be a whole number, not 'x'"),
        (["4", "4"], "give ROWS COLS MINES or one POSITION.json, not 2 argument(s)"),
        (["3", "3", "-1"], "MINES must be at least 0, not -1"),
        (["0", "3", "1"], "ROWS must be at least 1, not 0"),
        (["3", "3", "9"], "9 mines leave no safe cell on a 3x3 board"),
        (["3", "3", "6", "--first", "opening"], "do not fit on a 3x3 board with an opening"),
        (["3", "3", "1", "--start", "5,5"], "start 5,5 is off the 3x3 board"),
        (["8", "8", "10"], "C(64, 10) = 151,473,214,816 placements, more than 200,000"),
        (["4", "4", "4", "--max-states", "5"], "more than 5 belief states (--max-states)"),
        (["4", "4", "4", "--time-limit", "0"], "not done within 0 s (--time-limit)"),
        (["nowhere.json"], "nowhere.json: no such file"),
        # Issue 40 item 5: placement limits past what memory holds are refused before the
        # table is made (they failed inside numpy, or grew to 3.35 GB in 16 s).
        (
            ["8", "8", "10", "--max-placements", str(10**20)],
            "C(64, 10) = 151,473,214,816 placements would take about 60,671,568 MiB, "
            "more than 2,048 MiB (--memory)",
        ),
        (
            ["8", "8", "10", "--max-placements", str(10**30)],
            "more than 2,048 MiB (--memory)",
        ),
        (
            ["6", "6", "10", "--max-placements", "1000000000"],
            "C(36, 10) = 254,186,856 placements would take about 67,875 MiB, more than "
            "2,048 MiB (--memory)",
        ),
        (["4", "5", "5", "--memory", "2"], "would take about 3.0 MiB, more than 2 MiB (--memory)"),
        (
            ["4", "5", "5", "--memory", "3"],
            "the search stopped: the table and its belief states outgrew 3 MiB (--memory)",
        ),
        (["4", "4", "4", "--memory", "0.5"], "Invalid value for '--memory'"),
    ],
)
def test_bad_input_is_one_line(arguments: list[str], message: str) -> None:
    result = runner.invoke(app, ["optimal", *arguments])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_position_takes_no_first_reveal(tmp_path: Path) -> None:
    path = tmp_path / "golf.json"
    path.write_text(json.dumps(CODE_GOLF))
    result = runner.invoke(app, ["optimal", str(path), "--first", "none"])
    assert result.exit_code == 2
    assert "leave out --first and --start" in result.stderr


def test_a_position_no_placement_fits(tmp_path: Path) -> None:
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps({"board": [[1, None, None]], "mines": 3}))
    result = runner.invoke(app, ["optimal", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {path}: ")
