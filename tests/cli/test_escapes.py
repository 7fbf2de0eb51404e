"""Text from a file reaches the terminal only through the one escaper: a puzzle's name, a
board's, a rule's, a file's own name holding an escape sequence or a bidirectional override is
printed with those characters written as escapes, by every command that prints it (rule
names: ``tests/rules/test_untrusted_files.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app

from ..conftest import SAMPLE

runner = CliRunner()

HOSTILE = "x\x1b[2J\x1b]0;owned\x07\u202ey"
"""A name that would clear the screen, set the window's title and reverse what follows."""

SHOWN = "x\\x1b[2J\\x1b]0;owned\\x07\\u202ey"
"""The same name as it must be printed."""


def _puzzle(folder: Path) -> list[str]:
    """A puzzle file whose puzzle is named :data:`HOSTILE`."""
    path = folder / "named.json"
    path.write_text(json.dumps({"board": SAMPLE, "name": HOSTILE}))
    return [str(path)]


def _hostile_file(folder: Path, content: str) -> Path:
    """A file whose own name holds :data:`HOSTILE`."""
    path = folder / f"{HOSTILE}.json"
    path.write_text(content)
    return path


COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "solve": lambda d: ["solve", *_puzzle(d)],
    "solve, needs a guess": lambda d: [
        "solve",
        str(_hostile_file(d, json.dumps({"board": [[1, -1], [1, 1]], "name": HOSTILE}))),
    ],
    "rate": lambda d: ["rate", *_puzzle(d)],
    "rate, an unnamed puzzle": lambda d: ["rate", str(_hostile_file(d, json.dumps(SAMPLE)))],
    "rules eval": lambda d: ["rules", "eval", "rules/examples/corner.s4", "1", *_puzzle(d)],
    "replay": lambda d: ["replay", str(_hostile_file(d, json.dumps({"board": SAMPLE})))],
    "play --boards": lambda d: [
        "play",
        "--boards",
        str(_hostile_file(d, json.dumps({"board": SAMPLE}) + "\n")),
        "-n",
        "1",
    ],
    "generate --out": lambda d: ["generate", "4", "4", "2", "--out", str(d / HOSTILE)],
}
"""Each command, with arguments that make it print a name from a file."""


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_name_from_a_file_is_printed_escaped(tmp_path: Path, command: str) -> None:
    result = runner.invoke(app, COMMANDS[command](tmp_path))
    shown = result.stdout + result.stderr
    assert result.exit_code in (0, 1), shown
    assert SHOWN in shown, shown
    for raw in ("\x1b", "\x07", "\u202e"):
        assert raw not in shown, shown


def test_an_error_naming_a_file_is_printed_escaped(tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", str(_hostile_file(tmp_path, "{"))])
    assert result.exit_code == 2
    assert SHOWN in result.stderr and "\x1b" not in result.stderr
