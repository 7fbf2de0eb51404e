"""Targets: files written at a path given from outside, whole beside themselves and renamed
once whole, never over what may not be replaced; results files and output folders checked.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

from ..errors import TargetError
from .regular import NOT_REGULAR, PathText, file_kind

__all__ = ["EXISTS", "check_folder", "check_results", "check_target", "replacing", "write_whole"]

EXISTS: Final = "exists (use --force to replace it)"
"""Why an existing regular file is not replaced."""


def check_target(path: PathText, *, force: bool = False, inputs: Iterable[PathText] = ()) -> None:
    """Refuse a target that must not be written, before any work is done for it.

    Parameters
    ----------
    path : str or PathLike
        The target, as it was given (messages name it so).
    force : bool
        Whether an existing regular file may be replaced (``--force``).
    inputs : iterable of path-like
        Files read to make the target: a target that is one of them is refused, even with
        ``force`` (the input would be lost). ``-`` (standard input) and missing ones are
        skipped.

    Raises
    ------
    TargetError
        ``PATH: exists (use --force to replace it)``; ``PATH: not a regular file (a
        directory)`` (or a FIFO, a character device, a block device, a socket); ``PATH: a
        symbolic link (to WHERE), not followed: name the file itself``; ``PATH: the same file
        as the input INPUT: write to another``; ``PATH: <why it cannot be looked at>``.

    Examples
    --------
    >>> check_target("/dev/null", force=True)
    Traceback (most recent call last):
    ...
    mineshafted.errors.TargetError: /dev/null: not a regular file (a character device)

    Notes
    -----
    One ``lstat`` (and one ``stat`` per input): ``O(1)``. The target is looked at again when
    it is written (:func:`replacing`): what changed in between is caught there.
    """
    shown = os.fspath(path)
    mode = _own_mode(shown)
    if mode is None:
        return
    _refuse_odd(shown, mode)
    for source in inputs:
        if _same_file(shown, os.fspath(source)):
            raise TargetError(
                shown, f"the same file as the input {os.fspath(source)}: write to another"
            )
    if not force:
        raise TargetError(shown, EXISTS)


@contextmanager
def replacing(
    path: PathText, *, force: bool = False, inputs: Iterable[PathText] = ()
) -> Iterator[Path]:
    """Write a target whole or not at all: the block writes the file this yields, beside the
    target, which then takes the target's name.

    The target is checked first (:func:`check_target`). When the block ends, a target that
    did not exist is made by a link that fails if something took the name meanwhile (so a
    file made since is never overwritten without ``force``); one that exists is checked again
    and replaced by a rename. The new file has the mode a new file gets (``0o666`` less the
    umask), or the mode (and, as root, the owner) of the file it replaces.

    Parameters
    ----------
    path : str or PathLike
        The target.
    force : bool
        Whether an existing regular file may be replaced.
    inputs : iterable of path-like
        Files read to make the target, never replaced (see :func:`check_target`).

    Yields
    ------
    Path
        The file to write, in the target's folder (``.NAME.RANDOM.tmp``), created empty;
        write it by its path (any writer that takes a path will do).

    Raises
    ------
    TargetError
        A refusal of :func:`check_target`; a write in the block that failed (an ``OSError``
        naming no file, or naming the file yielded: ``PATH: No space left on device``, never
        the file beside it); a failed rename. Whatever the block raises, the file beside the
        target is removed and the target left as it was.

    Examples
    --------
    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "page.html"
    >>> with replacing(target) as beside:
    ...     _ = beside.write_text("<p>whole</p>")
    >>> target.read_text(), [p.name for p in target.parent.iterdir()]
    ('<p>whole</p>', ['page.html'])

    Notes
    -----
    Two looks at the target, one file created, one ``fsync`` and one link or rename:
    ``O(1)`` beyond the block's own writing.
    """
    shown = os.fspath(path)
    check_target(shown, force=force, inputs=inputs)
    fd, beside = _create_beside(shown)
    try:
        os.close(fd)
        try:
            yield beside
            _sync(beside)
        except OSError as error:
            if error.filename not in (None, os.fspath(beside)):
                raise  # a file the block read: its own error names it
            raise TargetError(shown, error.strerror or str(error)) from None
        _commit(beside, shown, force=force)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(beside)


def write_whole(
    path: PathText, data: bytes, *, force: bool = False, inputs: Iterable[PathText] = ()
) -> None:
    """Write ``data`` to the target ``path`` whole or not at all (:func:`replacing`).

    Raises
    ------
    TargetError
        As :func:`replacing`.

    Examples
    --------
    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "grades.csv"
    >>> write_whole(target, b"name,score\\n")
    >>> write_whole(target, b"again")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mineshafted.errors.TargetError: ...grades.csv: exists (use --force to replace it)
    """
    with replacing(path, force=force, inputs=inputs) as beside:
        beside.write_bytes(data)


def check_results(path: PathText) -> None:
    """Refuse a results file (appended to, resumed from) that is there but is not a regular
    file: a device, a FIFO (which would block), a folder, or a symbolic link (not followed).
    A missing one is fine: it is started.

    Raises
    ------
    TargetError
        One line naming ``path`` (see :func:`check_target`).
    """
    shown = os.fspath(path)
    mode = _own_mode(shown)
    if mode is not None:
        _refuse_odd(shown, mode)


def check_folder(path: PathText) -> None:
    """Refuse an output folder that is there but is not a folder (one reached through a
    symbolic link is a folder: the link is not replaced, only written into).

    Raises
    ------
    TargetError
        ``PATH: not a folder (a regular file)`` (or a FIFO, ...).
    """
    shown = os.fspath(path)
    try:
        mode = os.stat(shown).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise TargetError(shown, error.strerror or str(error)) from None
    if not stat.S_ISDIR(mode):
        raise TargetError(shown, f"not a folder ({file_kind(mode)})")


def _own_mode(path: str) -> int | None:
    """``path``'s own mode (a link's, not what it points to), ``None`` when nothing is there.

    Raises
    ------
    TargetError
        It cannot be looked at (a folder on the way that is a file, no permission).
    """
    try:
        return os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        raise TargetError(path, error.strerror or str(error)) from None


def _refuse_odd(path: str, mode: int) -> None:
    """Refuse to write what is not a regular file: a symbolic link, a folder, a device."""
    if stat.S_ISLNK(mode):
        try:
            to = os.readlink(path)
        except OSError:  # pragma: no cover - it was a link a moment ago
            to = "?"
        raise TargetError(path, f"a symbolic link (to {to}), not followed: name the file itself")
    if not stat.S_ISREG(mode):
        raise TargetError(path, f"{NOT_REGULAR} ({file_kind(mode)})")


def _same_file(target: str, source: str) -> bool:
    """Whether ``target`` and the input ``source`` are one file."""
    if source == "-":
        return False
    try:
        return os.path.samefile(target, source)
    except OSError:
        return False


def _create_beside(path: str) -> tuple[int, Path]:
    """A new empty file in ``path``'s folder, named for it, made by this process alone.

    Raises
    ------
    TargetError
        The folder is missing or cannot be written: one line naming ``path``.
    """
    target = Path(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for _ in range(100):
        beside = target.with_name(f".{target.name[:100]}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(beside, flags, 0o666), beside
        except FileExistsError:
            continue
        except FileNotFoundError:
            raise TargetError(path, f"no such folder: {target.parent}") from None
        except OSError as error:
            raise TargetError(path, error.strerror or str(error)) from None
    raise TargetError(path, "cannot make a file beside it")  # pragma: no cover - names taken


def _sync(path: Path) -> None:
    """Put what was written to ``path`` on the disk before it takes the target's name."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _commit(beside: Path, path: str, *, force: bool) -> None:
    """Give ``beside`` the target's name: by a link where nothing is there (failing if
    something took the name meanwhile), else, with ``force``, by a rename over a regular file
    checked again now.

    Raises
    ------
    TargetError
        One line naming ``path``: it is there now and not to be replaced, or cannot be.
    """
    try:
        os.link(beside, path, follow_symlinks=False)
        return
    except FileExistsError:
        pass
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EMLINK, errno.ENOSYS):
            raise TargetError(path, error.strerror or str(error)) from None
        # no hard links on this file system: check again, then rename
    check_target(path, force=force)
    _keep_mode(beside, path)
    try:
        os.replace(beside, path)
    except OSError as error:
        raise TargetError(path, error.strerror or str(error)) from None


def _keep_mode(beside: Path, path: str) -> None:
    """Give ``beside`` the mode, and where allowed the owner, of the file it replaces."""
    try:
        old = os.lstat(path)
    except FileNotFoundError:
        return
    os.chmod(beside, stat.S_IMODE(old.st_mode))
    with contextlib.suppress(OSError):  # only root may give a file away: fine if not
        if (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
            os.chown(beside, old.st_uid, old.st_gid)
