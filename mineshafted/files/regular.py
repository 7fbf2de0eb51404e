"""Regular files: what ``stat`` calls one (not a folder, device, FIFO or socket), the only
kind the package reads (a FIFO would wait for a writer, a device may never end) or replaces.
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO, Final

from ..errors import InputError

__all__ = ["NOT_REGULAR", "PathText", "file_kind", "open_regular", "read_regular"]

PathText = str | os.PathLike[str]
"""A path as it is given: text or a ``Path``."""

NOT_REGULAR: Final = "not a regular file"
"""Why a device, a FIFO, a socket or a folder is neither read nor replaced (followed by what
it is: ``not a regular file (a FIFO)``)."""


def open_regular(path: PathText, *, hint: str = "") -> BinaryIO:
    """The regular file at ``path``, opened to read bytes; anything else refused unopened.

    The path is looked at first (a symbolic link to a regular file is followed), then opened
    without waiting (``O_NONBLOCK``: a FIFO put there meanwhile opens at once instead of
    waiting for a writer) and looked at again through what was opened, so no FIFO, device or
    folder is ever read, however the path changes in between.

    Parameters
    ----------
    path : str or PathLike
        The file.
    hint : str
        Put after the reason of a refusal for not being a regular file (what to do instead).

    Returns
    -------
    BinaryIO
        The file, open in blocking mode; the caller closes it.

    Raises
    ------
    InputError
        ``PATH: no such file``; ``PATH: is a directory, not a file to read``; ``PATH: not a
        regular file (a FIFO)`` (or a character device, a block device, a socket) and
        ``hint``; ``PATH: cannot read: <why>``.

    Examples
    --------
    >>> open_regular("/dev/null")
    Traceback (most recent call last):
    ...
    mineshafted.errors.InputError: /dev/null: not a regular file (a character device)

    Notes
    -----
    One ``stat``, one ``open``, one ``fstat``: ``O(1)``.
    """
    source = os.fspath(path)
    try:
        _check_readable(os.stat(source).st_mode, source, hint)
        fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise InputError("no such file", source=source) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}", source=source) from None
    try:
        _check_readable(os.fstat(fd).st_mode, source, hint)  # what was opened, not the name
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return open(fd, "rb")


def read_regular(path: PathText, *, limit: int, hint: str = "") -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises
    ------
    InputError
        As :func:`open_regular`; or ``PATH: larger than LIMIT bytes: not read past that cap``
        (the error's ``limit`` set), read no further than one byte past it.

    Examples
    --------
    >>> import os, tempfile
    >>> fifo = os.path.join(tempfile.mkdtemp(), "fifo")
    >>> os.mkfifo(fifo)
    >>> try:  # at once: no wait for a writer
    ...     read_regular(fifo, limit=100)
    ... except InputError as error:
    ...     print(error.source == fifo, error.reason)
    True not a regular file (a FIFO)

    Notes
    -----
    ``O(limit)`` time and memory at most, whatever the file's size.
    """
    source = os.fspath(path)
    with open_regular(source, hint=hint) as stream:
        try:
            data = stream.read(limit + 1)
        except OSError as error:
            raise InputError(f"cannot read: {error.strerror or error}", source=source) from None
    if len(data) > limit:
        raise InputError(
            f"larger than {limit:,} bytes: not read past that cap", source=source, limit=limit
        )
    return data


def file_kind(mode: int) -> str:
    """What a file of ``mode`` (an ``st_mode``) is, in words.

    Examples
    --------
    >>> file_kind(os.stat("/dev/null").st_mode), file_kind(os.stat(".").st_mode)
    ('a character device', 'a directory')
    """
    kinds = (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISLNK, "a symbolic link"),
    )
    return next((word for test, word in kinds if test(mode)), "not a file")


def _check_readable(mode: int, source: str, hint: str) -> None:
    """Refuse to read what is not a regular file."""
    if stat.S_ISDIR(mode):
        raise InputError("is a directory, not a file to read", source=source)
    if not stat.S_ISREG(mode):
        raise InputError(f"{NOT_REGULAR} ({file_kind(mode)}){hint}", source=source)
