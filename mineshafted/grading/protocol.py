"""The grader's half of the grading protocol: messages read from a child, replies sent to it.

A child writes one JSON object per line to its channel, each with exactly one key that names
the message (:class:`Message`); the grader answers moves with one JSON object per line
(:class:`Reply`). The child's half is in ``child.py``, which imports nothing from the package
and so repeats these names; keep the two in step.

Nothing a child sends is trusted: :func:`parse` turns any line that is not a well-formed
message into a :class:`ProtocolViolation` that says what the line was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..text import cut, visible
from .errors import GradingError
from .text import FRAMES_KEPT, KIND_CAP, LINE_CAP, MESSAGE_CAP, REPR_CAP
from .wording import Frame, Misfit, crash, misfit

__all__ = [
    "CHANNEL_LOST",
    "RESULT_PREFIX",
    "Failure",
    "Message",
    "Oversized",
    "ProtocolViolation",
    "Reply",
    "Unreadable",
    "encode",
    "parse",
]

CHANNEL_LOST = 3
"""The exit status of a child whose channel to the grader broke (``child.py`` uses it too)."""

RESULT_PREFIX = b'{"result": '
"""How the child's result message begins (``json.dumps`` of ``{"result": value}``): such a
line may be as long as the board needs (:meth:`~.limits.Limits.result_caps`), every other
message no longer than :attr:`~.limits.Limits.message_cap`."""


class Message(Enum):
    """What a child can say, in the order it says it."""

    READY = "ready"
    """The submission imported and defines ``sweep_mines`` (payload ``true``)."""
    START = "start"
    """``sweep_mines`` is about to be called (payload ``true``); the child waits for
    :attr:`Reply.GO`."""
    MOVE = "move"
    """Open a cell (payload: its row-major index, an int)."""
    RESULT = "result"
    """``sweep_mines`` returned (payload: the value, as JSON)."""
    UNREADABLE = "unreadable"
    """``sweep_mines`` returned a value JSON cannot carry (payload ``{"type", "repr"}``)."""
    ERROR = "error"
    """The import or ``sweep_mines`` raised (payload ``{"type", "message"}``, and where in the
    submission's code: ``"frames"``, the last few of its frames, innermost last, each
    ``[file, line, function, text, times]``, and ``"skipped"``, how many frames before them
    were left out), or ``sweep_mines`` does not fit the contract (``"misfit"``: a
    :class:`~.wording.Misfit` value; the message says what was found)."""


class Reply(Enum):
    """What the grader answers to a start or a move."""

    GO = "go"
    """The answer to a start: call ``sweep_mines`` now (the grader's clock is running)."""
    CLUE = "clue"
    """The cell is safe: its clue."""
    MINE = "mine"
    """The cell is a mine: the game is lost."""
    OVER = "over"
    """The game was already lost."""
    BAD = "bad"
    """The index is not a cell of the board: why."""


class ProtocolViolation(GradingError):
    """A child broke the protocol; ``what`` says how, as a phrase for the report."""

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(what)


@dataclass(frozen=True)
class Failure:
    """An exception raised by the submission (on import or in ``sweep_mines``), or a
    ``sweep_mines`` that does not fit the contract; its ``str`` is how a report words it
    (:mod:`.wording`).

    Examples
    --------
    >>> str(Failure("KeyError", "k", (Frame("a.py", 3, "f", "d[k]"),)))
    'KeyError: k (in a.py, innermost last: line 3, in f: d[k])'
    """

    kind: str
    message: str
    frames: tuple[Frame, ...] = ()
    """The submission's own frames, innermost last (at most :data:`~.text.FRAMES_KEPT`)."""
    skipped: int = 0
    """The submission's frames before :attr:`frames`, left out."""
    misfit: Misfit | None = None
    """How ``sweep_mines`` does not fit the contract (then :attr:`message` is what was
    found, and there is no exception)."""

    def __str__(self) -> str:
        if self.misfit is not None:
            return misfit(self.misfit, self.message)
        return crash(self.kind, self.message, self.frames, self.skipped)


@dataclass(frozen=True)
class Unreadable:
    """A value ``sweep_mines`` returned that JSON cannot carry: its type and a short repr."""

    kind: str
    text: str


@dataclass(frozen=True)
class Oversized:
    """A result too big to be the board, refused before it was parsed.

    Examples
    --------
    >>> str(Oversized(size=70_000)), str(Oversized(size=900, lists=300))
    ('over 70000 bytes of JSON', '300 lists')
    """

    size: int
    """The bytes of the line read when it was refused (the line may have been longer)."""
    lists: int = 0
    """The lists and objects in it, when that is what was too many (else 0)."""

    def __str__(self) -> str:
        return f"{self.lists} lists" if self.lists else f"over {self.size} bytes of JSON"


def parse(line: bytes) -> tuple[Message, Any]:
    """One line from a child as a message and its checked payload.

    The payload is an ``int`` for a move, a :class:`Failure` for an error, an
    :class:`Unreadable` for an unreadable result, the JSON value for a result, ``None`` for
    the others. The strings of a failure or an unreadable value are cut to their caps
    and their control characters made visible (:mod:`mineshafted.text`), whatever the child wrote.

    Raises
    ------
    ProtocolViolation
        The line is not a message: not JSON, not an object with one known key, or a payload
        of the wrong shape.

    Examples
    --------
    >>> parse(b'{"move": 7}')
    (<Message.MOVE: 'move'>, 7)
    >>> str(parse(b'{"error": {"type": "ValueError", "message": "no"}}')[1])
    'ValueError: no'
    >>> frames = b'"frames": [["a.py", 3, "f", "g()", 1]]'
    >>> str(parse(b'{"error": {"type": "E", "message": "x", ' + frames + b'}}')[1])
    'E: x (in a.py, innermost last: line 3, in f: g())'
    >>> str(parse(b'{"error": {"type": "sweep_mines", "message": "", "misfit": "class"}}')[1])
    'sweep_mines is a class, not a function: sweep_mines(bm) takes the manager and returns the \
board as a list of rows'

    >>> parse(b'hello')
    Traceback (most recent call last):
    ...
    mineshafted.grading.protocol.ProtocolViolation: wrote something other than a message: b'hello'

    Notes
    -----
    O(length of the line).
    """
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        obj = None
    if not isinstance(obj, dict) or len(obj) != 1:
        raise ProtocolViolation(f"wrote something other than a message: {_excerpt(line)}")
    ((key, payload),) = obj.items()
    kind = _KINDS.get(key)
    if kind is None:
        raise ProtocolViolation(f"sent an unknown message: {_excerpt(line)}")
    if kind is Message.MOVE:
        if type(payload) is not int:
            raise ProtocolViolation(f"sent a move that is not a cell index: {_excerpt(line)}")
        return kind, payload
    if kind is Message.RESULT:
        return kind, payload
    if kind in (Message.READY, Message.START):
        if payload is not True:
            raise ProtocolViolation(f"sent a malformed {key!r} message: {_excerpt(line)}")
        return kind, None
    second = "message" if kind is Message.ERROR else "repr"
    if (
        not isinstance(payload, dict)
        or not {"type", second} <= set(payload) <= {"type", second, *_WHERE[kind]}
        or not all(isinstance(payload[k], str) for k in ("type", second))
    ):
        raise ProtocolViolation(f"sent a malformed {key!r} message: {_excerpt(line)}")
    name = visible(cut(payload["type"], KIND_CAP))
    if kind is Message.UNREADABLE:
        return kind, Unreadable(name, visible(cut(payload["repr"], REPR_CAP)))
    try:
        frames, skipped, misfit_ = _where(payload)
    except ValueError:
        raise ProtocolViolation(f"sent a malformed {key!r} message: {_excerpt(line)}") from None
    message = visible(cut(payload["message"], MESSAGE_CAP))
    return kind, Failure(name, message, frames, skipped, misfit_)


_WHERE = {Message.ERROR: ("frames", "skipped", "misfit"), Message.UNREADABLE: ()}
"""The optional keys of a payload."""


def _where(payload: dict[str, Any]) -> tuple[tuple[Frame, ...], int, Misfit | None]:
    """An error's frames, frames skipped and misfit, checked, their strings cut and visible.

    Raises
    ------
    ValueError
        One of them is not of its shape.
    """
    raw = payload.get("frames", [])
    skipped = payload.get("skipped", 0)
    if not isinstance(raw, list) or len(raw) > FRAMES_KEPT:
        raise ValueError("frames")
    if type(skipped) is not int or skipped < 0:
        raise ValueError("skipped")
    frames = []
    for item in raw:
        if not (isinstance(item, list) and len(item) == 5):
            raise ValueError("frame")
        file, number, function, text, times = item
        texts = (file, function, text)
        counts = (number, times)
        if not all(isinstance(t, str) for t in texts) or not all(
            type(n) is int and n >= 0 for n in counts
        ):
            raise ValueError("frame")
        frames.append(
            Frame(
                visible(cut(file, KIND_CAP)),
                number,
                visible(cut(function, KIND_CAP)),
                visible(cut(text, LINE_CAP)),
                max(times, 1),
            )
        )
    found = payload.get("misfit")
    try:
        misfit_ = None if found is None else Misfit(found)
    except ValueError:
        raise ValueError("misfit") from None
    return tuple(frames), skipped, misfit_


def encode(reply: Reply, value: Any = True) -> bytes:
    """One reply as the line the child reads.

    Examples
    --------
    >>> encode(Reply.CLUE, 3)
    b'{"clue": 3}\\n'
    """
    return json.dumps({reply.value: value}).encode() + b"\n"


_KINDS = {kind.value: kind for kind in Message}

_EXCERPT = 60
"""Bytes of an offending line quoted in a violation."""


def _excerpt(line: bytes) -> str:
    """The start of ``line``, quoted, with the number of bytes left out."""
    if len(line) <= _EXCERPT:
        return repr(line)
    return f"{line[:_EXCERPT]!r}... ({len(line)} bytes)"
