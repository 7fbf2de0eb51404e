"""Outside text made safe to print: one escaper for error lines, grade reports and rule names."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.grading.protocol import parse
from mineshafted.text import cut, visible

TROUBLE = "\x1b\x9b\u202e\u2028\udc1b\udcc2\udc9b\udce2\udc80\udcae"
"""Characters that break a terminal or an encoder, drawn often: an unbiased draw seldom meets
a surrogate."""

ANY_TEXT = st.text(st.one_of(st.characters(exclude_categories=()), st.sampled_from(TROUBLE)))
"""Any str at all: controls, bidirectional marks, unassigned code points and lone surrogates
(which hypothesis leaves out unless asked)."""

DRIVING = [chr(c) for c in (*range(0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F)]
DRIVING += [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029)]
"""Every character that can break a line, drive a terminal or reorder what follows."""


def by_repr(text: str) -> str:
    """The independent oracle: each unprintable character as CPython's own ``repr`` writes it."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


@given(ANY_TEXT)
def test_visible_text_encodes_as_utf8_and_holds_nothing_that_drives_a_terminal(
    text: str,
) -> None:
    shown = visible(text)
    shown.encode("utf-8")  # a lone surrogate would raise UnicodeEncodeError here
    assert not any(char in shown for char in DRIVING)
    assert all(unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in shown)
    assert shown.isprintable()


@given(ANY_TEXT)
def test_visible_writes_each_unprintable_character_as_repr_does(text: str) -> None:
    assert visible(text) == by_repr(text)


@given(ANY_TEXT)
def test_visible_is_idempotent(text: str) -> None:
    assert visible(visible(text)) == visible(text)


@given(st.text(st.characters(exclude_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))))
def test_printable_text_is_left_as_it_is(text: str) -> None:
    text = "".join(c for c in text if c.isprintable())
    assert visible(text) == text


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\x1b[2J", "\\x1b[2J"),
        ("a\nb\tc\rd", "a\\nb\\tc\\rd"),
        ("\x00\x7f\x9b", "\\x00\\x7f\\x9b"),
        ("\u202egnp.exe", "\\u202egnp.exe"),
        ("back\\slash é", "back\\slash é"),
        ("\udc1b", "\\udc1b"),
        ("\udcc2\udc9b", "\\udcc2\\udc9b"),  # the bytes of U+009B (CSI), surrogate-escaped
        ("\udce2\udc80\udcae", "\\udce2\\udc80\\udcae"),  # the bytes of U+202E
        ("a\u2028b\u00a0c\U000e0001", "a\\u2028b\\xa0c\\U000e0001"),
    ],
)
def test_an_unprintable_character_is_written_as_pythons_escape(text: str, shown: str) -> None:
    assert visible(text) == shown


def test_surrogate_escaped_bytes_never_reach_a_terminal_as_controls() -> None:
    raw = b"\xc2\x9b[2J\xe2\x80\xae".decode("utf-8", "surrogateescape")
    assert raw != visible(raw)
    written = visible(raw).encode("utf-8", "surrogateescape")
    assert b"\xc2\x9b" not in written and b"\xe2\x80\xae" not in written


def test_kept_controls_stay_and_the_others_are_escaped() -> None:
    assert visible("a\nb\tc\x1b", keep="\n\t") == "a\nb\tc\\x1b"
    assert visible("a\nb", keep="\n") == "a\nb" and visible("a\nb") == "a\\nb"
    assert visible("a\nb\udc1b", keep="\n") == "a\nb\\udc1b"


def test_a_table_stops_learning_at_its_cap_and_still_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mineshafted import text as module

    monkeypatch.setattr(module, "_LEARNED", 3)
    monkeypatch.setattr(module, "_TABLES", {})
    assert visible("abcdef\x1b\udc00") == "abcdef\\x1b\\udc00"
    assert len(module._TABLES[""]) == 3


def test_a_cut_keeps_the_cap_and_says_how_long_the_text_was() -> None:
    assert cut("x" * 10, 10) == "x" * 10
    assert cut("x" * 11, 10) == "x" * 10 + "... (11 characters)"


def test_an_error_line_and_a_grade_report_escape_alike(tmp_path: Path) -> None:
    name = "a\u202eb\x1b[2J"
    done = CliRunner().invoke(app, ["solve", str(tmp_path / name)])
    assert done.exit_code == 2
    assert done.stderr == f"error: {tmp_path}/a\\u202eb\\x1b[2J: no such file\n"
    _, failure = parse(b'{"error": {"type": "E", "message": "a\\u202eb\\u001b[2J\\udc9b"}}')
    assert failure.message == "a\\u202eb\\x1b[2J\\udc9b"
