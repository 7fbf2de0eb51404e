"""``mineshafted rules eval``, ``rules check`` and ``board`` through typer's runner."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.formats import read_puzzles

runner = CliRunner()

SUMMARY = re.compile(r"^-?\d+\.\d{4} pts, \d+-\d+-\d+; Avg Guesses: \d+\.\d{6} Avg Time: \d+\.\d$")
DATA = Path(__file__).resolve().parents[2] / "mineshafted" / "rules" / "data"
CHAMPION = str(DATA / "champion.s4")


@pytest.fixture
def boards(tmp_path: Path) -> Path:
    folder = tmp_path / "boards"
    folder.mkdir()
    for seed in (1, 2):
        result = runner.invoke(app, ["board", "9", "9", "20", "--seed", str(seed)])
        assert result.exit_code == 0, result.output
        (folder / f"b{seed}.json").write_text(result.output)
    return folder


def test_board_prints_a_seeded_puzzle(tmp_path: Path) -> None:
    first = runner.invoke(app, ["board", "6", "7", "25", "--seed", "4"])
    again = runner.invoke(app, ["board", "6", "7", "25", "--seed", "4"])
    assert first.exit_code == 0 and first.output == again.output
    path = tmp_path / "b.json"
    path.write_text(first.output)
    (puzzle,) = read_puzzles(path)
    assert (puzzle.board.geometry.rows, puzzle.board.geometry.cols) == (6, 7)
    assert puzzle.start not in puzzle.board.mines


def test_board_refuses_a_bad_percentage() -> None:
    assert runner.invoke(app, ["board", "6", "7", "120"]).exit_code == 2


@pytest.mark.slow
def test_eval_without_a_board_plays_one_random_30x30() -> None:
    result = runner.invoke(app, ["rules", "eval", CHAMPION, "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    (board,) = data["boards"]
    assert board["name"] == "random 30x30 at 25%"
    assert board["clicked"] + board["remaining"] > 500


def test_eval_prints_the_summary_line(boards: Path) -> None:
    result = runner.invoke(app, ["rules", "eval", CHAMPION, str(boards), "--seed", "1"])
    assert result.exit_code == 0, result.output
    (line,) = result.output.splitlines()
    assert SUMMARY.match(line), line
    assert ", 2-0-0;" in line


def test_eval_json_gives_each_board_and_the_totals(boards: Path) -> None:
    result = runner.invoke(app, ["rules", "eval", CHAMPION, str(boards), "--json", "--seed", "1"])
    data = json.loads(result.output)
    assert [b["name"] for b in data["boards"]] == ["9x9-20pct-seed1", "9x9-20pct-seed2"]
    assert data["won"] == 2 and data["score"] == pytest.approx(
        sum(b["score"] for b in data["boards"])
    )
    assert SUMMARY.match(data["summary"])


def levels(boards: Path, level: int) -> str:
    board = str(boards / "b1.json")
    result = runner.invoke(app, ["rules", "eval", CHAMPION, str(level), board, "--seed", "1"])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(
    ("level", "shows"),
    [
        (0, None),
        (1, re.compile(r"^9x9-20pct-seed1: won, -?\d+\.\d{4} pts; clicked \d+, guesses \d+", re.M)),
        (2, re.compile(r"^rule usage:\n  all-mines-found: fired \d+ time\(s\)", re.M)),
        (3, re.compile(r"^no rule applies; free guess at \(\d, \d\)\n[?]{9}$", re.M)),
        (4, re.compile(r"^fire all-\S+ at \(\d, \d\)$", re.M)),
        (5, re.compile(r"^fire all-\S+ at \(\d, \d\)\n[?M0-9]{9}$", re.M)),
        (6, re.compile(r"^try all-mines-found at \(0, 0\): ", re.M)),
    ],
)
@pytest.mark.slow
def test_each_debug_level_adds_its_output(
    boards: Path, level: int, shows: re.Pattern[str] | None
) -> None:
    output = levels(boards, level)
    assert SUMMARY.match(output.splitlines()[-1])
    if shows is None:
        assert len(output.splitlines()) == 1
    else:
        assert shows.search(output), output[:2000]
        below = levels(boards, level - 1)
        assert not shows.search(below)


def test_the_debug_level_may_be_left_out_before_a_board(boards: Path) -> None:
    result = runner.invoke(app, ["rules", "eval", CHAMPION, str(boards / "b1.json"), "--seed", "1"])
    assert result.exit_code == 0 and ", 1-0-0;" in result.output


def test_a_bad_rule_file_is_one_line_with_its_place(tmp_path: Path, boards: Path) -> None:
    path = tmp_path / "bad.s4"
    path.write_text("{r\n---\n-1\n---\n=>\nno-action-pattern\nno-default-action\n}\n")
    result = runner.invoke(app, ["rules", "eval", str(path), str(boards)])
    assert result.exit_code == 2
    assert (
        result.output == f"error: {path}:3:1: ragged left-hand pattern: this row has 2 "
        "squares, the first has 3\n"
    )


@pytest.mark.parametrize(
    "arguments",
    [
        ["rules", "eval", "no-such-file.s4"],
        ["rules", "eval", CHAMPION, "7"],
        ["rules", "eval", CHAMPION, "0", "no-such-board.json"],
        ["rules", "check", "no-such-file.s4"],
    ],
    ids=["rules", "level", "board", "check"],
)
def test_bad_input_exits_2(arguments: list[str]) -> None:
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and result.output.count("\n") == 1


def test_the_time_limit_option(boards: Path) -> None:
    result = runner.invoke(
        app, ["rules", "eval", CHAMPION, str(boards), "--time-limit", "0", "--json"]
    )
    data = json.loads(result.output)
    assert data["timeouts"] == 2 and data["score"] < 0


def test_shipped_rules_are_found_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["rules", "check", "rules/examples/corner.s4"])
    assert result.exit_code == 0
    assert result.output == "corner-1: sound: no board where it matches makes it go wrong\n"


def test_check_exits_1_on_an_unsound_rule(tmp_path: Path) -> None:
    path = tmp_path / "mixed.s4"
    path.write_text(
        "{good ?-- -1- --- => M-- -1- --- no-default-action}\n"
        "{bad ??- -1- --- => M-- -1- --- no-default-action}\n"
    )
    result = runner.invoke(app, ["rules", "check", str(path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == "good: sound: no board where it matches makes it go wrong"
    assert lines[1].startswith("bad: unsound: marks a safe square at pattern square (0, 0)")
    assert lines[2].strip().startswith("seen")
    data = json.loads(runner.invoke(app, ["rules", "check", str(path), "--json"]).output)
    assert [r["verdict"] for r in data["rules"]] == ["sound", "unsound"]
    assert data["rules"][1]["counterexample"]


def test_eval_record_writes_each_move_with_the_rule_that_made_it(tmp_path: Path) -> None:
    from mineshafted.game import Flag, Reveal, read_record, rebuild

    board = tmp_path / "b.json"
    made = runner.invoke(app, ["board", "9", "9", "10", "--seed", "4"])
    board.write_text(made.stdout)
    path = tmp_path / "game.jsonl"
    result = runner.invoke(
        app,
        ["rules", "eval", "rules/champion.s4", str(board), "--seed", "1", "--record", str(path)],
    )
    assert result.exit_code == 0, result.output
    record = read_record(path)
    reasons = {e.reason for e in record.events if isinstance(e, Reveal | Flag)}
    assert "free guess" in reasons and len(reasons) > 1
    assert rebuild(record).over
    again = runner.invoke(
        app, ["rules", "eval", "rules/champion.s4", str(board), "--record", str(path)]
    )
    assert again.exit_code == 2
    assert again.stderr == f"error: {path}: exists (use --force to replace it)\n"
