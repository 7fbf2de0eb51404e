"""`mineshafted generate --technique / --needs / --uniform`: what each board records, the
acceptance rate, and one-line refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from mineshafted import Board, Technique, rate
from mineshafted.cli import app

runner = CliRunner()


def _made(*args: str) -> tuple[list[dict[str, Any]], str]:
    """The puzzle objects ``generate`` prints, and its stderr."""
    result = runner.invoke(app, ["generate", *args])
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()], result.stderr


def _rating(obj: dict[str, Any]) -> Technique:
    start = obj.get("start", [0, 0])
    board = Board.from_grid(obj["board"])
    return rate(board, start=board.geometry.index(*start)).technique


@pytest.mark.parametrize("name", ["count", "subset", "AC-3", "complete", "total"])
def test_technique_boards_are_solved_by_it_and_record_their_rating(name: str) -> None:
    technique = Technique.parse(name)
    boards, _ = _made("12", "12", "20", "-n", "3", "--seed", "2", "--technique", name)
    for obj in boards:
        assert _rating(obj) <= technique
        assert obj["technique"] == _rating(obj).value
        assert obj["certified"] == technique.value and "needs" not in obj


@pytest.mark.parametrize("name", ["subset", "ac3", "total"])
def test_needs_boards_are_rated_exactly_it(name: str) -> None:
    boards, _ = _made("16", "16", "40", "-n", "2", "--seed", "3", "--needs", name)
    for obj in boards:
        assert _rating(obj).value == obj["technique"] == obj["certified"] == name
        assert obj["needs"] is True


def test_uniform_reports_its_acceptance_rate_on_stderr() -> None:
    boards, stderr = _made("9", "9", "10", "-n", "4", "--seed", "6", "--uniform")
    draws = sum(obj["draws"] for obj in boards)
    assert stderr == (
        f"uniform: 4 board(s) from {draws:,} draw(s): acceptance {4 / draws:.2%} "
        f"(1 in {draws / 4:.3g})\n"
    )
    for obj in boards:
        assert obj["uniform"] is True and obj["perturbations"] == 0
        assert _rating(obj) <= Technique.COMPLETE


def test_every_recorded_seed_remakes_its_board_with_the_same_options() -> None:
    options = ["--needs", "ac3", "--start", "3,4"]
    boards, _ = _made("12", "12", "22", "-n", "3", "--seed", "17", *options)
    assert boards[0]["seed"] == 17
    for obj in boards:
        (again,), _ = _made("12", "12", "22", "--seed", str(obj["seed"]), *options)
        assert again == {**obj, "name": "12x12-22-001"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["30", "16", "130", "--uniform", "--max-draws", "20", "--seed", "0"],
            "error: no uniform 30x16 board with 130 mines solved by complete in 20 draw(s): "
            "none of 20 draw(s) was accepted, so uniform sampling is hopeless here",
        ),
        (
            ["6", "6", "3", "--needs", "complete", "--max-draws", "30", "--seed", "0"],
            "error: no 6x6 board with 3 mines rated complete (solved by complete, not by ac3) "
            "in 30 draw(s)",
        ),
        (["9", "9", "10", "--technique", "guess"], "error: the technique 'guess' certifies"),
        (["9", "9", "10", "--needs", "guess", "--uniform"], "error: the technique 'guess'"),
        (["9", "9", "10", "--needs", "ac4"], "error: --needs: no technique 'ac4': the "),
        (["9", "9", "10", "--technique", "ac3", "--needs", "subset"], "error: --technique ac3"),
        (["5", "5", "0", "--needs", "subset"], "error: no 5x5 board with 0 mines needs subset"),
    ],
    ids=[
        "hopeless-uniform",
        "impossible-needs",
        "guess",
        "needs-guess",
        "unknown",
        "both",
        "empty",
    ],
)
def test_refusals_are_one_line_with_exit_status_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["generate", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_the_same_technique_twice_is_accepted() -> None:
    boards, _ = _made("9", "9", "10", "--seed", "1", "--technique", "ac3", "--needs", "AC3")
    assert boards[0]["technique"] == "ac3" and boards[0]["needs"] is True


def test_a_draw_limit_below_one_is_a_usage_error() -> None:
    assert runner.invoke(app, ["generate", "9", "9", "10", "--max-draws", "0"]).exit_code == 2
