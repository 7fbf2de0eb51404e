"""Bad input and bad output at the command line: capped reads, full disks, closed pipes, seeds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mineshafted.formats.reading
from mineshafted.cli import app
from mineshafted.cli.status import EXIT_CLOSED_PIPE

from ..conftest import SAMPLE

runner = CliRunner()

ZERO = Path("/dev/zero")
FULL = Path("/dev/full")

needs_devices = pytest.mark.skipif(
    not (ZERO.exists() and FULL.exists()), reason="needs /dev/zero and /dev/full"
)


def _run(*args: str, stdout: int | object = subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
    """The command line in a child process (real file descriptors, real pipes)."""
    return subprocess.run(
        [sys.executable, "-m", "mineshafted", *args],
        stdout=stdout,  # type: ignore[arg-type]
        stderr=subprocess.PIPE,
        timeout=60,
        check=False,
    )


@needs_devices
def test_solve_of_an_endless_device_is_refused_unread() -> None:
    result = runner.invoke(app, ["solve", str(ZERO)])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: /dev/zero: not a regular file (a character device); give '-' to read "
        "standard input\n"
    )


def test_solve_caps_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mineshafted.formats.reading, "MAX_FILE_BYTES", 100)
    result = runner.invoke(app, ["solve", "-"], input=json.dumps(SAMPLE) + " " * 100)
    assert result.exit_code == 2
    assert result.stderr == "error: <stdin>: larger than 100 bytes: not read past that cap\n"
    small = runner.invoke(app, ["solve", "-"], input=json.dumps(SAMPLE))
    assert small.exit_code == 0, small.stderr


@needs_devices
@pytest.mark.parametrize("command", [["generate", "5", "5", "3", "--seed", "1"], ["solve", "-"]])
@pytest.mark.slow
def test_a_full_disk_is_one_line_naming_the_output(command: list[str]) -> None:
    with FULL.open("w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "mineshafted", *command],
            input=json.dumps(SAMPLE).encode(),
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    assert result.returncode == 2
    assert result.stderr.decode() == "error: cannot write the output: no space left on device\n"


@pytest.mark.slow
def test_a_closed_pipe_ends_generate_quietly() -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "mineshafted", "generate", "4", "4", "1", "-n", "100000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    assert child.stdout.read(10) == b'{"board": '
    child.stdout.close()  # the reader goes, as `| head -c 10` does
    stderr = child.stderr.read()
    assert child.wait(timeout=60) == EXIT_CLOSED_PIPE
    assert stderr == b""


@pytest.mark.slow
def test_a_closed_pipe_ends_solve_quietly(tmp_path: Path) -> None:
    many = tmp_path / "many.jsonl"
    many.write_text((json.dumps(SAMPLE) + "\n") * 3000)
    child = subprocess.Popen(
        [sys.executable, "-m", "mineshafted", "solve", str(many)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    assert child.stdout.readline() == b"puzzle 1: 4x3, 2 mines\n"
    child.stdout.close()
    stderr = child.stderr.read()
    assert child.wait(timeout=60) == EXIT_CLOSED_PIPE
    assert stderr == b""


def _boards(*args: str) -> list[dict[str, object]]:
    result = runner.invoke(app, ["generate", *args])
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_a_negative_seed_is_not_its_absolute_value() -> None:
    assert (
        _boards("6", "6", "5", "--seed", "-5")[0]["board"]
        != _boards("6", "6", "5", "--seed", "5")[0]["board"]
    )


def test_every_recorded_seed_remakes_its_board_through_the_command_line() -> None:
    batch = _boards("6", "6", "5", "--seed", "11", "--count", "3")
    assert batch[0]["seed"] == 11
    for made in batch:
        (again,) = _boards("6", "6", "5", "--seed", str(made["seed"]))
        assert again["board"] == made["board"]


def test_generate_refuses_an_impossible_strip_at_once_in_one_line() -> None:
    result = runner.invoke(app, ["generate", "1", "5", "2"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: no 1x5 board with 2 mines is no-guess: on a strip")
    assert result.stderr.count("\n") == 1 and result.stdout == ""
