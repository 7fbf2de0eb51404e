"""``mineshafted play`` through typer's runner: output, --json, resume, one-line errors."""

from __future__ import annotations

import json
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
    assert again.exit_code == 2 and "already exists" in again.stderr
    many = runner.invoke(app, ["play", "9", "9", "10", "-n", "3", "--record", str(tmp_path / "x")])
    assert many.exit_code == 2 and "--record takes one game" in many.stderr


def test_the_commands_choices_are_the_librarys() -> None:
    from mineshafted.cli.play import First, Policy
    from mineshafted.game import FirstMove
    from mineshafted.probability import PolicyName

    assert [m.value for m in First] == [m.value for m in FirstMove if m is not FirstMove.NONE]
    assert [m.value for m in Policy] == [m.value for m in PolicyName]


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
    assert option.help.endswith("for `mineshafted replay`. An existing file is kept.")
