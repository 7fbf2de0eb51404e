"""``mineshafted play`` through typer's runner: output, --json, resume, one-line errors."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.cli.status import EXIT_INTERRUPTED

runner = CliRunner()

KEYS = {
    "rows",
    "cols",
    "mines",
    "first",
    "start",
    "policy",
    "games",
    "wins",
    "win_rate",
    "ci95",
    "guesses_per_game",
    "seconds_per_game",
    "seed",
}


def test_one_game_prints_each_guess_and_the_final_board() -> None:
    result = runner.invoke(app, ["play", "9", "9", "10", "--seed", "3"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "9x9/10, first move safe at corner, policy best, seed 3"
    guesses = [line for line in lines if line.startswith("guess ")]
    assert guesses and all("% mine: " in line for line in guesses)
    board = lines[1 + len(guesses) : 10 + len(guesses)]
    assert len(board) == 9 and all(len(row.split()) == 9 for row in board)
    assert lines[-1].startswith(("won after", "lost after"))


def test_json_summarises_the_games_with_every_key() -> None:
    result = runner.invoke(app, ["play", "9", "9", "10", "-n", "12", "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= KEYS
    assert (data["rows"], data["cols"], data["mines"], data["games"]) == (9, 9, 10, 12)
    assert (data["first"], data["start"], data["policy"], data["seed"]) == (
        "safe",
        "corner",
        "best",
        5,
    )
    low, high = data["ci95"]
    assert low <= data["win_rate"] == data["wins"] / 12 <= high


@pytest.mark.slow
def test_the_same_command_wins_the_same_games_with_two_jobs() -> None:
    args = ["play", "9", "9", "10", "-n", "16", "--policy", "safest", "--json"]
    one = json.loads(runner.invoke(app, args).stdout)
    two = json.loads(runner.invoke(app, [*args, "--jobs", "2"]).stdout)
    assert (one["wins"], one["guesses_per_game"]) == (two["wins"], two["guesses_per_game"])


def test_many_games_print_a_summary_line() -> None:
    result = runner.invoke(app, ["play", "8", "8", "10", "-n", "5", "--first", "opening"])
    assert result.exit_code == 0, result.output
    heading, summary = result.stdout.splitlines()
    assert heading == "8x8/10, first move opening at corner, policy best, seed 0"
    assert "/5 won: " in summary and "95% CI" in summary


def test_out_resumes_a_study(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    args = ["play", "9", "9", "10", "--out", str(out), "--json"]
    first = json.loads(runner.invoke(app, [*args, "-n", "4"]).stdout)
    again = json.loads(runner.invoke(app, [*args, "-n", "10"]).stdout)
    assert (first["resumed"], again["resumed"], again["games"]) == (0, 4, 10)
    assert len(out.read_text().splitlines()) == 11


def test_interrupted_study_prints_what_it_did_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mineshafted.studies.classic as classic

    played = classic.play_one

    def interrupted_at_three(s: classic.Study, index: int) -> classic.GameLine:
        if index == 3:
            raise KeyboardInterrupt
        return played(s, index)

    monkeypatch.setattr(classic, "play_one", interrupted_at_three)
    out = tmp_path / "games.jsonl"
    result = runner.invoke(app, ["play", "9", "9", "10", "-n", "8", "--out", str(out)])
    assert result.exit_code == EXIT_INTERRUPTED
    assert "/3 won: " in result.stdout
    assert "interrupted: 3 of 8 game(s) done; run the same command to resume" in result.stderr


def test_dask_without_dask_installed_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = runner.invoke(app, ["play", "9", "9", "10", "-n", "3", "--dask", "local"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "pip install 'mineshafted[dask]'" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["0", "9", "10"], "at least 1 row and 1 column"),
        (["9", "0", "10"], "at least 1 row and 1 column"),
        (["9", "9", "81"], "81 mines do not fit on a 9x9 board"),
        (["9", "9", "78", "--first", "opening"], "78 mines do not fit"),
        (["9", "9", "10", "--start", "9,0"], "start 9,0 is off the 9x9 board"),
        (["9", "9", "10", "--start", "middle"], "not corner, centre or ROW,COL"),
        (["9", "9", "10", "--games", "0"], "--games must be at least 1"),
        (["9", "9", "10", "--jobs", "0"], "--jobs must be at least 1"),
        (["9", "9", "10", "--policy", "luck"], "no policy is called 'luck'"),
        (["9", "9", "10", "--policy", "best+luck"], "ingredients are tolerance, corners,"),
        (["9", "9", "10", "--policy", "best-fifty-fifty"], "no policy is called"),
        (
            ["9", "9", "10", "--policy", "best+deep"],
            "deep was removed from best (it won no more games; see docs/benchmarks.md); best's "
            "ingredients are tolerance, corners, lookahead, progress, endgame, fifty",
        ),
        (["9", "9", "10", "--policy", "best+uncapped-fifty"], "uncapped was removed from best"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert message in result.stderr


def test_a_results_file_of_another_study_is_refused_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    runner.invoke(app, ["play", "9", "9", "10", "-n", "2", "--out", str(out)])
    result = runner.invoke(app, ["play", "9", "9", "11", "-n", "2", "--out", str(out)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "written by another study (mines 10, not 11)" in result.stderr


def test_play_record_keeps_each_guess_with_every_unknown_cells_odds(tmp_path: Path) -> None:
    from mineshafted.game import Reveal, read_record

    path = tmp_path / "game.jsonl"
    result = runner.invoke(app, ["play", "30", "16", "99", "--seed", "3", "--record", str(path)])
    assert result.exit_code == 0, result.output
    guesses = [e for e in read_record(path).events if isinstance(e, Reveal) and e.guess]
    assert guesses and all(e.detail and e.detail["odds"] for e in guesses)
    first = guesses[0]
    assert first.detail is not None
    assert first.detail["odds"][str(first.cell)] == pytest.approx(first.probability)
    again = runner.invoke(app, ["play", "9", "9", "10", "--record", str(path)])
    assert again.exit_code == 2
    assert again.stderr == f"error: {path}: exists (use --force to replace it)\n"
    forced = runner.invoke(app, ["play", "9", "9", "10", "--record", str(path), "--force"])
    assert forced.exit_code == 0 and read_record(path).header.rows == 9
    many = runner.invoke(app, ["play", "9", "9", "10", "-n", "3", "--record", str(tmp_path / "x")])
    assert many.exit_code == 2 and "--record takes one game" in many.stderr


@pytest.mark.parametrize(
    ("command", "one"), [(["play"], "game"), (["solve"], "puzzle"), (["rules", "eval"], "board")]
)
def test_record_is_one_option_shared_by_the_commands(command: list[str], one: str) -> None:
    import typer.main

    found: Any = typer.main.get_command(app)
    for name in command:
        found = found.commands[name]
    (option,) = [p for p in found.params if "--record" in p.opts]
    assert option.metavar == "FILE.jsonl"
    assert option.help.startswith(f"With one {one}: write its game record (")
    assert option.help.endswith(
        "for `mineshafted replay`. An existing file is replaced only with --force."
    )


# -- the final board of one game ------------------------------------------------------------------


def final_board(stdout: str, rows: int) -> list[list[str]]:
    """The final board of one game's output: the ``rows`` lines before the last."""
    return [line.split() for line in stdout.splitlines()[-1 - rows : -1]]


