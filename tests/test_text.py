"""Outside text made safe to print: one escaper for error lines, grade reports and rule names."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.grading.protocol import parse
from mineshafted.text import cut, visible

CONTROLS = [chr(c) for c in (*range(0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F)]
CONTROLS += [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
"""Every character that can break a line, drive a terminal or reorder what follows."""


@given(st.text())
def test_nothing_visible_holds_a_control_character(text: str) -> None:
    shown = visible(text)
    assert not any(control in shown for control in CONTROLS)


@given(st.text(alphabet=st.characters(exclude_characters=CONTROLS)))
def test_text_without_controls_is_left_as_it_is(text: str) -> None:
    assert visible(text) == text


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\x1b[2J", "\\x1b[2J"),
        ("a\nb\tc\rd", "a\\nb\\tc\\rd"),
        ("\x00\x7f\x9b", "\\x00\\x7f\\x9b"),
        ("\u202egnp.exe", "\\u202egnp.exe"),
        ("back\\slash é", "back\\slash é"),
    ],
)
def test_a_control_character_is_written_as_pythons_escape(text: str, shown: str) -> None:
    assert visible(text) == shown


def test_kept_controls_stay_and_the_others_are_escaped() -> None:
    assert visible("a\nb\tc\x1b", keep="\n\t") == "a\nb\tc\\x1b"
    assert visible("a\nb", keep="\n") == "a\nb" and visible("a\nb") == "a\\nb"


def test_a_cut_keeps_the_cap_and_says_how_long_the_text_was() -> None:
    assert cut("x" * 10, 10) == "x" * 10
    assert cut("x" * 11, 10) == "x" * 10 + "... (11 characters)"


def test_an_error_line_and_a_grade_report_escape_alike(tmp_path: Path) -> None:
    name = "a\u202eb\x1b[2J"
    done = CliRunner().invoke(app, ["solve", str(tmp_path / name)])
    assert done.exit_code == 2
    assert done.stderr == f"error: {tmp_path}/a\\u202eb\\x1b[2J: no such file\n"
    _, failure = parse(b'{"error": {"type": "E", "message": "a\\u202eb\\u001b[2J"}}')
    assert failure.message == "a\\u202eb\\x1b[2J"
