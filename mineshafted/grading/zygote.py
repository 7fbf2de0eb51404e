"""The zygote: one sandboxed process per submission that forks a fresh process for each board.

Starting a sandbox and an interpreter for every board costs about 100 ms of a board's wall
time (most of it the interpreter's start); a class of 300 submissions on 32 boards each is
9,600 boards. So a class run starts, for each submission, one bubblewrap sandbox running
``child.py --zygote``, and asks it for each board in turn: the zygote forks a supervisor,
which gives itself namespaces of its own and forks the board process (``child.py``:
:func:`_board`, :func:`_isolate`, :func:`_board_process`). The board process then does what
a board's interpreter did: drops every capability, sets its limits, imports the submission
and plays over its own pipes (the same protocol and :class:`~.session.Session` as ever).

Why one board cannot see or change another's state
--------------------------------------------------
- The zygote never imports the submission: it runs only the grader's script, so every board
  process is forked from the same clean process. Module-level state a board sets lives in
  that board's process, which ends with the board; the next board starts from the zygote,
  not from it. No descriptor of the zygote's reaches a board but its own three pipes (the
  board process closes every other one), and the zygote maps no shared memory.
- Each board process is the first process of a PID namespace of its own: it sees no other
  process (``/proc`` is covered by an empty read-only folder) and cannot signal or trace
  one; when it exits, every process it started is killed. It has its own network (so no
  abstract socket is shared), IPC and host-name namespaces, a fresh ``/tmp`` (the only
  writable file system, sized as before), and its own user namespace in which it has no
  capability (the bounding set, the effective, permitted and inheritable sets are all
  dropped, and no new privilege can be gained).
- Boards of one submission run one at a time, in the zygote's control group: when a board
  ends, its PID namespace has ended (the supervisor reports its status only after reaping
  it), so the group then holds the zygote and nothing of the board's. Each board thus has
  the group's limits to itself (plus the zygote's few MiB).
- The grader kills a board through a pidfd of the board process (its namespace's first
  process, so everything in it dies), never by a process id that could be reused.

What it does not change: the limits (memory, CPU, files, processes), the wall-clock limit,
the protocol and the referee are those of :mod:`.session` and :mod:`.limits`, board by board.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from .cgroup import BoardGroup, group_plan
from .errors import GradingError
from .limits import MIB, Limits
from .process import _JOIN, _check_runnable, _environment, _pipe_with
from .sandbox import CHILD_PATH, SUBMISSION_FOLDER, Sandbox, bwrap_arguments, bwrap_command

__all__ = ["SANDBOX_USER", "ZYGOTE_MIB", "Zygote", "ZygoteBoard"]

logger = logging.getLogger(__name__)

CHILD = Path(__file__).with_name("child.py")

SANDBOX_USER = 1000
"""The user id the zygote has inside its sandbox (any but 0: see :func:`.bwrap_arguments`)."""

ZYGOTE_MIB = 64
"""Memory the zygote's group holds beyond a board's: the zygote and the board's supervisor."""

_ZYGOTE_TASKS = 4
"""Tasks the zygote's group holds beyond a board's: bubblewrap's two, the zygote and the
board's supervisor."""

_START = 30.0
"""Seconds the grader waits for the zygote to answer an order (it forks: milliseconds)."""


