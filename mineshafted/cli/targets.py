"""Targets: the files a command writes (``--out``, ``--record``), each through one guard.

Glossary
--------
target
    A file a command writes at a path it was given. An existing target is replaced only when
    the command was told to (``--force``), and only when it is a regular file: a device, a
    FIFO, a socket or a directory is refused, and so is a symbolic link (it is not followed).
    What is written goes to a file beside the target and takes its name only once it is
    whole, so a failure leaves the target as it was and nothing half-written behind.
results file
    A target a command appends to and resumes from (``play --out``, an experiment's
    ``STUDY.jsonl``): it may exist, but only as a regular file.
output folder
    A folder a command writes its targets into (``generate --out``, ``experiment --out``):
    it may exist, but only as a folder.

Every refusal is one line on stderr naming the path, exit status 2
(:func:`~mineshafted.cli.output.fail`): ``PATH: exists (use --force to replace it)``, ``PATH:
not a regular file (a FIFO)``.
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

from .output import fail

__all__ = ["check_folder", "check_results", "check_target", "replacing"]

PathText = str | os.PathLike[str]
"""A path as a command takes it: text or a ``Path``."""


def check_target(path: PathText, *, force: bool = False, inputs: Iterable[PathText] = ()) -> None:
    """Refuse a target that cannot be written, before any work is done for it.

    Parameters
    ----------
    path : str or PathLike
        The target, as the command line gave it (messages name it so).
    force : bool
        Whether an existing regular file may be replaced (the command's ``--force``).
    inputs : iterable of path-like
        Files the command reads: a target that is one of them is refused, even with ``force``
        (the input would be lost). ``-`` (standard input) and missing ones are skipped.

    Raises
    ------
    typer.Exit
        Through :func:`~mineshafted.cli.output.fail`, status 2, with one line: ``PATH: exists
        (use --force to replace it)``; ``PATH: not a regular file (a directory)`` (or a FIFO,
        a character device, a block device, a socket); ``PATH: a symbolic link (to TARGET),
        not followed: name the file itself``; ``PATH: the same file as the input INPUT: write
        to another``.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_target(folder / "new.html")  # nothing there: fine
    >>> check_target(folder)
    Traceback (most recent call last):
    ...
    typer.exceptions.Exit: 2

    Notes
    -----
    One ``lstat`` (and one ``stat`` per input): ``O(1)``. The target is looked at again when
    it is written (:func:`replacing`): what changed in between is caught there.
    """
    shown = os.fspath(path)
    mode = _mode(shown)
    if mode is None:
        return
    _refuse_odd(shown, mode)
    for source in inputs:
        if _same_file(shown, os.fspath(source)):
            fail(f"{shown}: the same file as the input {os.fspath(source)}: write to another")
    if not force:
        fail(f"{shown}: exists (use --force to replace it)")


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
        Files the command reads, never replaced (see :func:`check_target`).

    Yields
    ------
    Path
        The file to write, in the target's folder (``.NAME.RANDOM.tmp``), created empty;
        write it by its path (any writer that takes a path will do).

    Raises
    ------
    typer.Exit
        Status 2 with one line naming ``path``: a refusal of :func:`check_target`; a write
        in the block that failed (an ``OSError`` naming no file, or naming the file yielded:
        ``PATH: No space left on device``), or a failed rename. Whatever the block raises, the
        file beside the target is removed and the target left as it was.

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
                raise  # a file the block read: the caller names it
            fail(f"{shown}: {error.strerror or error}")
        _commit(beside, shown, force=force)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(beside)


def check_results(path: PathText) -> None:
    """Refuse a results file (appended to, resumed from) that is there but is not a regular
    file: a device, a FIFO (which would block), a directory, or a symbolic link (not
    followed). A missing one is fine: it is started.

    Raises
    ------
    typer.Exit
        Status 2, one line naming ``path`` (see :func:`check_target`).
    """
    shown = os.fspath(path)
    mode = _mode(shown)
    if mode is not None:
        _refuse_odd(shown, mode)


def check_folder(path: PathText) -> None:
    """Refuse an output folder that is there but is not a folder (one reached through a
    symbolic link is a folder: the link is not replaced, only written into).

    Raises
    ------
    typer.Exit
        Status 2, ``PATH: not a folder (a regular file)`` (or a FIFO, ...).
    """
    shown = os.fspath(path)
    try:
        mode = os.stat(shown).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        fail(f"{shown}: {error.strerror or error}")
    if not stat.S_ISDIR(mode):
        fail(f"{shown}: not a folder ({_kind(mode)})")


def _mode(path: str) -> int | None:
    """``path``'s own mode (a link's, not what it points to), ``None`` when nothing is there.

    Raises
    ------
    typer.Exit
        It cannot be looked at (a folder on the way that is a file, no permission).
    """
    try:
        return os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        fail(f"{path}: {error.strerror or error}")


def _refuse_odd(path: str, mode: int) -> None:
    """Refuse what is not a regular file: a symbolic link, a folder, a device, a FIFO."""
    if stat.S_ISLNK(mode):
        try:
            to = os.readlink(path)
        except OSError:  # pragma: no cover - it was a link a moment ago
            to = "?"
        fail(f"{path}: a symbolic link (to {to}), not followed: name the file itself")
    if not stat.S_ISREG(mode):
        fail(f"{path}: not a regular file ({_kind(mode)})")


def _kind(mode: int) -> str:
    """What a file of ``mode`` is, in words."""
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
    typer.Exit
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
            fail(f"{path}: no such folder: {target.parent}")
        except OSError as error:
            fail(f"{path}: {error.strerror or error}")
    fail(f"{path}: cannot make a file beside it")  # pragma: no cover - 100 names taken


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
    typer.Exit
        One line naming ``path``: it is there now and not to be replaced, or cannot be.
    """
    try:
        os.link(beside, path, follow_symlinks=False)
        return
    except FileExistsError:
        pass
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EMLINK, errno.ENOSYS):
            fail(f"{path}: {error.strerror or error}")
        # no hard links here: check, then rename
    check_target(path, force=force)
    _keep_mode(beside, path)
    try:
        os.replace(beside, path)
    except OSError as error:
        fail(f"{path}: {error.strerror or error}")


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
