"""Every command's --help shows its help text as written: brackets kept, one line per paragraph,
no type on a flag, each argument named by its metavar alone."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import typer.main
from typer.testing import CliRunner

from mineshafted.cli import app

runner = CliRunner()


def _commands(
    command: object, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], object]]:
    """Every command of a freshly built app (its help texts as the source wrote them)."""
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _commands(sub, (*path, name))


SOURCE = list(_commands(typer.main.get_command(app)))
NAMES = [" ".join(path) or "mineshafted" for path, _ in SOURCE]


def _flat(text: str) -> str:
    """``text`` as words: box drawing and runs of white space folded to one space."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def _help(path: tuple[str, ...]) -> str:
    wide = {"terminal_width": 10_000, "max_content_width": 10_000}  # no line wrapped
    result = runner.invoke(app, [*path, "--help"], **wide)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(("path", "command"), SOURCE, ids=NAMES)
def test_every_help_text_is_shown_as_its_source_writes_it(
    path: tuple[str, ...], command: object
) -> None:
    shown = _flat(_help(path))
    texts = [getattr(command, "help", None) or ""]
    params = [p for p in getattr(command, "params", []) if not getattr(p, "hidden", False)]
    texts += [getattr(p, "help", None) or "" for p in params]
    for text in filter(None, texts):
        for paragraph in text.split("\n\n"):
            assert _flat(paragraph) in shown, paragraph


def test_a_bracket_in_help_survives() -> None:
    assert "pip install 'mineshafted[dask]'" in _flat(_help(("play",)))
    assert "pip install 'mineshafted[plots]'" in _flat(_help(("experiment",)))
    shown = _flat(_help(("probabilities",)))
    assert '{"board": [[clue, -1 or null, ...], ...], "mines": N}' in shown


@pytest.mark.parametrize(("path", "command"), SOURCE, ids=NAMES)
def test_no_flag_shows_a_type(path: tuple[str, ...], command: object) -> None:
    shown = _help(path)
    assert "<bool>" not in shown
    assert not re.search(r"--verbose\s+-v\s+<int>", shown)


@pytest.mark.parametrize(("path", "command"), SOURCE, ids=NAMES)
def test_arguments_are_named_by_their_metavars_alone(
    path: tuple[str, ...], command: object
) -> None:
    shown = _help(path)
    usage = shown.splitlines()[0]
    assert "{" not in usage, usage
    for param in getattr(command, "params", []):
        if getattr(param, "param_type_name", None) == "argument":
            name = str(param.metavar or param.name.upper())
            # a long name stands on a line of its own, its help below it
            assert re.search(rf"^  {re.escape(name)}(\.\.\.)?(  |$)", shown, re.MULTILINE), name
    assert not re.search(r"<(str|path|int|float|list\[\w+\])>", _arguments(shown)), shown


def test_several_words_are_shown_as_such() -> None:
    shown = _help(("rate",))
    assert shown.startswith("Usage: mineshafted rate [OPTIONS] PUZZLE...\n")
    assert "\n  PUZZLE...  Puzzle files:" in shown


def _arguments(shown: str) -> str:
    """The ``Arguments`` section of a help text."""
    _, _, rest = shown.partition("\nArguments:\n")
    return rest.partition("\n\n")[0]


def test_optional_arguments_are_bracketed_once() -> None:
    result = runner.invoke(app, ["rules", "eval", "--help"])
    assert "[DEBUG-LEVEL] [BOARD]" in result.output and "[[" not in result.output
