"""One word per idea: the words the glossary retires stay out of the code and the documents.

``docs/glossary.md``'s section *Words checked* is a table: each row names words, what to say
instead, and the paths where the word keeps a meaning of its own (the S4 rules package says
*click*). Every tracked text file of the package, its tests, scripts and documents is read;
a retired word outside its row's paths fails the test, named with its file and line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.md"

SCANNED = {
    "mineshafted": ("*.py", "*.js", "*.html", "*.css", "*.md", "*.c"),
    "tests": ("*.py",),
    "scripts": ("*.py",),
    "docs": ("*.md",),
}
"""Folders read, and the files read in each (recursively)."""

EXTRA = ("README.md",)
"""Single files read besides."""

NOT_PROSE = re.compile(r"""["']click["']|\.click\(|\bdblclick\b|\bonclick\b""", re.IGNORECASE)
"""A line that names the browser's click event: the DOM's word, not ours."""


@dataclass(frozen=True)
class Rule:
    """One row of the table: retired words and where each may still stand."""

    words: tuple[str, ...]
    instead: str
    allowed: tuple[str, ...]

    def pattern(self) -> re.Pattern[str]:
        alternatives = "|".join(re.escape(word) for word in self.words)
        return re.compile(rf"(?<![A-Za-z0-9-])(?:{alternatives})(?![A-Za-z0-9])", re.IGNORECASE)

    def allows(self, path: str) -> bool:
        return any(path == place or path.startswith(place) for place in self.allowed)


def rules() -> list[Rule]:
    """The table of *Words checked* in the glossary, row by row."""
    text = GLOSSARY.read_text(encoding="utf-8")
    section = text.split("## Words checked", 1)[1].split("\n## ", 1)[0]
    found = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("word", "---") or set(cells[0]) <= {"-"}:
            continue
        words = tuple(re.findall(r"`([^`]+)`", cells[0]))
        allowed = tuple(re.findall(r"`([^`]+)`", cells[2]))
        found.append(Rule(words, cells[1], allowed))
    return found


KEYWORD = re.compile(r"^\s*class\s+(?=[A-Za-z_])")
"""Python's ``class`` keyword before a class's name: a keyword, not the word *class*."""


def as_words(line: str) -> str:
    """A line with names split into words: ``first_click`` and ``firstClick`` -> first click
    (the ``class`` keyword left out: ``class OptionsError`` is not "class options")."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", KEYWORD.sub("", line)).replace("_", " ")


def files() -> list[Path]:
    """Every file the check reads, the glossary itself left out."""
    found = [ROOT / name for name in EXTRA]
    for folder, patterns in SCANNED.items():
        for pattern in patterns:
            found += (ROOT / folder).rglob(pattern)
    left_out = {GLOSSARY, Path(__file__).resolve()}  # they name the retired words on purpose
    return sorted(
        path for path in found if path not in left_out and "__pycache__" not in path.parts
    )


def retired_words(rule_set: list[Rule]) -> list[str]:
    """Every place a retired word stands outside its allowed paths: ``path:line: word``."""
    patterns = [(rule, rule.pattern()) for rule in rule_set]
    found = []
    for path in files():
        relative = path.relative_to(ROOT).as_posix()
        checked = [(rule, pattern) for rule, pattern in patterns if not rule.allows(relative)]
        if not checked:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if NOT_PROSE.search(line):
                continue
            words = as_words(line)
            for rule, pattern in checked:
                for match in pattern.finditer(words):
                    found.append(f"{relative}:{number}: {match.group(0)!r} (say {rule.instead})")
    return found


def test_the_glossary_lists_words_to_check() -> None:
    table = rules()
    assert any("click" in rule.words for rule in table)
    assert all(rule.words and rule.instead for rule in table)


def test_a_retired_word_is_found_in_a_name_and_in_prose_but_not_as_the_event_name() -> None:
    (click,) = [rule for rule in rules() if "click" in rule.words]
    pattern = click.pattern()
    assert pattern.search(as_words("def first_click(cell):"))
    assert pattern.search(as_words("const firstClick = 3;"))
    assert pattern.search("Click a cell to reveal it.")
    assert not pattern.search("a clickable area")
    (options,) = [rule for rule in rules() if "class options" in rule.words]
    assert not options.pattern().search(as_words("class OptionsError(ValueError):"))
    assert options.pattern().search(as_words("the class options of a run"))
    assert NOT_PROSE.search('button.addEventListener("click", go);')
    assert click.allows("mineshafted/rules/parser.py") and not click.allows("mineshafted/web")


@pytest.mark.slow  # over 0.5 s on a quiet machine: CI runs it
def test_no_retired_word_stands_outside_the_places_the_glossary_allows() -> None:
    found = retired_words(rules())
    shown = "\n".join(found[:60]) + (f"\n... and {len(found) - 60} more" if len(found) > 60 else "")
    assert not found, f"{len(found)} retired words (docs/glossary.md, Words checked):\n{shown}"