def test_one_lost_game_shows_the_mines_the_player_knew_apart_from_the_unknown_cells() -> None:
    result = runner.invoke(app, ["play", "16", "30", "99", "--seed", "3"])
    assert result.stdout.splitlines()[-1].startswith("lost after")
    glyphs = [glyph for row in final_board(result.stdout, 16) for glyph in row]
    assert glyphs.count("*") == 1  # the mine that ended the game
    assert glyphs.count("F") > 10 and glyphs.count("?") > 10  # known mines; cells not known


def test_one_won_game_shows_every_mine_as_known() -> None:
    result = runner.invoke(app, ["play", "16", "30", "99", "--seed", "1"])
    assert result.stdout.splitlines()[-1].startswith("won after")
    glyphs = [glyph for row in final_board(result.stdout, 16) for glyph in row]
    assert glyphs.count("F") == 99 and "?" not in glyphs


# -- play --boards ---------------------------------------------------------------------------------


def write_boards(path: Path, count: int, rows: int = 9, cols: int = 9, mines: int = 10) -> Path:
    """A boards file of ``count`` mine lists, board ``i`` drawn from seed ``i``, first reveal at
    the corner (kept clear)."""
    import random

    lines = []
    for i in range(count):
        drawn = random.Random(i).sample(range(1, rows * cols), mines)
        listed = [divmod(cell, cols) for cell in sorted(drawn)]
        lines.append(json.dumps({"rows": rows, "cols": cols, "mines": listed, "first": [0, 0]}))
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_boards_play_every_line_and_print_a_summary(tmp_path: Path) -> None:
    path = write_boards(tmp_path / "b.jsonl", 6)
    result = runner.invoke(app, ["play", "--boards", str(path)])
    assert result.exit_code == 0, result.output
    heading, summary = result.stdout.splitlines()
    assert heading == f"6 board(s) of {path} (9x9/10 each), first move safe, policy best, seed 0"
    assert summary.startswith(tuple(f"{wins}/6 won: " for wins in range(7)))


