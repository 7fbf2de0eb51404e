"""The grading child's process: started with its pipes, an empty folder and a minimal environment.

The child is a fresh interpreter (``python -I``, so no ``PYTHON*`` variable, user site or
current folder on its path) running ``child.py``, in a new session (so the whole process group
can be killed), with an empty temporary working folder that is removed afterwards, and an
environment of three fixed variables: none of the grader's. Its limits are passed on its command
line; the child sets them itself before it imports the submission, so nothing runs between
fork and exec here (this module imports no ``resource``, and spawns from threads safely).

Three pipes connect it: the channel (child -> grader messages), the replies (grader -> child)
and its output (stdout and stderr together).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from types import TracebackType

from .errors import GradingError
from .limits import Limits

__all__ = ["CHILD", "ChildProcess"]

CHILD = Path(__file__).with_name("child.py")
"""The script every grading child runs."""


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

    Raises
    ------
    GradingError
        The process cannot be started.

    Notes
    -----
    Use it as a context manager: leaving it kills the child if it still runs, reaps it,
    closes the pipes and removes its working folder.
    """

    def __init__(self, submission: Path, rows: int, cols: int, limits: Limits, *, check: bool):
        self._folder = tempfile.TemporaryDirectory(
            prefix="mineshafted-grade-", ignore_cleanup_errors=True
        )
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        args = [sys.executable, "-I", str(CHILD), *limits.child_arguments()]
        args += ["--check"] if check else []
        args += [str(submission.resolve()), str(rows), str(cols), str(to_child_r)]
        args += [str(from_child_w)]
        try:
            self._popen = subprocess.Popen(
                args,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                pass_fds=(to_child_r, from_child_w),
                cwd=self._folder.name,
                env=_environment(),
                start_new_session=True,
            )
        except OSError as error:
            for fd in (to_child_w, from_child_r):
                os.close(fd)
            self._folder.cleanup()
            raise GradingError(f"cannot start a grading process: {error}") from None
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        os.set_blocking(to_child_w, False)
        self.channel = from_child_r
        """Where the child's messages are read."""
        self.replies = to_child_w
        """Where replies are written (non-blocking: a child that does not read is not waited on)."""
        assert self._popen.stdout is not None
        self.output = self._popen.stdout.fileno()
        """Where the child's stdout and stderr are read."""

    @property
    def pid(self) -> int:
        """The child's process id (and process group id)."""
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
        """Kill the child's whole process group at once (``SIGKILL``)."""
        if self._popen.returncode is not None:
            return
        try:
            os.killpg(self._popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            self._popen.kill()

    def wait(self, timeout: float | None) -> int | None:
        """The exit status once the child has exited, waiting up to ``timeout`` seconds.

        ``None`` when it is still running; a negative status is the signal that killed it.
        """
        try:
            return self._popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

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
        for fd in (self.channel, self.replies):
            os.close(fd)
        assert self._popen.stdout is not None
        self._popen.stdout.close()
        self._folder.cleanup()


def _environment() -> dict[str, str]:
    """Just enough environment for an interpreter, fixed: no variable of the grader's."""
    return {
        "PATH": os.defpath,
        "LANG": "C.UTF-8",
        "HOME": "/nonexistent",
    }
