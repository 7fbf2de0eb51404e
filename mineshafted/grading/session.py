"""A grading session: one child process, the conversation with it, and how it ended.

The session starts a :class:`~.process.ChildProcess`, reads its channel and its output
together, answers its moves through the :class:`~.referee.Referee`, enforces the wall-clock
limit and the message cap, and ends in one frozen :class:`SessionEnd` whose :class:`Ending`
says what happened. The child may only say, in order: ready, start, moves, one answer; every
other message, and a channel closed before the answer, ends the session as
:attr:`Ending.PROTOCOL`. Whatever the child does, the session ends and the child is killed.
Kept at about 450 lines: the conversation's states are one loop over one selector.
"""

from __future__ import annotations

import logging
import os
import selectors
import signal
import time
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from .capture import Capture
from .limits import Limits
from .process import ChildProcess
from .protocol import (
    CHANNEL_LOST,
    RESULT_PREFIX,
    Message,
    Oversized,
    ProtocolViolation,
    Reply,
    encode,
    parse,
)
from .referee import Referee
from .sandbox import Sandbox
from .zygote import Zygote, ZygoteBoard

__all__ = ["Ending", "Session", "SessionEnd"]

logger = logging.getLogger(__name__)

CHUNK = 64 * 1024
"""Bytes read from a pipe at a time."""

POLL = 0.05
"""Seconds between checks, while the pipes are quiet, that the child is still running."""


class Ending(Enum):
    """How a session ended: the one thing that decided it."""

    READY = "ready"
    """Only checking: the submission imported and defines ``sweep_mines``."""
    RESULT = "result"
    """``sweep_mines`` returned a value (the answer, to be judged)."""
    UNIMPORTABLE = "unimportable"
    """The submission raised while it was imported, or defines no ``sweep_mines``."""
    ERROR = "error"
    """``sweep_mines`` raised."""
    EXPLODED = "exploded"
    """The submission moved onto a mine (whatever it did afterwards)."""
    TIMED_OUT = "timed out"
    """No answer within the wall-clock limit."""
    EXITED = "exited"
    """The child exited, or was killed by a signal, without an answer."""
    PROTOCOL = "protocol"
    """The child broke the protocol (what it wrote, or closing its channel)."""


@dataclass(frozen=True)
class SessionEnd:
    """Everything a finished session tells: its ending and the evidence."""

    ending: Ending
    detail: str = ""
    """What happened, as a phrase for the report (``""`` for a ready or a result)."""
    answer: Any = None
    """What ``sweep_mines`` returned (:attr:`Ending.RESULT`): a JSON value, or
    :class:`~.protocol.Unreadable`."""
    moves: int = 0
    """Moves onto safe cells before the game was lost."""
    seconds: float = 0.0
    """Wall-clock time of ``sweep_mines``, as the grader's clock measures it: from before it lets
    the child call it to the arrival of its answer, so never less than the call took; for a
    child cut off by the wall-clock limit, to the moment it was (the limit, and the few
    milliseconds the grader took to notice)."""
    output: bytes = b""
    """What the child printed, up to the output cap."""
    output_bytes: int = 0
    """How many bytes the child printed in all."""
    status: int | None = None
    """The child's exit status (negative: the signal that killed it)."""


class _Phase(Enum):
    """Where the conversation is: each message is allowed in one phase only."""

    IMPORTING = "importing"
    READY = "ready"
    SWEEPING = "sweeping"
    ANSWERED = "answered"


class _Stream(Enum):
    CHANNEL = "channel"
    OUTPUT = "output"


