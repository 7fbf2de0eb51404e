"""``mineshafted rate``: one rating per board, --json, --start, several files, bad input."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from mineshafted.cli import app

from ..conftest import SAMPLE

runner = CliRunner()

WALLED = [[0, 1, -1, -1]]
"""A mine walled in by a mine: only the mine total decides it."""

THREE_FOR_ONE = [[1, -1], [1, 1]]
"""From the bottom-left cell: one mine among three cells, a guess."""


def _write(path: Path, *puzzles: dict[str, object]) -> Path:
    path.write_text("".join(json.dumps(p) + "\n" for p in puzzles))
    return path


def test_rate_prints_the_rating_and_what_each_technique_decided(tmp_path: Path) -> None:
    path = _write(tmp_path / "s.json", {"board": SAMPLE, "name": "sample"})
    result = runner.invoke(app, ["rate", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == "sample: subset (4x3, 2 mines; decided: count 11, subset 1)\n"


def test_rate_json_has_the_promised_fields(tmp_path: Path) -> None:
    path = _write(tmp_path / "w.jsonl", {"board": WALLED}, {"board": SAMPLE, "name": "s"})
    result = runner.invoke(app, ["rate", "--json", str(path)])
    assert result.exit_code == 0, result.output
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["technique"] == "total"
    assert (first["rows"], first["cols"], first["mines"], first["start"]) == (1, 4, 2, [0, 0])
    assert first["decided"] == {"count": 3, "subset": 0, "ac3": 0, "complete": 0, "total": 1}
    assert (first["name"], first["file"]) == (None, str(path))
    assert second["name"] == "s" and second["technique"] == "subset"


def test_rate_of_several_boards_tallies_ratings_on_stderr(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.json", {"board": SAMPLE})
    b = _write(tmp_path / "b.jsonl", {"board": WALLED}, {"board": THREE_FOR_ONE, "start": [1, 0]})
    result = runner.invoke(app, ["rate", str(a), str(b)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split(": ")[0] for line in lines] == [str(a), f"{b}:1", f"{b}:2"]
    assert lines[2].startswith(f"{b}:2: guess (2x2, 1 mines; decided: count 1; 3 unknown)")
    assert result.stderr == "rated 3 boards: subset 1, total 1, guess 1\n"


def test_rate_start_option_overrides_the_puzzles_start(tmp_path: Path) -> None:
    path = _write(tmp_path / "g.json", {"board": THREE_FOR_ONE, "start": [1, 0]})
    guessed = runner.invoke(app, ["rate", "--json", str(path)])
    assert json.loads(guessed.stdout)["technique"] == "guess"
    from_corner = runner.invoke(app, ["rate", "--json", "--start", "1,1", str(path)])
    assert json.loads(from_corner.stdout)["start"] == [1, 1]


def test_rate_refuses_a_start_on_a_mine_or_off_the_board_in_one_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "s.json", {"board": SAMPLE, "name": "sample"})
    mine = runner.invoke(app, ["rate", "--start", "1,2", str(path)])
    assert mine.exit_code == 2
    assert mine.stderr == "error: sample: --start [1, 2] is a mine\n"
    off = runner.invoke(app, ["rate", "--start", "9,0", str(path)])
    assert off.exit_code == 2
    assert off.stderr == "error: sample: --start [9, 0] is off the 4x3 board\n"
    bad = runner.invoke(app, ["rate", "--start", "x", str(path)])
    assert bad.exit_code == 2 and "is not ROW,COL" in bad.output


def test_rate_reads_standard_input(tmp_path: Path) -> None:
    result = runner.invoke(app, ["rate", "-"], input=json.dumps({"board": WALLED}))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("<stdin>: total ")


def test_rate_of_a_missing_file_is_one_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["rate", str(tmp_path / "none.json")])
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and "none.json" in result.stderr
