"""The grading log: what a submission printed, board by board, and the file it is written to.

Each board's section begins with a header line that only the grader writes (``== LABEL:
OUTCOME; printed N bytes in M lines ==``), and every line the submission printed follows it
behind ``| ``: no line the submission prints can begin a section, and the header says how
many lines follow. Control characters but the tab are written as escapes (:mod:`mineshafted.text`).

The file is opened before the grading and written after it, so nothing planted at its path
while boards are played can redirect it: a new file is created exclusively (never through a
symbolic link, even one to nowhere); with ``force``, an existing regular file is replaced
atomically by a file written beside it (a link planted meanwhile is replaced, not followed).
A path that is not a regular file (a device such as ``/dev/full``, a FIFO, a folder, a link)
is refused, and so is the submission itself, as every target is
(:func:`mineshafted.files.check_target`).

Glossary
--------
section
    One board's header and the lines its submission printed.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

from ..files import EXISTS, check_target
from ..text import visible
from .errors import GraderFileError, os_reason
from .result import BoardResult, GradeReport

__all__ = ["LINE_PREFIX", "LogFile", "log_text", "section"]

LINE_PREFIX = "| "
"""What begins each line the submission printed (``|`` alone for an empty line)."""

_KEEP = "\t"
"""The control character a submission's output keeps in the log; its newlines end lines."""

_MODE = 0o600
"""The log's permissions: what students printed is the instructor's to read."""


def section(board: BoardResult) -> str:
    """One board's header and its submission's output, each line prefixed, ending in a newline.

    Examples
    --------
    >>> from mineshafted.grading import Verdict
    >>> result = BoardResult("4x4-1-1", 4, 4, 1, Verdict.SOLVED, 15, 0.1,
    ...                      output="hi\\n== x ==\\n", output_bytes=11, output_kept=11)
    >>> print(section(result), end="")
    == 4x4-1-1: solved; printed 11 bytes in 2 lines ==
    | hi
    | == x ==
    """
    lines = board.output.split("\n")
    if lines[-1] == "":
        lines.pop()
    printed = f"printed {_count(board.output_bytes, 'byte')}"
    if board.output_kept < board.output_bytes:
        printed += f" (the first {board.output_kept} kept)"
    told = f"{printed} in {_count(len(lines), 'line')}" if board.output_bytes else "printed nothing"
    header = f"== {visible(board.puzzle)}: {board.outcome.value}; {told} =="
    shown = [LINE_PREFIX + visible(line, keep=_KEEP) if line else "|" for line in lines]
    return "\n".join([header, *shown]) + "\n"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' * (number != 1)}"


def log_text(report: GradeReport) -> str:
    """The whole log: a title line naming the submission, then each board's section."""
    title = (
        f"# what {visible(report.submission)} printed: a header per board, then each line it "
        f"printed after '{LINE_PREFIX}'\n"
    )
    return title + "".join(section(board) for board in report.boards)


class LogFile:
    """A log file, opened (or its place taken) before grading and written once after it.

    Parameters
    ----------
    path:
        Where the log goes.
    force:
        Replace an existing regular file.
    protect:
        Files never replaced, even with ``force`` (the submission graded).

    Raises
    ------
    TargetError
        ``path`` is not a regular file (a link, a folder, a device, a FIFO), exists without
        ``force``, or is protected (:func:`mineshafted.files.check_target`).
    GraderFileError
        It cannot be created (one phrase).

    Notes
    -----
    Use it as a context manager: leaving it without :meth:`write` removes what it created.
    """

    def __init__(self, path: Path, *, force: bool, protect: Iterable[Path] = ()) -> None:
        self.path = path
        self._temporary: str | None = None
        self._created = False
        check_target(path, force=force, inputs=protect)
        self._fd = self._beside() if os.path.lexists(path) else self._create()

    def _create(self) -> int:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            fd = os.open(self.path, flags, _MODE)
        except FileExistsError:
            raise self._error(EXISTS) from None
        except OSError as error:
            raise self._error(f"cannot write the log: {os_reason(error)}") from None
        self._created = True
        return fd

    def _beside(self) -> int:
        folder = self.path.parent
        try:
            fd, self._temporary = tempfile.mkstemp(
                prefix=f".{self.path.name}.", suffix=".tmp", dir=folder
            )
        except OSError as error:
            raise self._error(f"cannot write the log: {os_reason(error)}") from None
        return fd

    def write(self, text: str) -> None:
        """Write ``text`` (UTF-8) and close the file; a replacement takes the log's place.

        Raises
        ------
        GraderFileError
            The write failed (a full disk, say): what this created is removed, and a file
            being replaced is left as it was.
        """
        data = memoryview(text.encode("utf-8"))
        try:
            while data:
                data = data[os.write(self._fd, data) :]
            if self._temporary is not None or self._created:
                os.fsync(self._fd)
        except OSError as error:
            self._discard()
            raise self._error(f"cannot write the log: {os_reason(error)}") from None
        self._close()
        if self._temporary is not None:
            try:
                os.replace(self._temporary, self.path)
            except OSError as error:
                self._discard()
                raise self._error(f"cannot write the log: {os_reason(error)}") from None
            self._temporary = None
        self._created = False

    def _close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _discard(self) -> None:
        """Close, and remove what this created: the temporary file, or the new log if it is
        still the file this opened."""
        created = os.fstat(self._fd) if self._created and self._fd >= 0 else None
        self._close()
        if self._temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._temporary)
            self._temporary = None
        if created is not None:
            with contextlib.suppress(OSError):
                now = os.lstat(self.path)
                if (now.st_dev, now.st_ino) == (created.st_dev, created.st_ino):
                    os.unlink(self.path)
        self._created = False

    def _error(self, reason: str) -> GraderFileError:
        return GraderFileError(self.path, reason)

    def __enter__(self) -> LogFile:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._fd >= 0:
            self._discard()
