"""The errors of studies: a results file from another study, a missing extra, no scheduler."""

from __future__ import annotations

from pathlib import Path

from ..errors import MineshaftedError

__all__ = ["JournalError", "MissingExtraError", "SchedulerError", "StudyError"]


class StudyError(MineshaftedError):
    """A study cannot run as asked."""


class JournalError(StudyError, ValueError):
    """A results file (``--out``) that cannot be resumed: another study's, or malformed.

    Carries the file and, when one line is at fault, its number (counting from 1).
    """

    def __init__(self, message: str, *, path: Path, line: int | None = None) -> None:
        where = f"{path}, line {line}" if line is not None else str(path)
        super().__init__(f"{where}: {message}")
        self.path = path
        self.line = line


class MissingExtraError(StudyError, ImportError):
    """An optional dependency is not installed; the message says how to install it."""

    def __init__(self, message: str, *, extra: str) -> None:
        super().__init__(message)
        self.extra = extra


class SchedulerError(StudyError):
    """The Dask scheduler at ``address`` could not be reached or used."""

    def __init__(self, message: str, *, address: str) -> None:
        super().__init__(message)
        self.address = address