class Zygote:
    """One submission's zygote, in a bubblewrap sandbox and a control group of its own.

    Parameters
    ----------
    submission:
        The submission's file (bound into the sandbox; the zygote never imports it).
    limits:
        The limits of the boards (the group's memory and tasks are a board's and a little).
    allow:
        The modules the submission may import (``None``: no check).

    Raises
    ------
    GradingError
        The sandbox, the group or the zygote cannot be started.

    Notes
    -----
    Use it as a context manager: leaving it ends the zygote and everything in its sandbox,
    and removes its group. Starting one costs what one board's process used to (about 100
    ms); each board then costs a fork and a few namespaces (about 5 ms).
    """

    def __init__(
        self, submission: Path, limits: Limits, *, allow: frozenset[str] | None = None
    ) -> None:
        self.submission = submission
        self.limits = limits
        self.sandbox = Sandbox.BWRAP
        """What isolates the boards: always bubblewrap (with a namespace each inside it)."""
        self.group: BoardGroup | None = None
        if group_plan().places:
            self.group = BoardGroup(
                limits.group_memory_bytes + ZYGOTE_MIB * MIB, limits.processes + _ZYGOTE_TASKS
            )
        self._control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        passed = [theirs.fileno()]
        resolved = submission.resolve()

        def data(source: Path | bytes) -> int:
            if isinstance(source, bytes):
                return _pipe_with(source, passed)
            passed.append(os.open(source, os.O_RDONLY | os.O_CLOEXEC))
            return passed[-1]

        try:
            arguments = bwrap_arguments(
                resolved, limits.disk_mb, CHILD, data=data, user=SANDBOX_USER
            )
            args, data_bytes = bwrap_command(arguments)
            args[args.index("{fd}")] = str(_pipe_with(data_bytes, passed))
            args += [sys.executable, "-I", "-B", CHILD_PATH, "--zygote", str(theirs.fileno())]
            args += ["--allow", ",".join(sorted(allow))] if allow is not None else []
            args += [f"{SUBMISSION_FOLDER}/{resolved.name}"]
            if self.group is not None:
                _check_runnable(args[0])
                args = [*_JOIN, *args]
            self._popen = subprocess.Popen(
                args,
                stdin=subprocess.PIPE if self.group is not None else subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                pass_fds=tuple(passed),
                cwd="/",
                env=_environment("zygote"),
                start_new_session=True,
            )
        except (OSError, GradingError) as error:
            self._control.close()
            if self.group is not None:
                self.group.close()
            raise GradingError(f"cannot start a zygote: {error}") from None
        finally:
            theirs.close()
            for fd in passed[1:]:
                with contextlib.suppress(OSError):
                    os.close(fd)
        if self.group is not None:
            stdin = self._popen.stdin
            assert stdin is not None
            try:
                self.group.join(self._popen.pid)
            except OSError as error:
                stdin.close()
                self.close()
                raise GradingError(f"cannot move a zygote into its cgroup: {error}") from None
            with contextlib.suppress(OSError):
                stdin.write(b"\n")
                stdin.close()

    def board(self, rows: int, cols: int, limits: Limits, *, check: bool) -> ZygoteBoard:
        """Fork a board process for a ``rows x cols`` board (or only to check the import).

        Raises
        ------
        GradingError
            The zygote is gone, or the board could not be set up (not the submission's
            doing: nothing of it has run yet).
        """
        return ZygoteBoard(self, rows, cols, limits, check=check)

    def order(self, order: dict[str, Any], fds: list[int]) -> None:
        """Send one order with the descriptors it carries.

        Raises
        ------
        GradingError
            The zygote is gone.
        """
        if self._popen.poll() is not None:
            # A socket still open in a process the zygote left behind would take the order.
            raise GradingError(f"the zygote is gone ({self._said()})")
        try:
            socket.send_fds(self._control, [json.dumps(order).encode()], fds)
        except OSError as error:
            raise GradingError(f"the zygote is gone: {error} ({self._said()})") from None

    def oom_kills(self) -> int:
        """Processes in the zygote's group the out-of-memory killer has ended so far."""
        if self.group is None:
            return 0
        from .cgroup import _oom_kills

        return max((_oom_kills(folder) for _, folder in self.group.folders), default=0)

    def _said(self) -> str:
        """What the zygote wrote on stderr, if it has exited (for an error message)."""
        if self._popen.poll() is None or self._popen.stderr is None:
            return "still running"
        try:
            said = self._popen.stderr.read(4096).decode("utf-8", "replace").strip()
        except (OSError, ValueError):  # closed already
            said = ""
        return said.splitlines()[-1] if said else f"exited with status {self._popen.returncode}"

    def kill(self) -> None:
        """End the zygote's sandbox now, and with it the board being played (from any
        thread: the board's session then ends as killed)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._popen.pid, signal.SIGKILL)

    def close(self) -> None:
        """End the zygote and its sandbox, and remove its group."""
        with contextlib.suppress(OSError):
            self._control.close()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._popen.pid, signal.SIGKILL)
        self._popen.wait()
        if self._popen.stderr is not None:
            self._popen.stderr.close()
        if self.group is not None:
            self.group.close()

    def __enter__(self) -> Zygote:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class _Kills:
    """What a board's session reads of its group: the out-of-memory kills during the board."""

    def __init__(self, before: int) -> None:
        self.before = before
        self.oom_kills = 0