def test_a_policy_with_ingredients_switched_plays_and_is_named_in_the_json() -> None:
    result = runner.invoke(
        app, ["play", "9", "9", "10", "-n", "3", "--policy", "best-fifty-endgame", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["policy"] == "best-endgame-fifty"


def test_boards_refuse_an_unknown_policy_in_one_line(tmp_path: Path) -> None:
    path = write_boards(tmp_path / "b.jsonl", 2)
    result = runner.invoke(app, ["play", "--boards", str(path), "--policy", "best+luck"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "no policy is called 'best+luck'" in result.stderr


def test_boards_json_has_every_key_and_names_the_file(tmp_path: Path) -> None:
    import hashlib

    path = write_boards(tmp_path / "b.jsonl", 5, 8, 8, 10)
    result = runner.invoke(app, ["play", "--boards", str(path), "--json", "-n", "4"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= KEYS | {"boards", "sha256"}
    assert (data["rows"], data["cols"], data["mines"], data["games"]) == (8, 8, 10, 4)
    assert (data["start"], data["boards"]) == (None, str(path))
    assert data["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.slow
def test_boards_win_the_same_games_with_two_jobs(tmp_path: Path) -> None:
    path = write_boards(tmp_path / "b.jsonl", 16)
    args = ["play", "--boards", str(path), "--policy", "safest", "--json"]
    one = json.loads(runner.invoke(app, args).stdout)
    two = json.loads(runner.invoke(app, [*args, "--jobs", "2"]).stdout)
    assert (one["wins"], one["guesses_per_game"]) == (two["wins"], two["guesses_per_game"])


def test_one_board_is_shown_as_one_game(tmp_path: Path) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text('{"board": [[0, 0, 0], [1, 1, 0], [-1, 1, 0]], "start": [0, 2]}\n')
    result = runner.invoke(app, ["play", "--boards", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"{path}, line 1: 3x3/1, first move safe at 0,2, policy best, seed 0",
        ". . .",
        "1 1 .",
        "F 1 .",
        result.stdout.splitlines()[-1],
    ]
    assert result.stdout.splitlines()[-1].startswith("won after 0 guess(es) in ")


def test_boards_out_resumes(tmp_path: Path) -> None:
    path = write_boards(tmp_path / "b.jsonl", 10)
    out = tmp_path / "games.jsonl"
    args = ["play", "--boards", str(path), "--out", str(out), "--json"]
    first = json.loads(runner.invoke(app, [*args, "-n", "4"]).stdout)
    again = json.loads(runner.invoke(app, args).stdout)
    assert (first["resumed"], again["resumed"], again["games"]) == (0, 4, 10)
    head, *games = out.read_text().splitlines()
    assert json.loads(head)["study"]["boards"] == f"sha256:{again['sha256']}"
    assert sorted(json.loads(line)["index"] for line in games) == list(range(10))
    fresh = json.loads(runner.invoke(app, ["play", "--boards", str(path), "--json"]).stdout)
    assert (fresh["wins"], fresh["guesses_per_game"]) == (again["wins"], again["guesses_per_game"])


def test_an_interrupted_boards_study_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mineshafted.studies.boards as boards

    played = boards.play_one

    def interrupted_at_three(study: Any, index: int) -> Any:
        if index == 3:
            raise KeyboardInterrupt
        return played(study, index)

    path = write_boards(tmp_path / "b.jsonl", 6)
    out = tmp_path / "games.jsonl"
    monkeypatch.setattr(boards, "play_one", interrupted_at_three)
    result = runner.invoke(app, ["play", "--boards", str(path), "--out", str(out)])
    assert result.exit_code == EXIT_INTERRUPTED
    assert "interrupted: 3 of 6 game(s) done; run the same command to resume" in result.stderr
    monkeypatch.undo()
    again = runner.invoke(app, ["play", "--boards", str(path), "--out", str(out), "--json"])
    assert json.loads(again.stdout)["resumed"] == 3


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"rows": 9, "cols": 9, "mines": [[0, 0]], "first": [0, 0]}', '"first" [0, 0] is a mine'),
        ('{"rows": 9, "cols": 9, "mines": [[9, 0]], "first": [0, 0]}', '"mines"[0] [9, 0] is off'),
        ('{"rows": 9, "cols": 9, "mines": [[1, 1], [1, 1]], "first": [0, 0]}', "a mine already"),
        ('{"rows": 9, "cols": "9", "mines": [], "first": [0, 0]}', '"cols" must be an integer'),
        ('{"rows": 9, "cols": 9, "mines": [[1, "1"]], "first": [0, 0]}', "must be [row, column]"),
        ('{"rows": 9, "cols": 9, "mines": [[1, 1]]', "not valid JSON"),
        ("", "empty: one board a line"),
    ],
)
def test_a_bad_board_is_one_line_naming_the_file_and_line(
    tmp_path: Path, line: str, message: str
) -> None:
    path = write_boards(tmp_path / "b.jsonl", 3)
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines[:2], line, *lines[2:]]) + "\n")
    result = runner.invoke(app, ["play", "--boards", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {path}: line 3: ") and result.stderr.count("\n") == 1
    assert message in result.stderr and "Traceback" not in result.output


def test_an_opening_is_refused_where_a_first_reveal_is_not_a_zero(tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    path.write_text(
        '{"rows": 4, "cols": 4, "mines": [[3, 3]], "first": [0, 0]}\n'
        '{"rows": 4, "cols": 4, "mines": [[3, 3]], "first": [2, 2]}\n'
    )
    ok = runner.invoke(app, ["play", "--boards", str(path)])
    assert ok.exit_code == 0, ok.output
    result = runner.invoke(app, ["play", "--boards", str(path), "--first", "opening"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    # the wording of the first reveal is play_board's (probability/play.py)
    assert re.search(
        rf"{re.escape(str(path))}: line 2: the first \w+ \[2, 2\] shows 1, not 0", result.stderr
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["9", "9", "10"], "--boards gives the boards: leave out ROWS COLS MINES"),
        (["9"], "--boards gives the boards: leave out ROWS COLS MINES"),
        (["--start", "3,3"], "--boards gives each first reveal"),
        (["-n", "4"], "--games 4: "),
        (["-n", "0"], "--games must be at least 1, not 0"),
        (["--jobs", "0"], "--jobs must be at least 1"),
    ],
)
def test_bad_arguments_with_boards_exit_2_with_one_line(
    tmp_path: Path, args: list[str], message: str
) -> None:
    path = write_boards(tmp_path / "b.jsonl", 3)
    result = runner.invoke(app, ["play", "--boards", str(path), *args])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert message in result.stderr


def test_without_boards_the_size_is_needed() -> None:
    for args in [[], ["9", "9"]]:
        result = runner.invoke(app, ["play", *args])
        assert result.exit_code == 2 and result.stderr.count("\n") == 1
        assert "give ROWS COLS MINES to draw the boards, or --boards FILE.jsonl" in result.stderr


def test_a_results_file_of_other_boards_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    one = write_boards(tmp_path / "one.jsonl", 3)
    other = write_boards(tmp_path / "other.jsonl", 4)
    runner.invoke(app, ["play", "--boards", str(one), "--out", str(out)])
    result = runner.invoke(app, ["play", "--boards", str(other), "--out", str(out)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "written by another study (boards 'sha256:" in result.stderr


def hostile_inputs() -> list[Any]:
    """The catalogue of bad inputs every command is tried with (tests/test_hostile_inputs.py)."""
    from tests.test_hostile_inputs import INPUTS

    return [pytest.param(kind, maker, id=kind) for kind, maker in INPUTS.items()]


@pytest.mark.parametrize(("kind", "maker"), hostile_inputs())
def test_a_hostile_boards_file_is_one_line_and_exit_2(
    tmp_path: Path, kind: str, maker: Any
) -> None:
    import os

    if kind == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    folder = tmp_path / "in"
    folder.mkdir()
    path = maker(folder)
    result = runner.invoke(app, ["play", "--boards", path])
    assert result.exit_code == 2, (result.output[-500:], result.exception)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "-"])
def test_a_device_or_standard_input_is_no_boards_file(device: str) -> None:
    if device != "-" and not Path(device).exists():
        pytest.skip(f"no {device} here")
    result = runner.invoke(app, ["play", "--boards", device], input="{}\n")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "not a regular file" in result.stderr
