"""Reading input and writing output: a file, a device, a pipe or standard input, read within a
byte cap (whole, or a line at a time), and standard output written to its end."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..files import open_regular, read_regular

__all__ = ["MAX_FILE_BYTES", "STDIN", "origin", "read_bytes", "read_lines", "read_text", "writing"]

MAX_FILE_BYTES = 64 * 1024 * 1024
"""The most bytes read from one input (a file, a device, a pipe or standard input)."""

STDIN = "-"
"""The path that names standard input."""


def read_text(path: str | Path, *, limit: int | None = None) -> str:
    """The UTF-8 text of the file at ``path`` (``-``: standard input), at most ``limit`` bytes.

    Only a regular file is opened (:func:`mineshafted.files.open_regular`): a FIFO would wait
    for a writer, a device may never end. Standard input, whatever it is, is read to at most
    ``limit + 1`` bytes: one more than the cap shows the input is too large.

    Parameters
    ----------
    path : str or Path
        The file to read, or :data:`STDIN`.
    limit : int, optional
        The byte cap; by default :data:`MAX_FILE_BYTES`.

    Returns
    -------
    str
        The whole text.

    Raises
    ------
    InputError
        The file is missing, is a directory or anything else that is not a regular file,
        cannot be read, holds more than ``limit`` bytes, or is not UTF-8. The message starts
        with the file's name, or ``<stdin>``.

    Examples
    --------
    >>> read_text("/dev/zero", limit=8)
    Traceback (most recent call last):
    ...
    mineshafted.errors.InputError: /dev/zero: not a regular file (a character device); give \
'-' to read standard input

    Notes
    -----
    Costs ``O(limit)`` time and memory at most, whatever the input's size.
    """
    data = read_bytes(path, limit=limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start})", source=origin(path)) from None


@contextmanager
def writing(path: str | Path) -> Iterator[None]:
    """Name ``path`` in an ``OSError`` raised in the block without a file name.

    Opening a file that cannot be opened names it; a write that fails later (a full disk, a
    device that refuses it) does not: in the block, such an error is raised again with
    ``path`` as its file name, so a message can say which file could not be written.

    Examples
    --------
    >>> with writing("/dev/full"):
    ...     raise OSError(28, "No space left on device")
    Traceback (most recent call last):
    ...
    OSError: [Errno 28] No space left on device: '/dev/full'
    """
    try:
        yield
    except OSError as error:
        if error.filename is not None or isinstance(error, BrokenPipeError):
            raise
        raise OSError(error.errno, error.strerror or str(error), str(path)) from error


def read_bytes(path: str | Path, *, limit: int | None = None) -> bytes:
    """The bytes of the file at ``path`` (``-``: standard input), at most ``limit`` of them.

    A regular file alone is opened (:func:`mineshafted.files.read_regular`), and read no
    further than one byte past the cap; standard input is read the same, whatever it is (a
    pipe, a terminal).

    Raises
    ------
    InputError
        As :func:`read_text`, but for the encoding.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> fifo = os.path.join(folder, "fifo")
    >>> os.mkfifo(fifo)
    >>> try:  # at once: no wait for a writer
    ...     read_bytes(fifo)
    ... except InputError as error:
    ...     print(error.source == fifo, error.reason)
    True not a regular file (a FIFO); give '-' to read standard input
    """
    cap = MAX_FILE_BYTES if limit is None else limit
    if str(path) != STDIN:
        return read_regular(path, limit=cap, hint="; give '-' to read standard input")
    try:
        data: bytes = sys.stdin.buffer.read(cap + 1)
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", source="<stdin>") from None
    if len(data) > cap:
        raise InputError(
            f"larger than {cap:,} bytes: not read past that cap", source="<stdin>", limit=cap
        )
    return data


def read_lines(path: str | Path, *, limit: int | None = None) -> Iterator[tuple[int, str]]:
    """The lines of the regular file at ``path``, one at a time: each numbered from 1, with its
    line break, at most ``limit`` bytes.

    Only a regular file is read (one that can be read again the same: a device, a pipe or
    standard input cannot), a line at a time, so the file may be of any size.

    Parameters
    ----------
    path : str or Path
        The file.
    limit : int, optional
        The byte cap of one line; by default :data:`MAX_FILE_BYTES`.

    Yields
    ------
    tuple of int and str
        The line's number and its text.

    Raises
    ------
    InputError
        The file is missing, not a regular file, cannot be read, or a line holds more than
        ``limit`` bytes or is not UTF-8. The message starts with the file's name, and names
        the line at fault.

    Examples
    --------
    >>> list(read_lines("/dev/zero"))
    Traceback (most recent call last):
    ...
    mineshafted.errors.InputError: /dev/zero: not a regular file (a character device): lines \
are read from a file

    Notes
    -----
    Holds one line at a time: ``O(limit)`` memory at most, whatever the file's size.
    """
    cap = MAX_FILE_BYTES if limit is None else limit
    source = origin(path)
    if str(path) == STDIN:
        raise InputError("not a regular file: lines are read from a file", source=source)
    stream = open_regular(path, hint=": lines are read from a file")
    with stream:
        number = 0
        while data := _read_line(stream, source, number + 1, cap):
            number += 1
            if len(data) > cap + data.endswith(b"\n"):
                raise InputError(
                    f"line {number}: longer than {cap:,} bytes: not read past that cap",
                    source=source,
                    limit=cap,
                )
            try:
                yield number, data.decode("utf-8")
            except UnicodeDecodeError as error:
                raise InputError(
                    f"line {number}: not UTF-8 text (byte {error.start})", source=source
                ) from None


def _read_line(stream: Any, source: str, number: int, cap: int) -> bytes:
    """Line ``number`` of ``stream``, at most ``cap + 1`` bytes (one more shows it is too long).

    Raises
    ------
    InputError
        The read fails.
    """
    try:
        data: bytes = stream.readline(cap + 1)
    except OSError as error:
        raise InputError(f"line {number}: cannot read: {error.strerror}", source=source) from None
    return data


def origin(path: str | Path) -> str:
    """How errors name ``path``: its own name, or ``<stdin>`` for :data:`STDIN`."""
    return "<stdin>" if str(path) == STDIN else str(path)
