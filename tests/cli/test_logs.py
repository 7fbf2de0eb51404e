"""Logging lives exactly as long as one invocation: nothing of ``-v`` outlasts the command."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mineshafted.solver
from mineshafted import BoardManager, sweep_mines
from mineshafted.cli import app
from mineshafted.cli.logs import PACKAGE_LOGGER, verbose_logging

from ..conftest import SAMPLE

runner = CliRunner()


@pytest.fixture
def logger() -> Iterator[logging.Logger]:
    """The package logger at a level of its own, put back as it was after the test."""
    package = logging.getLogger(PACKAGE_LOGGER)
    saved = (package.level, package.propagate, list(package.handlers))
    package.setLevel(logging.ERROR)
    yield package
    package.setLevel(saved[0])
    package.propagate = saved[1]
    package.handlers[:] = saved[2]


@pytest.fixture
def puzzle_file(tmp_path: Path) -> Path:
    path = tmp_path / "sample.json"
    path.write_text(json.dumps({"board": SAMPLE, "name": "sample"}))
    return path


def _boom(*_args: object, **_kwargs: object) -> None:
    raise RuntimeError("a bug in the middle of the command")


@pytest.mark.parametrize("outcome", ["solved", "invalid input", "crashed"])
def test_verbose_run_leaves_the_logger_as_it_found_it(
    logger: logging.Logger, puzzle_file: Path, monkeypatch: pytest.MonkeyPatch, outcome: str
) -> None:
    target = str(puzzle_file)
    if outcome == "invalid input":
        target = str(puzzle_file.with_name("missing.json"))
    if outcome == "crashed":
        monkeypatch.setattr(mineshafted.solver.Sweep, "run", _boom)
    result = runner.invoke(app, ["-vv", "solve", target])
    assert result.exit_code == {"solved": 0, "invalid input": 2, "crashed": 1}[outcome]
    assert logger.handlers == []
    assert logger.level == logging.ERROR
    assert logger.propagate is True


def test_package_records_reach_caplog_after_a_verbose_run(
    logger: logging.Logger, puzzle_file: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert runner.invoke(app, ["-vv", "solve", str(puzzle_file)]).exit_code == 0
    with caplog.at_level(logging.INFO, logger=PACKAGE_LOGGER):
        sweep_mines(BoardManager(SAMPLE))
    assert any(
        r.name == "mineshafted.solver.sweep" and r.getMessage().startswith("solved")
        for r in caplog.records
    )


def test_logging_after_a_verbose_run_reports_no_logging_error(
    logger: logging.Logger, puzzle_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert runner.invoke(app, ["-vv", "solve", str(puzzle_file)]).exit_code == 0
    capsys.readouterr()
    logging.getLogger("mineshafted.solver.sweep").error("logged after the run")
    assert "Logging error" not in capsys.readouterr().err


def test_without_verbose_nothing_is_attached(logger: logging.Logger) -> None:
    with verbose_logging(0):
        assert logger.handlers == []
        assert logger.level == logging.ERROR and logger.propagate is True


def test_verbose_sends_records_to_the_stderr_of_the_run_only(
    logger: logging.Logger, puzzle_file: Path, caplog: pytest.LogCaptureFixture
) -> None:
    result = runner.invoke(app, ["-v", "solve", str(puzzle_file)])
    assert "INFO mineshafted.solver.sweep: solved: 10 move(s)" in result.stderr
    assert "DEBUG" not in result.stderr
    assert not [r for r in caplog.records if r.name.startswith(PACKAGE_LOGGER)]


@pytest.mark.parametrize(
    "args",
    [
        ["-v", "solve", "{puzzle}"],
        ["solve", "-v", "{puzzle}"],
        ["solve", "{puzzle}", "-v"],
        ["solve", "{puzzle}", "--verbose"],
    ],
)
def test_verbose_works_before_and_after_the_command(
    logger: logging.Logger, puzzle_file: Path, args: list[str]
) -> None:
    result = runner.invoke(app, [a.format(puzzle=puzzle_file) for a in args])
    assert result.exit_code == 0, result.output
    assert "INFO mineshafted.solver.sweep: solved" in result.stderr


def test_two_flags_after_the_command_count_as_two(
    logger: logging.Logger, puzzle_file: Path
) -> None:
    result = runner.invoke(app, ["solve", str(puzzle_file), "-v", "-v"])
    assert result.exit_code == 0, result.output
    assert "DEBUG mineshafted.solver.sweep" in result.stderr
