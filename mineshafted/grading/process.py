"""The grading child's process: started with its pipes, in its sandbox, and swept away after.

The child is a fresh interpreter (``python -I -B``: no ``PYTHON*`` variable, user site or
current folder on its path, and no ``__pycache__`` written beside the submission) running
``child.py``, in a new session, with a fixed environment of four variables: none of the
grader's. Its limits are passed on its command line; the child sets them itself before it
imports the submission, so nothing runs between fork and exec here (this module imports no
``resource``, and spawns from threads safely).

Under :attr:`~.sandbox.Sandbox.BWRAP` the interpreter runs inside bubblewrap (see
:mod:`.sandbox`), whose PID namespace kills everything the child started when it ends. Under
:attr:`~.sandbox.Sandbox.NONE` it works in an empty temporary folder that is removed
afterwards, and when the board ends its process group is killed and then every process that
still carries the child's marker variable (a ``setsid`` escapee, say), found in ``/proc``.
When the grader is root, the child also becomes a fresh unprivileged user of its own before it
reads the submission (:mod:`.users`; its folder is handed to that user), and every process of
that user is killed with the board.

Where the grader can make one, the child also runs in a control group of its own
(:mod:`.cgroup`) that bounds the memory and the number of all the board's processes together:
it is started as ``sh -c 'read _ && exec "$@" </dev/null'``, which waits on its standard input
while the grader moves it into the group, then becomes the child (bubblewrap, or the
interpreter), so everything it starts is in the group from its first instruction. A group
that cannot be joined is an error of the grader's, not the submission's.

Three pipes connect it: the channel (child -> grader messages), the replies (grader -> child)
and its output (stdout and stderr together).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import logging
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

from .cgroup import BoardGroup, group_plan
from .errors import GradingError
from .leftovers import left_by_gone_graders
from .limits import Limits
from .sandbox import CHILD_PATH, SUBMISSION_FOLDER, Sandbox, bwrap_arguments, bwrap_command
from .users import board_user, processes_of, release

__all__ = ["CHILD", "FOLDER_PREFIX", "MARKER", "ChildProcess"]

logger = logging.getLogger(__name__)

CHILD = Path(__file__).with_name("child.py")
"""The script every grading child runs."""

FOLDER_PREFIX = "mineshafted-grade-"
"""How the working folder of a child outside a sandbox is named, in the temporary folder:
then the grader's process id, a dash and a random part."""

MARKER = "MINESHAFTED_GRADING"
"""The environment variable that marks a grading child and what it starts (a fresh token)."""

_SIGNALLED = 128
"""bubblewrap exits with 128 + the signal when the child was killed by one. A status past
128 + the last signal number is the child's own exit status; one from 129 to 128 + the last
signal stays ambiguous and is read as a signal (``bwrap --json-status-fd`` would tell)."""

_LAST_SIGNAL = int(getattr(signal, "SIGRTMAX", 64))

_JOIN = ["/bin/sh", "-c", 'read _ && unset PWD && exec "$@" </dev/null', "sh"]
"""The command put before the child's when it runs in a group: it waits for a line on its
standard input (the grader writes one once it has moved the shell into the group), then
replaces itself by the child's command, with standard input from ``/dev/null`` again and no
variable of its own (``PWD``). If the grader closes the pipe without a line, the shell exits
with status 1 and runs nothing."""

_BWRAP_TASKS = 2
"""The processes bubblewrap itself keeps in a board's group (outside the sandbox and its
PID 1): added to the limit, so that the submission may run as many as without it."""
"""The highest signal number: bubblewrap's status ``128 + n`` is a signal only up to it."""

_SWEEPS = 20
"""Rounds of the ``/proc`` sweep at most: each kills what the previous round left."""

_PAUSE = 0.01
"""Seconds between rounds of the sweep (a process in the middle of ``exec`` shows no
environment for a moment)."""


