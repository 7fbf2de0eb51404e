"""The errors of studies: bad arguments, a boards file that cannot be played, a results file
from another study, a missing extra, no scheduler. ``except StudyError`` catches every one."""

from __future__ import annotations

from pathlib import Path

from ..errors import MineshaftedError

__all__ = ["BoardsError", "JournalError", "MissingExtraError", "SchedulerError", "StudyError"]


class StudyError(MineshaftedError, ValueError):
    """A study cannot run as asked; the message names the argument or file at fault."""


class JournalError(StudyError):
    """A results file that cannot be resumed: another study's, or malformed.

    Carries the file and, when one line is at fault, its number (counting from 1).
    """

    def __init__(self, message: str, *, path: Path, line: int | None = None) -> None:
        where = f"{path}, line {line}" if line is not None else str(path)
        super().__init__(f"{where}: {message}")
        self.path = path
        self.line = line


class BoardsError(StudyError):
    """A boards file that cannot be played: unreadable, empty, or a line that is not a board
    to play as asked. The message starts with the file and, when one line is at fault, names
    it (``boards.jsonl: line 3: ...``), which :attr:`line` holds too.
    """

    def __init__(self, message: str, *, path: Path, line: int | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.line = line


class MissingExtraError(StudyError, ImportError):
    """An optional extra of the package is not installed; the message says how to install it.

    Examples
    --------
    >>> print(MissingExtraError("plots", package="matplotlib", needed_by="the figure"))
    the figure needs matplotlib, which is not installed: pip install 'mineshafted[plots]'
    """

    def __init__(self, extra: str, *, package: str, needed_by: str) -> None:
        super().__init__(
            f"{needed_by} needs {package}, which is not installed: "
            f"pip install 'mineshafted[{extra}]'"
        )
        self.extra = extra
        """The extra to install, e.g. ``dask``."""


class SchedulerError(StudyError):
    """The Dask scheduler at ``address`` could not be reached or used."""

    def __init__(self, message: str, *, address: str) -> None:
        super().__init__(message)
        self.address = address
