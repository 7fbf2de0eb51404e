"""The grading protocol's parser and encoder: what a failure and a violation say, and how a bad
line is quoted (no child process here)."""

from __future__ import annotations

import pytest

from mineshafted.grading.protocol import Failure, ProtocolViolation, Reply, encode, parse


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
