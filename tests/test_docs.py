"""The documentation site: every command has its reference page, made from its own --help."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mineshafted import Status, SweepReport

from .conftest import script

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = script("cli_reference.py")


def _nav() -> str:
    return (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_every_command_has_a_page_in_the_site_navigation() -> None:
    listed = set(re.findall(r"\breference/cli/([\w-]+)\.md", _nav()))
    wanted = {
        REFERENCE["uri"](path).rsplit("/", 1)[1][: -len(".md")] for path in REFERENCE["commands"]()
    }
    assert wanted - listed == set(), "commands with no page in mkdocs.yml's nav"
    assert listed - wanted - {"index"} == set(), "pages in mkdocs.yml's nav for no command"


def test_the_reference_walks_every_command_and_subcommand() -> None:
    paths = list(REFERENCE["commands"]())
    assert (
        ("solve",) in paths and ("rules", "check") in paths and ("experiment", "density") in paths
    )
    assert paths.index(("rules",)) < paths.index(("rules", "eval")), (
        "a group comes before its commands"
    )


def test_a_command_page_holds_its_help_exactly_as_the_command_prints_it() -> None:
    page = REFERENCE["page"](("solve",))
    help_text = REFERENCE["help_text"](("solve",))
    assert f"```text\n{help_text}\n```" in page
    assert "Usage: mineshafted solve" in help_text and "--with-total" in help_text


@pytest.mark.slow  # over 0.5 s on a quiet machine: CI runs it
def test_the_index_page_links_every_command_page() -> None:
    index = REFERENCE["pages"]()["reference/cli/index.md"]
    for path in REFERENCE["commands"]():
        assert f"]({REFERENCE['uri'](path).rsplit('/', 1)[1]})" in index, path


def test_every_api_reference_page_in_the_navigation_exists() -> None:
    for page in re.findall(r"\b(reference/api/[\w-]+\.md)", _nav()):
        assert (ROOT / "docs" / page).is_file(), page


def test_the_readme_python_example_runs_and_says_what_it_shows() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    scope: dict[str, object] = {}
    exec(compile(example, "README.md", "exec"), scope)  # the project's own example, not input
    report = scope["report"]
    assert isinstance(report, SweepReport)
    assert (report.status, report.undetermined) == (Status.NEEDS_GUESS, [1, 2, 3])
