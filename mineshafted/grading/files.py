"""The instructor's files: read only when regular and bounded, written only where allowed.

Every file the grader reads for the instructor (a run's ``run.json``, a student's kept grade,
an autograder's settings, a starter, a key) is opened without blocking and read only if it is
a regular file: a FIFO or a device named by mistake is one line, never a wait for a writer.
A JSON file is read to at most :data:`MAX_JSON_BYTES`, with the JSON standard's numbers only
(``Infinity`` and ``NaN`` are refused) and nesting bounded by the parser.

Every file it writes for the instructor (``--out``, ``--log``, ``--save-key``, a platform's
``results.json``) is checked first by :func:`check_output`: a path that exists and is not a
regular file (a device such as ``/dev/full``, a FIFO, a folder, a symbolic link) is refused;
an existing regular file is replaced only when asked (``--force``), and never when it is the
submission being graded; the new file is written beside it and renamed into place
(:func:`write_atomically`), so nothing is left half-written.

Glossary
--------
regular file
    What ``lstat`` calls one: not a folder, link, device, FIFO or socket.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .errors import GraderFileError, os_reason

__all__ = [
    "EXISTS",
    "MAX_JSON_BYTES",
    "NOT_REGULAR",
    "check_output",
    "read_json",
    "read_regular",
    "read_starter",
    "write_atomically",
]

MAX_JSON_BYTES = 16 * 1024 * 1024
"""The largest JSON file read: a student's kept grade is tens of KiB, a run's state less."""

EXISTS = "exists (use --force to replace it)"
"""Why an existing regular file is not replaced (the wording every command uses)."""

NOT_REGULAR = "not a regular file"
"""Why a path that names a device, a FIFO, a folder or a link is neither read nor replaced."""


def read_regular(path: Path, limit: int, *, follow: bool = True) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    The file is opened without blocking (a FIFO with no writer does not hold the grader up)
    and read only once ``fstat`` says it is a regular file.

    Parameters
    ----------
    follow:
        Follow a symbolic link at ``path`` (``False``: a link is refused).

    Raises
    ------
    GraderFileError
        It is missing, not a regular file, unreadable, or larger than ``limit`` bytes.

    Notes
    -----
    O(``limit``) at most.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise GraderFileError(path, "no such file") from None
    except OSError as error:
        if error.errno is not None and not follow and os.path.islink(path):
            raise GraderFileError(path, f"{NOT_REGULAR} (a symbolic link)") from None
        raise GraderFileError(path, f"cannot be read: {os_reason(error)}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise GraderFileError(path, NOT_REGULAR)
    with open(fd, "rb") as file:
        try:
            data = file.read(limit + 1)
        except OSError as error:
            raise GraderFileError(path, f"cannot be read: {os_reason(error)}") from None
    if len(data) > limit:
        raise GraderFileError(path, f"larger than the {_size(limit)} it may be")
    return data


def read_json(path: Path, what: str, *, limit: int = MAX_JSON_BYTES) -> Any:
    """The JSON value in the regular file ``path``.

    Parameters
    ----------
    what:
        What the file should be, for the error: ``"a class run's state"``.

    Raises
    ------
    GraderFileError
        It cannot be read (:func:`read_regular`), or is not JSON: not UTF-8, a number the
        JSON standard does not have (``Infinity``, ``NaN``), an integer of thousands of
        digits, or nesting too deep for the parser. The message names the file and says
        why in one line.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder, "x.json")
    ...     _ = path.write_text('{"memory_mb": Infinity}')
    ...     try:
    ...         read_json(path, "settings")
    ...     except GraderFileError as error:
    ...         print(error.reason)
    not settings: not JSON: Infinity is not a JSON number
    """
    data = read_regular(path, limit)
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        reason = "not JSON that can be read: nested too deeply"
    except UnicodeDecodeError:
        reason = "not JSON: not UTF-8 text"
    except ValueError as error:  # JSONDecodeError, a constant, an integer too long
        reason = f"not JSON: {error}"
    raise GraderFileError(path, f"not {what}: {reason}")


def check_output(path: Path, *, force: bool, protect: Iterable[Path] = ()) -> None:
    """Refuse an output path that must not be written (checked before any work is done).

    Parameters
    ----------
    force:
        Replace an existing regular file (``--force``).
    protect:
        Files never replaced, even with ``force`` (the submission being graded).

    Raises
    ------
    GraderFileError
        ``path`` exists and is not a regular file (``PATH: not a regular file``), is a
        protected file, or exists without ``force`` (``PATH: exists (use --force to replace
        it)``); or its folder is missing.

    Examples
    --------
    >>> try:
    ...     check_output(Path("/dev/null"), force=True)
    ... except GraderFileError as error:
    ...     print(error)
    /dev/null: not a regular file
    """
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        if not path.parent.is_dir():
            raise GraderFileError(path, f"cannot be written: no folder {path.parent}") from None
        return
    except OSError as error:
        raise GraderFileError(path, f"cannot be written: {os_reason(error)}") from None
    if stat.S_ISLNK(found.st_mode):
        raise GraderFileError(path, f"{NOT_REGULAR} (a symbolic link: never written through)")
    if stat.S_ISDIR(found.st_mode):
        raise GraderFileError(path, f"{NOT_REGULAR} (a folder)")
    if not stat.S_ISREG(found.st_mode):
        raise GraderFileError(path, NOT_REGULAR)
    for kept in protect:
        with contextlib.suppress(OSError):
            if os.path.samefile(path, kept):
                raise GraderFileError(path, "is the submission: it is never replaced")
    if not force:
        raise GraderFileError(path, EXISTS)


def read_starter(path: Path) -> bytes:
    """The starter code (``--starter``): a regular file of at most a submission's size.

    Raises
    ------
    GraderFileError
        It cannot be read as the starter code (one line: missing, a FIFO, too big, ...).
    """
    from .roster import MAX_BYTES

    try:
        return read_regular(path, MAX_BYTES)
    except GraderFileError as error:
        raise GraderFileError(path, f"cannot be read as the starter code: {error.reason}") from None


def write_atomically(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write ``path`` whole or not at all: a file beside it, flushed to disk, then renamed.

    Raises
    ------
    OSError
        It could not be written (what was written beside it is removed); the error names
        ``path``, never the file beside it.
    """
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(path)) from None
    try:
        with open(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise OSError(error.errno, error.strerror, str(path)) from None
        raise


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _size(limit: int) -> str:
    """A byte count as people say it: ``16 MiB``, ``1024 KiB``, ``100 bytes``."""
    for unit, scale in (("MiB", 1024 * 1024), ("KiB", 1024)):
        if limit >= scale and limit % scale == 0:
            return f"{limit // scale} {unit}"
    return f"{limit} bytes"