class Session:
    """One child process playing one board (or only importing the submission), refereed.

    Parameters
    ----------
    submission:
        The submission's file.
    limits:
        The limits of the child and of what is read from it.
    referee:
        The referee of the board to play; ``None`` only checks that the submission imports
        and defines ``sweep_mines``.
    sandbox:
        What isolates the child (:mod:`.sandbox`); ``grade`` chooses it.
    zygote:
        Fork the child from this submission's zygote (:mod:`.zygote`) instead of starting
        one (the sandbox is then the zygote's).
    allow:
        The modules the submission may import (``None``: no check); a zygote has its own.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mineshafted import Board
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "sub.py")
    ...     _ = path.write_text("def sweep_mines(bm):\\n    return [[bm.move(0)]]\\n")
    ...     end = Session(path, Limits(timeout=5), Referee(Board.from_grid([[0]]))).run()
    >>> end.ending, end.answer, end.moves
    (<Ending.RESULT: 'result'>, [[0]], 1)

    Notes
    -----
    A session is used once. Its cost is the child's: a fresh interpreter (about 50 ms) and
    the submission; the grader's own work is O(bytes read).
    """

    def __init__(
        self,
        submission: Path,
        limits: Limits,
        referee: Referee | None,
        sandbox: Sandbox = Sandbox.NONE,
        *,
        zygote: Zygote | None = None,
        allow: frozenset[str] | None = None,
    ) -> None:
        self.submission = submission
        self.zygote = zygote
        self.allow = allow
        self.sandbox = sandbox
        self.limits = limits
        self.referee = referee
        self._capture = Capture(limits.output_cap)
        self._phase = _Phase.IMPORTING
        self._pending = bytearray()
        self._ending: Ending | None = None
        self._detail = ""
        self._answer: Any = None
        self._deadline = 0.0
        self._started: float | None = None
        self._seconds = 0.0
        self._channel_closed = False
        self._skipping = False
        """Skipping the rest of a line refused as oversized."""
        geometry = referee.board.geometry if referee else None
        self._result_caps = limits.result_caps(
            geometry.rows if geometry else 1, geometry.cols if geometry else 1
        )

    def run(self) -> SessionEnd:
        """Start the child and referee it until the session ends.

        Raises
        ------
        GradingError
            The child process cannot be started.
        """
        board = self.referee.board.geometry if self.referee else None
        rows, cols = (board.rows, board.cols) if board else (1, 1)
        check = self.referee is None
        child: ChildProcess | ZygoteBoard
        if self.zygote is not None:
            child = self.zygote.board(rows, cols, self.limits, check=check)
        else:
            child = ChildProcess(
                self.submission,
                rows,
                cols,
                self.limits,
                check=check,
                sandbox=self.sandbox,
                allow=self.allow,
            )
        with child:
            self._deadline = time.monotonic() + self.limits.timeout
            try:
                self._converse(child)
            except ProtocolViolation as violation:
                self._decide(Ending.PROTOCOL, f"broke the protocol: {violation.what}")
                child.kill()
            status = child.wait(max(0.0, self._deadline - time.monotonic()))
            cut_off = status is None
            if cut_off:
                self._stop_clock()  # the limit stopped it now: the time is the time it had
                child.kill()
                status = child.wait(None)
        self._stop_clock()
        if self._ending is None:
            self._decide(*self._why_it_stopped(status, cut_off))
        if child.group is not None and child.group.oom_kills and self._ending is Ending.EXITED:
            self._detail += _out_of_memory(child.group.oom_kills, self.limits)
        assert self._ending is not None
        logger.debug("%s ended: %s %s", self.submission, self._ending.value, self._detail)
        return SessionEnd(
            ending=self._ending,
            detail=self._detail,
            answer=self._answer,
            moves=self.referee.moves if self.referee else 0,
            seconds=self._seconds,
            output=self._capture.kept,
            output_bytes=self._capture.total,
            status=status,
        )

    def _converse(self, child: ChildProcess | ZygoteBoard) -> None:
        """Read the channel and the output until both close or the deadline passes."""
        with selectors.DefaultSelector() as selector:
            selector.register(child.channel, selectors.EVENT_READ, _Stream.CHANNEL)
            selector.register(child.output, selectors.EVENT_READ, _Stream.OUTPUT)
            while selector.get_map():
                left = self._deadline - time.monotonic()
                if left <= 0:
                    return
                events = selector.select(min(left, POLL))
                for key, _ in events:
                    self._read(key, selector, child)
                if not events and child.wait(0) is not None:
                    self._drain(selector, child)
                    return

    def _drain(self, selector: selectors.BaseSelector, child: ChildProcess | ZygoteBoard) -> None:
        """Read what is already in the pipes of a child that has exited, then stop.

        Its pipes may stay open after it: a process it started can hold them.
        """
        while selector.get_map() and time.monotonic() < self._deadline:
            events = selector.select(0)
            if not events:
                return
            for key, _ in events:
                self._read(key, selector, child)

    def _read(
        self,
        key: selectors.SelectorKey,
        selector: selectors.BaseSelector,
        child: ChildProcess | ZygoteBoard,
    ) -> None:
        """Read one chunk from a stream that is ready, or note that it has closed."""
        chunk = os.read(key.fd, CHUNK)
        if not chunk:
            selector.unregister(key.fd)
            if key.data is _Stream.CHANNEL and self._ending is None:
                self._channel_closed = True
                self._shorten_deadline()
        elif key.data is _Stream.OUTPUT:
            self._capture.keep(chunk)
        else:
            self._receive(chunk, child)

    def _receive(self, chunk: bytes, child: ChildProcess | ZygoteBoard) -> None:
        """Act on each whole message in what has arrived; keep the partial one.

        A line is screened before it is parsed: a result bigger than the board needs is
        answered as :class:`~.protocol.Oversized` (the rest of its line is skipped unread), any
        other message over the cap is a protocol break.

        Raises
        ------
        ProtocolViolation
            A message is over the cap or is not allowed here.

        Notes
        -----
        O(bytes read); what is kept or parsed at once is bounded by the caps.
        """
        if self._skipping:
            newline = chunk.find(b"\n")
            if newline < 0:
                return
            self._skipping = False
            chunk = chunk[newline + 1 :]
        pending = self._pending
        search = len(pending)  # pragma: no mutate - where to look from: speed only
        pending += chunk
        begin = 0
        while (end := pending.find(b"\n", search)) >= 0:
            line = bytes(pending[begin:end])
            oversized = self._screen(line, whole=True)
            if oversized is None:
                self._handle(*parse(line), child)
            else:
                self._handle(Message.RESULT, oversized, child)
            begin = search = end + 1
        del pending[:begin]
        oversized = self._screen(pending, whole=False)
        if oversized is not None:
            pending.clear()
            self._skipping = True
            self._handle(Message.RESULT, oversized, child)

    def _screen(self, line: bytes | bytearray, *, whole: bool) -> Oversized | None:
        """Check a line (or the start of one) against the caps before it is parsed.

        Returns
        -------
        Oversized | None
            A result bigger than the board needs; ``None`` for a line that may be parsed.

        Raises
        ------
        ProtocolViolation
            Any other message over :attr:`~.limits.Limits.message_cap`.
        """
        size_cap, lists_cap = self._result_caps
        if line[: len(RESULT_PREFIX)] == RESULT_PREFIX:
            if len(line) > size_cap:
                return Oversized(len(line))
            lists = line.count(b"[") + line.count(b"{") if whole else 0
            return Oversized(len(line), lists) if lists > lists_cap else None
        cap = self.limits.message_cap
        if len(line) > cap and (whole or len(line) >= len(RESULT_PREFIX)):
            raise ProtocolViolation(f"sent a message over the cap of {cap} bytes")
        return None

    def _handle(self, kind: Message, payload: Any, child: ChildProcess | ZygoteBoard) -> None:
        """Act on one message, if it is allowed in the current phase."""
        phase = self._phase
        if phase is _Phase.IMPORTING and kind is Message.READY:
            self._phase = _Phase.READY
            if self.referee is None:
                self._phase = _Phase.ANSWERED
                self._decide(Ending.READY)
        elif phase is _Phase.IMPORTING and kind is Message.ERROR:
            self._phase = _Phase.ANSWERED
            self._decide(Ending.UNIMPORTABLE, f"cannot be imported: {payload}")
        elif phase is _Phase.READY and kind is Message.START and self.referee is not None:
            self._phase = _Phase.SWEEPING
            # The wall-clock limit is the sweep's, from before the child may begin (see
            # child.py): the time reported for a board cut off is the limit it had.
            self._started = time.perf_counter()  # the same clock as monotonic, on Linux
            self._deadline = time.monotonic() + self.limits.timeout
            self._send(child, encode(Reply.GO))
        elif phase is _Phase.SWEEPING and kind is Message.MOVE:
            self._move(payload, child)
        elif phase is _Phase.SWEEPING and kind in (Message.RESULT, Message.UNREADABLE):
            self._phase = _Phase.ANSWERED
            self._stop_clock()
            self._answer = payload
            self._decide(Ending.RESULT)
        elif phase is _Phase.SWEEPING and kind is Message.ERROR:
            self._phase = _Phase.ANSWERED
            self._stop_clock()
            self._decide(Ending.ERROR, str(payload))
        elif phase is _Phase.ANSWERED and kind in _ANSWERS:
            raise ProtocolViolation("sent a second answer")
        else:
            raise ProtocolViolation(f"sent a {kind.value!r} message while {phase.value}")

    def _move(self, index: int, child: ChildProcess | ZygoteBoard) -> None:
        """Answer a move through the referee; a mine decides the game."""
        assert self.referee is not None
        reply, value = self.referee.answer(index)
        if reply is Reply.MINE:
            row, col = self.referee.board.geometry.coords(index)
            self._decide(Ending.EXPLODED, f"moved onto the mine at ({row}, {col})")
        self._send(child, encode(reply, value))

    def _send(self, child: ChildProcess | ZygoteBoard, data: bytes) -> None:
        """Write one reply to the child.

        Raises
        ------
        ProtocolViolation
            The child does not read its replies, or has closed its end.
        """
        try:
            child.reply(data)
        except BlockingIOError:
            raise ProtocolViolation("does not read the grader's replies") from None
        except OSError:
            raise ProtocolViolation(_CLOSED) from None

    def _decide(self, ending: Ending, detail: str = "") -> None:
        """Record how the session ends, and give the child a short grace to exit.

        The first ending stands, except that breaking the protocol overrides an answer; a
        lost game is never overridden.
        """
        current = self._ending
        overrides = ending is Ending.PROTOCOL and current is not Ending.EXPLODED
        if current is None or overrides:
            self._ending, self._detail = ending, detail
        self._shorten_deadline()

    def _why_it_stopped(self, status: int | None, cut_off: bool) -> tuple[Ending, str]:
        """The ending of a session that was not decided by a message."""
        if self._channel_closed and (cut_off or status == CHANNEL_LOST):
            return Ending.PROTOCOL, f"broke the protocol: {_CLOSED}"
        if cut_off or status is None:
            return Ending.TIMED_OUT, f"no answer within {self.limits.timeout:g} s"
        if status >= 0:
            return Ending.EXITED, f"exited with status {status}"
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return Ending.EXITED, f"killed by {name}"

    def _shorten_deadline(self) -> None:
        self._deadline = min(self._deadline, time.monotonic() + self.limits.grace)

    def _stop_clock(self) -> None:
        if self._started is not None and not self._seconds:
            self._seconds = time.perf_counter() - self._started


def _out_of_memory(kills: int, limits: Limits) -> str:
    """What to add to the detail of a child that ended after the out-of-memory killer acted.

    Examples
    --------
    >>> _out_of_memory(1, Limits(memory_mb=512))
    ' (the out-of-memory killer ended 1 of its processes: the board may hold 576 MiB in all)'
    """
    return (
        f" (the out-of-memory killer ended {kills} of its processes: the board may hold "
        f"{limits.group_memory_bytes // (1024 * 1024)} MiB in all)"
    )


_ANSWERS = (Message.RESULT, Message.UNREADABLE, Message.ERROR)

_CLOSED = "closed its channel to the grader before answering"
