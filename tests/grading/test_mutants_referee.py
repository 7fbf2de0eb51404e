"""The referee's replies after a loss, its judgement's quoting, and the protocol's small parts
(gaps found by mutation testing; no child process here)."""

from __future__ import annotations

import pytest

from mineshafted import Board
from mineshafted.grading.protocol import Failure, ProtocolViolation, Reply, encode, parse
from mineshafted.grading.referee import Referee


@pytest.fixture
def referee() -> Referee:
    return Referee(Board.from_grid([[1, -1], [1, 1]]))


def test_a_move_onto_a_mine_is_recorded_and_answered_as_a_loss(referee: Referee) -> None:
    assert referee.answer(1) == (Reply.MINE, True)
    assert referee.exploded == 1
    assert referee.answer(0) == (Reply.OVER, True)
    assert referee.answer(3) == (Reply.OVER, True)
    assert referee.moves == 0


def test_every_move_after_a_loss_is_answered_over(referee: Referee) -> None:
    assert referee.answer(0) == (Reply.CLUE, 1)
    assert referee.answer(1) == (Reply.MINE, True)
    assert [referee.answer(i) for i in (0, 2, 1)] == [(Reply.OVER, True)] * 3
    assert (referee.moves, referee.exploded) == (1, 1)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("x" * 58, repr("x" * 58)),  # 60 characters quoted: shown whole
        ("x" * 59, repr("x" * 59)[:57] + "..."),  # 61: cut to 57 and an ellipsis
    ],
)
def test_a_wrong_cell_is_quoted_up_to_sixty_characters(
    referee: Referee, value: str, shown: str
) -> None:
    assert referee.judge([[value, -1], [1, 1]]) == f"(0, 0) is {shown}, not 1"


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
