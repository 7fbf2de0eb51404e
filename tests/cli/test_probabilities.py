"""``mineshafted probabilities`` and ``solve --with-total`` through typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.solver import counted

runner = CliRunner()

# Cell (1, 2) is the mine the three 1s share... no: each 1 in column 1 sees column 2.
# The middle 1 sees (0, 2), (1, 2) and (2, 2); the top and bottom 1s see two of them each,
# so (1, 2) is the mine and column 3 holds the two other mines of three.
POSITION = {"board": [[0, 1, None, None], [0, 1, None, None], [0, 1, None, None]], "mines": 3}


@pytest.fixture
def position_file(tmp_path: Path) -> Path:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(POSITION))
    return path


def test_json_gives_a_grid_of_exact_probabilities(position_file: Path) -> None:
    result = runner.invoke(app, ["probabilities", str(position_file), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mines_left"] == 3 and data["placements"] == "3"
    assert data["probabilities"] == [
        [None, None, 0.0, pytest.approx(2 / 3)],
        [None, None, 1.0, pytest.approx(2 / 3)],
        [None, None, 0.0, pytest.approx(2 / 3)],
    ]


def test_text_shows_percentages_and_the_safest_cells(position_file: Path) -> None:
    result = runner.invoke(app, ["probabilities", str(position_file)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == [".", "1", "0", "67"]
    assert lines[1].split() == [".", "1", "100", "67"]
    assert "safest: (0, 2), (2, 2) at 0.0% mine" in result.stdout
    assert "mines left: 3; placements: 3" in result.stdout


def test_a_memory_that_admits_the_count_prints_what_the_default_prints(tmp_path: Path) -> None:
    # Clues 1 on every other square of every other row of 10x10: one frontier of 75 cells,
    # whose count needs between 1 and 4 MiB of tables as estimated.
    board = [[1 if r % 2 == 0 and c % 2 == 0 else None for c in range(10)] for r in range(10)]
    path = tmp_path / "sparse.json"
    path.write_text(json.dumps({"board": board, "mines": 12}))
    # Short first: a count made once is remembered in the process, whatever the budget.
    short = runner.invoke(app, ["probabilities", str(path), "--json", "--memory", "1"])
    assert short.exit_code == 2 and short.stdout == "", short.output
    assert short.stderr.count("\n") == 1 and "more than 1 MiB (--memory)" in short.stderr
    enough = runner.invoke(app, ["probabilities", str(path), "--json", "--memory", "4"])
    assert enough.exit_code == 0, enough.output
    counted.cache_clear()
    default = runner.invoke(app, ["probabilities", str(path), "--json"])
    assert (default.exit_code, default.stdout) == (0, enough.stdout)
    assert json.loads(default.stdout)["placements"] == "62138"


@pytest.mark.parametrize("memory", ["0.5", "nan", "a lot"])
def test_a_memory_below_one_mib_is_one_line(position_file: Path, memory: str) -> None:
    result = runner.invoke(app, ["probabilities", str(position_file), "--memory", memory])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert "Invalid value for '--memory'" in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"board": [[0, 1, null]], "mines": 5}', "5 mine(s) left, but at most 1 fit"),
        ('{"board": [[0, 9, null]], "mines": 1}', "field 'board', row 0, column 1: 9 is not"),
        ('{"board": [[0, 1, null]]}', "field 'mines'"),
        ('{"board": [[1, 1, 1]], "mines": 1}', "row 0, column 0: clue 1 needs 1 more mine"),
        ("[1, 2", "not JSON"),
    ],
)
def test_bad_positions_exit_2_with_one_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(content)
    result = runner.invoke(app, ["probabilities", str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr
    assert str(path) in result.stderr


def test_a_missing_position_file_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["probabilities", str(tmp_path / "nope.json")])
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_solve_with_total_decides_what_only_the_count_decides(tmp_path: Path) -> None:
    # The right half is walled off by the mine column: no clue sees it.
    board = [[0, 2, -1, 2, 0], [0, 2, -1, 2, 0]]
    path = tmp_path / "walled.json"
    path.write_text(json.dumps({"board": board}))
    alone = runner.invoke(app, ["solve", str(path), "--json"])
    assert alone.exit_code == 1
    total = runner.invoke(app, ["solve", str(path), "--json", "--with-total"])
    assert total.exit_code == 0, total.output
    report = json.loads(total.stdout)
    assert report["board"] == board and report["proven_by"]["total"] == 4


def test_a_position_larger_than_the_cap_is_refused_unread(tmp_path: Path) -> None:
    from mineshafted.formats import MAX_FILE_BYTES

    path = tmp_path / "huge.json"
    with path.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)
    result = runner.invoke(app, ["probabilities", str(path)])
    assert result.exit_code == 2 and "not read past that cap" in result.stderr
