"""The command line's choices are the library's own enums, not copies kept in step."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.game import FirstMove
from mineshafted.probability import PolicyName

runner = CliRunner()


@pytest.mark.parametrize("move", list(FirstMove))
def test_play_takes_every_first_move_of_the_library(move: FirstMove) -> None:
    result = runner.invoke(app, ["play", "5", "5", "3", "--first", move.value, "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert f"first move {move.value} at" in result.stdout


def test_a_first_move_the_library_lacks_is_refused_naming_them_all() -> None:
    result = runner.invoke(app, ["play", "5", "5", "3", "--first", "anywhere"])
    assert result.exit_code == 2
    assert all(repr(move.value) in result.stderr for move in FirstMove), result.stderr


@pytest.mark.parametrize("name", list(PolicyName))
def test_play_takes_every_policy_of_the_library(name: PolicyName) -> None:
    result = runner.invoke(app, ["play", "5", "5", "3", "--policy", name.value, "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert f"policy {name.value}," in result.stdout
