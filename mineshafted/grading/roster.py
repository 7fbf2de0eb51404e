"""The roster: the students of a class run, found in a folder of submissions.

A folder of submissions holds one entry per student: a Python file (the student is its stem:
``alice.py`` is ``alice``) or a folder (the student is its name; the file graded is the one
``file`` names, or else the folder's only Python file). Every other entry is still a student,
with the reason it cannot be graded, so that no submission is dropped unseen: a file that
is not Python, two entries of one student (``alice.py`` and ``alice/``, or ``Alice.py``
and ``alice.py``, which are one name to a file system that ignores case), a symbolic link
(never followed), a file too big or that cannot be read. Hidden entries (``.name``) and
``__pycache__`` are not students.

Glossary
--------
student
    One row of the gradebook: a name, the file to grade or why there is none.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from .errors import GradingError, os_reason

__all__ = ["MAX_BYTES", "RosterError", "Student", "read_submission", "roster"]

MAX_BYTES = 1024 * 1024
"""The largest submission graded, in bytes: a solution is a few KiB."""

_SKIPPED = {"__pycache__"}


class RosterError(GradingError):
    """The folder of submissions cannot be graded at all (a run-level problem)."""


@dataclass(frozen=True)
class Student:
    """One student of the roster.

    Attributes
    ----------
    name:
        The student, as the folder names them.
    source:
        What the folder holds for them, relative to it (``alice.py``, ``bob/lab.py``,
        ``carol/``): how the gradebook names the submission.
    path:
        The file to grade (``None`` when there is none).
    problem:
        Why the student cannot be graded (``""`` when they can).
    """

    name: str
    source: str
    path: Path | None
    problem: str = ""


def roster(folder: Path, file_name: str | None = None) -> list[Student]:
    """The students in ``folder``, sorted by name.

    Parameters
    ----------
    folder:
        The folder of submissions.
    file_name:
        The file to grade in each student's folder; by default the folder's only ``.py``.

    Raises
    ------
    RosterError
        ``folder`` is missing, not a folder, unreadable, or holds no student.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     root = Path(tmp)
    ...     _ = (root / "ann.py").write_text("x = 1")
    ...     _ = (root / "bob.txt").write_text("x = 1")
    ...     [(s.name, s.source, s.problem) for s in roster(root)]
    [('ann', 'ann.py', ''), ('bob', 'bob.txt', 'bob.txt is not a Python file')]

    Notes
    -----
    O(entries), plus one ``stat`` per file in each student's folder.
    """
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except FileNotFoundError:
        raise RosterError(f"{folder}: no such folder of submissions") from None
    except NotADirectoryError:
        raise RosterError(
            f"{folder}: not a folder: --class takes a folder of submissions"
        ) from None
    except OSError as error:
        raise RosterError(f"{folder}: cannot be read: {os_reason(error)}") from None
    found: dict[str, list[Student]] = {}
    for entry in entries:
        if entry.name.startswith(".") or entry.name in _SKIPPED:
            continue
        student = _student(Path(folder), entry, file_name)
        found.setdefault(student.name.casefold(), []).append(student)
    if not found:
        raise RosterError(f"{folder}: no submissions in it (one .py file or folder per student)")
    students = []
    for same in found.values():
        if len(same) == 1:
            students.append(same[0])
        else:
            sources = " and ".join(s.source for s in same)
            problem = f"{len(same)} submissions of one name: {sources} (rename all but one)"
            students.append(Student(same[0].name, sources, None, problem))
    return sorted(students, key=lambda s: s.name)


def read_submission(path: Path) -> tuple[bytes, str]:
    """The bytes of a submission and their SHA-256, read without following a link (and
    without waiting on a FIFO: it is opened without blocking, and read only if regular).

    Raises
    ------
    OSError
        It cannot be opened or read, or is not a regular file.
    ValueError
        It is larger than :data:`MAX_BYTES`.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    with open(fd, "rb") as file:
        found = os.fstat(file.fileno())
        if not stat.S_ISREG(found.st_mode):
            raise OSError(f"{path} is not a regular file")
        data = file.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(f"over the {MAX_BYTES // 1024} KiB a submission may have")
    return data, hashlib.sha256(data).hexdigest()


def _student(folder: Path, entry: os.DirEntry[str], file_name: str | None) -> Student:
    """The student one entry of the folder is."""
    name = entry.name
    if entry.is_symlink():
        stem = name.removesuffix(".py")
        return Student(stem, name, None, f"{name} is a symbolic link: links are not followed")
    if entry.is_dir(follow_symlinks=False):
        return _folder_student(folder / name, name, file_name)
    stem, suffix = os.path.splitext(name)
    if not entry.is_file(follow_symlinks=False):
        return Student(stem or name, name, None, f"{name} is not a regular file")
    if suffix != ".py":
        return Student(stem or name, name, None, f"{name} is not a Python file")
    return _checked(Student(stem, name, folder / name))


def _folder_student(path: Path, name: str, file_name: str | None) -> Student:
    """The student of a folder: the file ``file_name`` in it, or its only ``.py`` file."""
    if file_name is not None:
        chosen = path / file_name
        if not chosen.exists() and not chosen.is_symlink():
            return Student(name, f"{name}/", None, f"{name}/ has no {file_name}")
        return _checked(Student(name, f"{name}/{file_name}", chosen))
    try:
        files = sorted(
            entry.name
            for entry in os.scandir(path)
            if entry.name.endswith(".py") and not entry.name.startswith(".")
        )
    except OSError as error:
        return Student(name, f"{name}/", None, f"{name}/ cannot be read: {os_reason(error)}")
    if not files:
        return Student(name, f"{name}/", None, f"{name}/ holds no Python file")
    if len(files) > 1:
        shown = ", ".join(files)
        problem = f"{name}/ holds several Python files ({shown}): name one with --file NAME"
        return Student(name, f"{name}/", None, problem)
    return _checked(Student(name, f"{name}/{files[0]}", path / files[0]))


def _checked(student: Student) -> Student:
    """``student``, or the same with the reason its file cannot be read."""
    assert student.path is not None
    try:
        read_submission(student.path)
    except ValueError as error:
        return Student(student.name, student.source, None, f"{student.source} is {error}")
    except OSError as error:
        if student.path.is_symlink():
            problem = f"{student.source} is a symbolic link: links are not followed"
        elif isinstance(error, (FileNotFoundError, PermissionError)) or error.errno:
            problem = f"{student.source} cannot be read: {os_reason(error)}"
        else:
            problem = f"{student.source} is not a regular file"
        return Student(student.name, student.source, None, problem)
    return student
