"""The instructor's files as grading reads and writes them, through :mod:`mineshafted.files`.

Reading: a JSON file (a run's ``run.json``, a student's kept grade, an autograder's settings,
Gradescope's metadata) and the starter are read only when regular, to a cap
(:func:`mineshafted.files.read_regular`: a FIFO named by mistake is one line, never a wait for
a writer); a JSON file then with the JSON standard's numbers only (``Infinity`` and ``NaN`` are
refused) and nesting bounded by the parser (:func:`read_json`, grading's own: the package's
other readers read puzzles and records, not JSON objects of settings).

Writing: every file grading writes goes through the one guard of targets
(:func:`mineshafted.files.check_target` and :func:`~mineshafted.files.replacing`): a device, a
FIFO, a folder or a symbolic link is never written, an existing file only when asked, an
input (the submission graded) never, and what is written takes the target's name only once it
is whole. :func:`write_atomically` is that guard with a file mode (a key is its owner's alone).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..files import read_regular, replacing
from .errors import GraderFileError

__all__ = ["MAX_JSON_BYTES", "read_json", "read_starter", "write_atomically"]

MAX_JSON_BYTES = 16 * 1024 * 1024
"""The largest JSON file read: a student's kept grade is tens of KiB, a run's state less."""


def read_json(path: Path, what: str, *, limit: int = MAX_JSON_BYTES) -> Any:
    """The JSON value in the regular file ``path``.

    Parameters
    ----------
    what:
        What the file should be, for the error: ``"a class run's state"``.

    Raises
    ------
    GraderFileError
        It cannot be read (missing, not a regular file, past ``limit`` bytes: the reason
        :func:`mineshafted.files.read_regular` gives), or is not JSON: not UTF-8, a number the
        JSON standard does not have (``Infinity``, ``NaN``), an integer of thousands of
        digits, or nesting too deep for the parser. The message names the file and says why
        in one line.

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

    Notes
    -----
    O(``limit``) at most: the file is read to the cap, then parsed once.
    """
    data = _read(path, limit)
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        reason = "not JSON that can be read: nested too deeply"
    except UnicodeDecodeError:
        reason = "not JSON: not UTF-8 text"
    except ValueError as error:  # JSONDecodeError, a constant, an integer too long
        reason = f"not JSON: {error}"
    raise GraderFileError(path, f"not {what}: {reason}")


def read_starter(path: Path) -> bytes:
    """The starter code (``--starter``): a regular file of at most a submission's size.

    Raises
    ------
    GraderFileError
        It cannot be read as the starter code (one line: missing, a FIFO, too big, ...).
    """
    from .roster import MAX_BYTES

    return _read(path, MAX_BYTES, "cannot be read as the starter code: ")


def write_atomically(
    path: Path,
    data: bytes,
    mode: int | None = None,
    *,
    force: bool = True,
    inputs: Iterable[Path] = (),
) -> None:
    """Write ``path`` whole or not at all, through the guard of targets
    (:func:`mineshafted.files.replacing`), with ``mode`` if given (else a new file's, or that
    of the file it replaces).

    Parameters
    ----------
    force:
        Replace an existing regular file (the run folder's own files: yes; a file the
        instructor named: only with ``--force``).
    inputs:
        Files never replaced (the submission graded).

    Raises
    ------
    TargetError
        It may not be written (a device, a FIFO, a folder, a link, an existing file without
        ``force``, an input), or could not be (the target is left as it was); one line
        naming ``path``.
    """
    with replacing(path, force=force, inputs=inputs) as beside:
        beside.write_bytes(data)
        if mode is not None:
            os.chmod(beside, mode)
    if mode is not None:
        os.chmod(path, mode)  # the mode of a file it replaced was kept: this one's is wanted


def _read(path: Path, limit: int, prefix: str = "") -> bytes:
    """The regular file's bytes, up to ``limit``; a refusal as a :class:`GraderFileError`."""
    try:
        return read_regular(path, limit=limit)
    except InputError as error:
        raise GraderFileError(path, f"{prefix}{error.reason}") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
