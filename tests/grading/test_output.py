"""What a child prints: kept up to the cap, counted in full, decoded with replacements."""

from __future__ import annotations

from pathlib import Path

import pytest

from mineshafted.grading import Sandbox
from mineshafted.grading.capture import Capture

from .conftest import one_board, submission


def test_a_capture_keeps_its_last_byte_of_room() -> None:
    capture = Capture(4)
    capture.keep(b"abc")
    capture.keep(b"de")
    capture.keep(b"f")
    assert (capture.kept, capture.total) == (b"abcd", 6)


def test_a_capture_decodes_what_it_kept() -> None:
    capture = Capture(3)
    capture.keep("é".encode() + b"\xff\xfe")
    assert capture.text() == "é\ufffd"


@pytest.mark.slow
def test_output_that_is_not_utf8_is_kept_with_replacements(tmp_path: Path) -> None:
    code = "import sys\ndef sweep_mines(bm):\n    sys.stdout.buffer.write(b'a\\xffb')\n"
    result = one_board(submission(tmp_path, code), sandbox=Sandbox.NONE)
    assert (result.output, result.output_bytes) == ("a\ufffdb", 3)