class ChildProcess:
    """One running grading child and the parent's ends of its pipes.

    Parameters
    ----------
    submission:
        The submission file the child imports.
    rows, cols:
        The size of the board it plays (``1, 1`` when only checking the import).
    limits:
        The limits the child sets on itself.
    check:
        Only import the submission and report whether it defines ``sweep_mines``.
    sandbox:
        What isolates the child (:mod:`.sandbox`).
    allow:
        The modules the submission may import (``None``: no check; ``child.py --allow``).

    Raises
    ------
    GradingError
        The process cannot be started.

    Notes
    -----
    Use it as a context manager: leaving it kills the child and everything it started,
    reaps it, closes the pipes and removes its working folder.
    """

    def __init__(
        self,
        submission: Path,
        rows: int,
        cols: int,
        limits: Limits,
        *,
        check: bool,
        sandbox: Sandbox = Sandbox.NONE,
        allow: frozenset[str] | None = None,
    ):
        self.sandbox = sandbox
        self._token = secrets.token_hex(16)
        self.user = _user(sandbox)
        """The board user the child becomes (:mod:`.users`), or ``None`` to stay the grader's."""
        try:
            self.group = _group(limits, sandbox)
            """The board's control group, where one can be made (:mod:`.cgroup`)."""
            self._folder = _working_folder(sandbox, self.user)
        except BaseException:
            if self.user is not None:
                release(self.user)
            raise
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        resolved = submission.resolve()
        passed = [to_child_r, from_child_w]
        if sandbox is Sandbox.BWRAP:

            def data(source: Path | bytes) -> int:
                if isinstance(source, bytes):
                    return _pipe_with(source, passed)
                passed.append(os.open(source, os.O_RDONLY | os.O_CLOEXEC))
                return passed[-1]

            arguments = bwrap_arguments(resolved, limits.disk_mb, CHILD, data=data)
            args, data_bytes = bwrap_command(arguments)
            args[args.index("{fd}")] = str(_pipe_with(data_bytes, passed))
            script, seen = CHILD_PATH, f"{SUBMISSION_FOLDER}/{resolved.name}"
        else:
            args, script, seen = [], str(CHILD), str(resolved)
        args += [sys.executable, "-I", "-B", script, *limits.child_arguments()]
        args += ["--parent", str(os.getpid())] if sandbox is Sandbox.NONE else []
        args += ["--user", str(self.user)] if self.user is not None else []
        args += ["--check"] if check else []
        args += ["--allow", ",".join(sorted(allow))] if allow is not None else []
        args += [seen, str(rows), str(cols), str(to_child_r), str(from_child_w)]
        try:
            if self.group is not None:
                _check_runnable(args[0])  # the shell would exit 127: the submission's status
                args = [*_JOIN, *args]
            self._popen = subprocess.Popen(
                args,
                stdin=subprocess.PIPE if self.group is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                pass_fds=tuple(passed),
                cwd=self._folder.name if self._folder else "/",
                env=_environment(self._token),
                start_new_session=True,
            )
        except OSError as error:
            for fd in (to_child_w, from_child_r):
                os.close(fd)
            if self._folder:
                self._folder.cleanup()
            if self.group is not None:
                self.group.close()
            if self.user is not None:
                release(self.user)
            raise GradingError(f"cannot start a grading process: {error}") from None
        finally:
            for fd in passed:
                os.close(fd)
        os.set_blocking(to_child_w, False)
        self.channel = from_child_r
        """Where the child's messages are read."""
        self.replies = to_child_w
        """Where replies are written (non-blocking: a child that does not read is not waited on)."""
        assert self._popen.stdout is not None
        self.output = self._popen.stdout.fileno()
        """Where the child's stdout and stderr are read."""
        if self.group is not None:
            self._join(self.group)

    def _join(self, group: BoardGroup) -> None:
        """Move the waiting shell into ``group``, then let it become the child.

        Raises
        ------
        GradingError
            The kernel refuses the move (the shell is ended, and everything is cleaned up).
        """
        stdin = self._popen.stdin
        assert stdin is not None
        try:
            group.join(self._popen.pid)
        except OSError as error:
            stdin.close()  # the shell reads no line: it exits and runs nothing
            self.__exit__(None, None, None)
            raise GradingError(f"cannot move a grading process into its cgroup: {error}") from None
        try:
            stdin.write(b"\n")
            stdin.close()
        except OSError:  # the shell is gone already: the session sees it exit
            pass

    @property
    def pid(self) -> int:
        """The child's process id (and process group id); bubblewrap's, in its sandbox."""
        return self._popen.pid

    def reply(self, data: bytes) -> None:
        """Write ``data`` to the child without waiting.

        Raises
        ------
        BlockingIOError
            The pipe is full: the child does not read its replies.
        BrokenPipeError
            The child has closed its end.
        """
        written = os.write(self.replies, data)
        if written < len(data):
            raise BlockingIOError("the reply did not fit in the pipe")

    def kill(self) -> None:
        """Kill the child's whole process group at once (``SIGKILL``), even once it has exited.

        Its process group outlives it while a process it forked is still in it.
        """
        try:
            os.killpg(self._popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            if self._popen.returncode is None:
                self._popen.kill()

    def wait(self, timeout: float | None) -> int | None:
        """The exit status once the child has exited, waiting up to ``timeout`` seconds.

        ``None`` when it is still running; a negative status is the signal that killed it.
        """
        try:
            status = self._popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        if self.sandbox is Sandbox.BWRAP and _SIGNALLED < status <= _SIGNALLED + _LAST_SIGNAL:
            return _SIGNALLED - status
        return status

    def __enter__(self) -> ChildProcess:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.kill()
        self._popen.wait()
        if self.sandbox is Sandbox.NONE:
            _sweep(self._token, self.user)
        if self.group is not None:
            self.group.close()
        if self.user is not None:
            release(self.user)
        for fd in (self.channel, self.replies):
            os.close(fd)
        assert self._popen.stdout is not None
        self._popen.stdout.close()
        if self._folder:
            self._folder.cleanup()


def _group(limits: Limits, sandbox: Sandbox) -> BoardGroup | None:
    """A control group for one board's processes, or ``None`` where none can be made here.

    Its memory limit is :attr:`~.limits.Limits.group_memory_bytes`; its task limit
    :attr:`~.limits.Limits.processes`, plus bubblewrap's own under :attr:`~.sandbox.Sandbox.BWRAP`.
    """
    if not group_plan().places:
        return None
    extra = _BWRAP_TASKS if sandbox is Sandbox.BWRAP else 0
    return BoardGroup(limits.group_memory_bytes, limits.processes + extra)


def _check_runnable(program: str) -> None:
    """Raise ``FileNotFoundError`` unless ``program`` names a file this user may run."""
    if shutil.which(program) is None:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)


