"""Usage errors (a missing argument, a value of the wrong type, an unknown option or command)
are one line on stderr naming the problem, exit status 2; ``--help`` is unchanged."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["grade"], "Missing argument 'SUBMISSION.py'"),
        (["grade", "x.py", "--jobs", "abc"], "'--jobs'"),
        (["grade", "x.py", "--sandbox", "jail"], "'--sandbox'"),
        (["solve", "--frobnicate"], "No such option: --frobnicate"),
        (["nosuch"], "No such command 'nosuch'"),
        (["rules", "eval"], "Missing argument 'RULES'"),
        (["experiment", "density", "--runs", "x"], "'--runs'"),
        (["--frobnicate"], "No such option: --frobnicate"),
    ],
)
def test_a_usage_error_is_one_line_naming_the_problem(args: list[str], named: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert named in result.stderr


def test_a_usage_error_names_the_command_s_help() -> None:
    result = runner.invoke(app, ["grade", "x.py", "--jobs", "abc"])
    assert result.stderr.rstrip().endswith("(see 'mineshafted grade --help')")


def test_a_value_s_control_characters_are_escaped_in_the_line() -> None:
    result = runner.invoke(app, ["no\x1b[2J"])
    assert result.stderr == "error: No such command 'no\\x1b[2J'. (see 'mineshafted --help')\n"


@pytest.mark.parametrize("args", [[], ["rules"], ["experiment"], ["autograder"]])
def test_a_group_without_a_command_shows_its_help_on_stdout_with_status_0(
    args: list[str],
) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Usage: {' '.join(['mineshafted', *args])} [OPTIONS]")
    assert result.stdout == runner.invoke(app, [*args, "--help"]).stdout
    assert result.stderr == ""


def test_help_is_not_a_usage_error() -> None:
    result = runner.invoke(app, ["grade", "--help"])
    assert result.exit_code == 0 and "Usage: mineshafted grade" in result.stdout
    assert result.stderr == ""
