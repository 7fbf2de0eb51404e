"""The grading protocol's parser and encoder: what a failure (with where in the submission's
code, or how its sweep_mines misfits) and a violation say, and how a bad line is quoted (no
child process here)."""

from __future__ import annotations

import json

import pytest

from mineshafted.grading.protocol import (
    Failure,
    Message,
    ProtocolViolation,
    Reply,
    encode,
    parse,
)
from mineshafted.grading.text import FRAMES_KEPT, LINE_CAP
from mineshafted.grading.wording import CONTRACT, Frame, Misfit


def test_a_failure_without_a_message_is_its_type() -> None:
    assert str(Failure("KeyError", "")) == "KeyError"
    assert str(Failure("KeyError", "k")) == "KeyError: k"


def test_a_violation_says_what_it_is() -> None:
    assert str(ProtocolViolation("sent two answers")) == "sent two answers"


def test_a_reply_without_a_value_carries_true() -> None:
    assert encode(Reply.OVER) == b'{"over": true}\n'


@pytest.mark.parametrize(
    ("line", "quoted"),
    [
        (b"x" * 60, repr(b"x" * 60)),
        (b"x" * 61, f"{b'x' * 60!r}... (61 bytes)"),
    ],
)
def test_a_bad_line_is_quoted_up_to_sixty_bytes(line: bytes, quoted: str) -> None:
    with pytest.raises(ProtocolViolation) as caught:
        parse(line)
    assert caught.value.what == f"wrote something other than a message: {quoted}"


@pytest.mark.parametrize(
    "line",
    [
        b'{"ready": 1}',
        b'{"start": false}',
        b'{"error": "oops"}',
        b'{"error": {"type": "E"}}',
        b'{"error": {"type": "E", "message": 5}}',
        b'{"error": {"type": "E", "repr": "x"}}',
        b'{"unreadable": {"type": "E", "message": "x"}}',
        b'{"unreadable": {"type": 1, "repr": "x"}}',
    ],
)
def test_a_malformed_message_is_quoted_whole(line: bytes) -> None:
    key = line.split(b'"')[1].decode()
    with pytest.raises(ProtocolViolation) as caught:
        parse(line)
    assert caught.value.what == f"sent a malformed {key!r} message: {line!r}"


def test_well_formed_failures_and_unreadable_results_are_parsed() -> None:
    assert parse(b'{"error": {"type": "E", "message": ""}}')[1] == Failure("E", "")
    kind, payload = parse(b'{"unreadable": {"type": "set", "repr": "{1}"}}')
    assert (kind.value, payload.kind, payload.text) == ("unreadable", "set", "{1}")


def test_an_error_s_frames_are_kept_cut_to_their_caps_and_made_visible() -> None:
    line = "x = 1  # \x1b[2J\u202e" + "y" * 200
    payload = {
        "type": "IndexError",
        "message": "list index out of range",
        "frames": [
            ["ann.py", 30, "sweep_mines", "n = around(r, c)", 1],
            ["ann.py", 12, "f\x9b", line, 3],
        ],
        "skipped": 2,
    }
    kind, failure = parse(json.dumps({"error": payload}).encode())
    assert kind is Message.ERROR and failure.skipped == 2
    assert failure.frames[0] == Frame("ann.py", 30, "sweep_mines", "n = around(r, c)")
    kept = line[:LINE_CAP].replace("\x1b", "\\x1b").replace("\u202e", "\\u202e")
    assert failure.frames[1].text == kept + f"... ({len(line)} characters)"
    assert failure.frames[1].function == "f\\x9b"
    assert failure.frames[1].times == 3
    assert str(failure).startswith(
        "IndexError: list index out of range (in ann.py, innermost last, 2 calls before left "
        "out: line 30, in sweep_mines: n = around(r, c); line 12, in f\\x9b: x = 1  # "
        "\\x1b[2J\\u202eyyy"
    )


@pytest.mark.parametrize(
    "where",
    [
        {"frames": [["a.py", 1, "f", "x", 1]] * (FRAMES_KEPT + 1)},  # more than are kept
        {"frames": [["a.py", -1, "f", "x", 1]]},
        {"frames": [["a.py", 1, "f", "x"]]},
        {"frames": [["a.py", "1", "f", "x", 1]]},
        {"frames": [["a.py", 1, None, "x", 1]]},
        {"frames": "a.py line 1"},
        {"skipped": -1},
        {"skipped": True},
        {"misfit": "a wish"},
        {"misfit": 1},
        {"where": "a.py"},
    ],
)
def test_an_error_whose_frames_or_misfit_are_malformed_breaks_the_protocol(
    where: dict[str, object],
) -> None:
    line = json.dumps({"error": {"type": "E", "message": "m", **where}}).encode()
    with pytest.raises(ProtocolViolation, match="sent a malformed 'error' message"):
        parse(line)


@pytest.mark.parametrize(
    ("misfit", "found", "said"),
    [
        ("missing", "solve", "the file defines no function sweep_mines (it defines solve)"),
        ("not callable", "list", "sweep_mines is a list, not a function"),
        ("class", "", "sweep_mines is a class, not a function"),
        ("generator", "", "sweep_mines is a generator (it yields)"),
        ("coroutine", "", "sweep_mines is async (it returns a coroutine)"),
        ("parameters", "board, n", "sweep_mines(board, n) cannot be called with the manager"),
        ("parameters", "", "sweep_mines() takes no argument, not the manager"),
    ],
)
def test_a_misfit_is_one_sentence_naming_the_contract(misfit: str, found: str, said: str) -> None:
    line = json.dumps({"error": {"type": "sweep_mines", "message": found, "misfit": misfit}})
    _, failure = parse(line.encode())
    assert failure.misfit is Misfit(misfit)
    assert str(failure).startswith(said) and str(failure).endswith(f": {CONTRACT}")
    assert str(failure).count(":") == 1 + CONTRACT.count(":")  # one sentence, one colon