def _user(sandbox: Sandbox) -> int | None:
    """A board user for a child of root outside a sandbox (:mod:`.users`), else ``None``."""
    if sandbox is Sandbox.NONE and os.geteuid() == 0:
        return board_user()
    return None


def _working_folder(sandbox: Sandbox, user: int | None) -> tempfile.TemporaryDirectory[str] | None:
    """The child's empty working folder outside a sandbox (bubblewrap makes its own), owned by
    its board user if it has one.

    Its name holds this grader's process id, so that the folders of a grader that was killed
    are found and removed by the next one here (:func:`_remove_stale_folders`, once).
    """
    if sandbox is Sandbox.BWRAP:
        return None
    _remove_stale_folders()
    folder = tempfile.TemporaryDirectory(
        prefix=f"{FOLDER_PREFIX}{os.getpid()}-", ignore_cleanup_errors=True
    )
    if user is not None:
        os.chown(folder.name, user, user)
    return folder


@functools.cache
def _remove_stale_folders() -> None:
    """Remove the working folders left by graders that are no longer running.

    Notes
    -----
    O(entries in the temporary folder), once per process.
    """
    for entry in left_by_gone_graders(Path(tempfile.gettempdir()), FOLDER_PREFIX):
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
            logger.info("removed %s, left by a grader that is gone", entry)


def _environment(token: str) -> dict[str, str]:
    """Just enough environment for an interpreter, fixed: no variable of the grader's."""
    return {
        "PATH": os.defpath,
        "LANG": "C.UTF-8",
        "HOME": "/nonexistent",
        MARKER: token,
    }


def _pipe_with(data: bytes, opened: list[int]) -> int:
    """The read end of a new pipe that holds ``data`` (under a pipe's 64 KiB) and is closed.

    Its read end is added to ``opened``.
    """
    read, write = os.pipe()
    opened.append(read)
    try:
        os.write(write, data)
    finally:
        os.close(write)
    return read


def _sweep(token: str, user: int | None = None) -> None:
    """Kill every process that still carries ``token`` in its environment, or runs as the
    board's ``user``, until none does.

    Notes
    -----
    O(processes on the system) per round. Without a board user, a process that has replaced
    its environment, or whose environment this user cannot read, is not found: only a PID
    namespace, or a user of the board's own, is sure.
    """
    mark = f"{MARKER}={token}".encode()
    quiet = 0
    for _ in range(_SWEEPS):
        found = [pid for pid in _processes() if mark in _environment_of(pid)]
        if user is not None:
            found += [pid for pid in processes_of(user) if pid not in found]
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        if found:
            logger.info("killed %d process(es) a grading child left running", len(found))
        quiet = 0 if found else quiet + 1
        if quiet == 2:  # twice nothing: not even a process caught mid-exec
            return
        time.sleep(_PAUSE)
    logger.warning("processes of a grading child are still running after %d sweeps", _SWEEPS)


def _processes() -> list[int]:
    """The ids of the processes in ``/proc`` (none where there is no ``/proc``)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    return [int(name) for name in names if name.isdigit()]


def _environment_of(pid: int) -> bytes:
    """The environment a process started with; empty if it cannot be read."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            return file.read()
    except OSError:
        return b""