class ZygoteBoard:
    """One board process forked by a zygote, as a session sees a child process.

    It has the attributes and methods :class:`~.session.Session` uses of a
    :class:`~.process.ChildProcess`: ``channel``, ``output``, ``reply``, ``kill``, ``wait``
    and ``group.oom_kills``.
    """

    def __init__(
        self, zygote: Zygote, rows: int, cols: int, limits: Limits, *, check: bool
    ) -> None:
        self.zygote = zygote
        self.group = _Kills(zygote.oom_kills()) if zygote.group is not None else None
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        output_r, output_w = os.pipe()
        self._report, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        order = {
            "rows": rows,
            "cols": cols,
            "check": check,
            "memory": limits.memory_bytes,
            "cpu": limits.cpu_seconds,
            "file_size": limits.file_bytes,
            "processes": limits.processes,
            "disk": limits.disk_mb * MIB,
        }
        self.channel = from_child_r
        """Where the board process's messages are read."""
        self.replies = to_child_w
        """Where replies are written (non-blocking)."""
        self.output = output_r
        """Where its stdout and stderr are read."""
        self._pidfd = -1
        self._status: int | None = None
        self._ended = False
        try:
            zygote.order(order, [to_child_r, from_child_w, output_w, theirs.fileno()])
        except GradingError:
            self._close_all(to_child_r, from_child_w, output_w, theirs)
            raise
        for fd in (to_child_r, from_child_w, output_w):
            os.close(fd)
        theirs.close()
        os.set_blocking(to_child_w, False)
        try:
            self._await_set_up()
        except GradingError:
            self.__exit__(None, None, None)
            raise

    def _close_all(self, *ends: int | socket.socket) -> None:
        for end in (*ends, self.channel, self.replies, self.output):
            with contextlib.suppress(OSError):
                end.close() if isinstance(end, socket.socket) else os.close(end)
        self._report.close()

    def _await_set_up(self) -> None:
        """Read the supervisor's first reports: the pidfd, then ``set`` (or why not)."""
        message, fds = self._receive(_START)
        if message is None or "pid" not in message or len(fds) != 1:
            raise GradingError(f"the zygote did not start a board ({self._why(message)})")
        self._pidfd = fds[0]
        message, _ = self._receive(_START)
        if message is None or "set" not in message:
            raise GradingError(f"a board could not be set up: {self._why(message)}")

    def _why(self, message: dict[str, Any] | None) -> str:
        if message is None:
            return f"no answer; the zygote {self.zygote._said()}"
        return str(message.get("error", message))

    def _receive(self, timeout: float | None) -> tuple[dict[str, Any] | None, list[int]]:
        """The supervisor's next report and the descriptors it carries, or ``None`` when it
        has closed the socket or ``timeout`` has passed."""
        with selectors.DefaultSelector() as selector:
            selector.register(self._report, selectors.EVENT_READ)
            if not selector.select(timeout):
                return None, []
        try:
            data, fds, _, _ = socket.recv_fds(self._report, 4096, 1)
        except OSError:
            return None, []
        if not data:
            self._ended = True
            return None, fds
        try:
            message = json.loads(data)
        except ValueError:
            return None, fds
        return (message if isinstance(message, dict) else None), fds

    @property
    def pid(self) -> int:
        """The board process's pidfd (the grader has no id of it in its own namespace)."""
        return self._pidfd

    def reply(self, data: bytes) -> None:
        """Write ``data`` to the board process without waiting (as ``ChildProcess.reply``)."""
        written = os.write(self.replies, data)
        if written < len(data):
            raise BlockingIOError("the reply did not fit in the pipe")

    def kill(self) -> None:
        """Kill the board process, and with it every process of its PID namespace."""
        if self._pidfd >= 0 and self._status is None:
            with contextlib.suppress(ProcessLookupError, OSError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)

    def wait(self, timeout: float | None) -> int | None:
        """The board process's exit status, once its supervisor has reaped it (negative: the
        signal that killed it); ``None`` if it is still running after ``timeout`` seconds."""
        if self._status is not None:
            return self._status
        deadline = None if timeout is None else time.monotonic() + timeout
        while self._status is None and not self._ended:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            message, fds = self._receive(left)
            for fd in fds:
                os.close(fd)
            if message is not None and isinstance(message.get("status"), int):
                self._status = message["status"]
            elif message is None and not self._ended:
                return None  # timed out
        if self._status is None:  # the supervisor is gone without a word: as if killed
            self._status = -signal.SIGKILL
        return self._status

    def __enter__(self) -> ZygoteBoard:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.kill()
        self.wait(None)
        while not self._ended:  # the supervisor exits once it has told: its socket closes
            message, fds = self._receive(_START)
            for fd in fds:
                os.close(fd)
            if message is None:
                break
        if self.group is not None:
            self.group.oom_kills = max(0, self.zygote.oom_kills() - self.group.before)
        if self._pidfd >= 0:
            os.close(self._pidfd)
            self._pidfd = -1
        for fd in (self.channel, self.replies, self.output):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._report.close()
