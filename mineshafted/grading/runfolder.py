"""A class run's folder: everything the run knows, so that an interrupted run goes on.

- ``run.json``: the board set's name, where its key is, the grading options
  (:class:`~.options.GradeOptions`), and whether the run has finished;
- ``board.key``: the run's fresh key (mode 0600), unless ``--key`` gave one (then the run
  records that file's path and never copies it);
- ``results/NAME.json``: each student's grade (:class:`~.student.StudentGrade`), written
  atomically the moment the student is finished, with the SHA-256 of the file graded;
- ``feedback/NAME.md`` and ``.html``, also as each student finishes;
- ``grades.csv`` and ``grades.json``, the gradebook.

Every file is read through a checked model (:func:`~.files.read_json`, then
:meth:`GradeOptions.from_json <.options.GradeOptions.from_json>` or
:meth:`StudentGrade.from_json <.student.StudentGrade.from_json>`): a damaged ``run.json`` is
one line naming it; a damaged student's result is set aside and that student graded again.
Every file is written whole or not at all, and only where the path holds a regular file or
nothing (:func:`~.files.write_atomically`, through :mod:`mineshafted.files`' guard).

Glossary
--------
run folder
    The folder of one class run (``--out``).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import TargetError
from ..files import check_folder
from .errors import GraderFileError, GradingError, os_reason
from .files import read_json, write_atomically
from .key import BoardKey, BoardSet
from .options import GradeOptions, GradeOptionsError
from .student import StudentGrade

__all__ = [
    "FEEDBACK",
    "KEY_FILE",
    "RESULTS",
    "RUN_FILE",
    "ClassRunError",
    "Damaged",
    "RunFolder",
    "file_stem",
]

RUN_FILE = "run.json"
KEY_FILE = "board.key"
RESULTS = "results"
FEEDBACK = "feedback"

_FORMAT = "mineshafted-class-run"
_VERSION = 1
_BOARD_SET = re.compile(r"[0-9a-f]{4}(?:-[0-9a-f]{4}){3}")
_MAX_PATH = 4096


class ClassRunError(GradingError):
    """The run cannot go on: its folder, key or options do not fit (a run-level problem)."""


@dataclass(frozen=True)
class Damaged:
    """A student's kept grade that cannot be read: the student is graded again."""

    path: Path
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: damaged ({self.reason}): graded again"


_ORDINARY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}")


def file_stem(name: str) -> str:
    """The stem of a student's files in the run's folder: the name, if it is an ordinary one
    (letters, digits, ``._@+-``, up to 100), else a safe form of it and a hash of it.

    Examples
    --------
    >>> file_stem("ann.lee"), file_stem("Ann Lee/../x")
    ('ann.lee', 'Ann_Lee_.._x-de1be29b')
    """
    if _ORDINARY.fullmatch(name):
        return name
    safe = re.sub(r"[^A-Za-z0-9._@+-]", "_", name)[:60].lstrip(".") or "student"
    return f"{safe}-{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


class RunFolder:
    """A class run's folder, opened new or resumed.

    Parameters
    ----------
    path:
        The folder (made if missing).
    options:
        The grading options; a resumed run must be given the same.
    key:
        A key file to grade on (``--key``), else the run's own (a fresh one for a new run).

    Raises
    ------
    ClassRunError
        ``path`` is not a run's folder (and not empty), its state cannot be read, a resumed
        run's options or key differ from those it was started with, or the key cannot be
        read or saved.
    TargetError
        ``path`` is there and is not a folder (:func:`mineshafted.files.check_folder`).
    """

    def __init__(self, path: Path, options: GradeOptions, *, key: Path | None = None) -> None:
        self.path = path
        self.options = options
        self.resumed = False
        self.finished = False
        self._key_path: str | None = None
        self.board_set, self.key_origin = self._open(key)

    def _open(self, key: Path | None) -> tuple[BoardSet, str]:
        run_file = self.path / RUN_FILE
        if run_file.exists() or run_file.is_symlink():
            return self._resume(run_file, key)
        check_folder(self.path)
        if self.path.exists() and any(self.path.iterdir()):
            raise ClassRunError(
                f"{self.path}: not a class run's folder ({RUN_FILE} is missing) and not "
                "empty: name a new or empty folder with --out"
            )
        try:
            (self.path / RESULTS).mkdir(parents=True, exist_ok=True)
            (self.path / FEEDBACK).mkdir(exist_ok=True)
        except OSError as error:
            raise ClassRunError(f"{self.path}: cannot be made: {os_reason(error)}") from None
        if key is not None:
            chosen = _read_key(key).board_set()
            origin, key_path = f"from the key in {key}", str(key.resolve())
        else:
            fresh = BoardKey.new()
            _save_key(fresh, self.path / KEY_FILE)
            chosen = fresh.board_set()
            origin, key_path = f"from a fresh key saved in {self.path / KEY_FILE}", None
        self._write_run(chosen.name, key_path, finished=False)
        return chosen, origin

    def _resume(self, run_file: Path, key: Path | None) -> tuple[BoardSet, str]:
        name, key_path, recorded, finished = _read_state(run_file)
        differing = recorded.differences(self.options)
        if differing:
            raise ClassRunError(
                f"{self.path} was graded with {', '.join(differing)}: resume it with the same "
                "options, or grade into a new --out (new boards)"
            )
        if key is not None:
            given = _read_key(key).board_set()
            if given.name != name:
                raise ClassRunError(
                    f"{key}: not the key of the run in {self.path} (its board set is {name})"
                )
            chosen, origin = given, f"from the key in {key}"
        elif key_path is not None:
            chosen = _read_key(Path(key_path)).board_set()
            origin = f"from the key in {key_path}"
        else:
            chosen = _read_key(self.path / KEY_FILE).board_set()
            origin = f"from the key saved in {self.path / KEY_FILE}"
        if chosen.name != name:
            raise ClassRunError(f"{self.path}: its key does not make its board set {name}")
        self.resumed = True
        self.finished = finished
        self._key_path = key_path
        return chosen, origin

    def _write_run(self, name: str, key_path: str | None, *, finished: bool) -> None:
        self._key_path = key_path
        state = {
            "format": _FORMAT,
            "version": _VERSION,
            "board_set": name,
            "key": key_path,
            "options": self.options.to_json(),
            "finished": finished,
        }
        try:
            self.write(RUN_FILE, (json.dumps(state, indent=2) + "\n").encode())
        except TargetError as error:
            raise ClassRunError(f"{error.path}: cannot be written: {error.reason}") from None

    def mark_finished(self) -> None:
        """Record that every student is graded (the feedback may go out: no more grading)."""
        self._write_run(self.board_set.name, self._key_path, finished=True)
        self.finished = True

    def stored(self) -> tuple[dict[str, StudentGrade], list[Damaged]]:
        """The grades kept in the folder, by student name, and the kept files that cannot be
        read as one (their students are graded again)."""
        found: dict[str, StudentGrade] = {}
        damaged: list[Damaged] = []
        try:
            paths = sorted((self.path / RESULTS).glob("*.json"))
        except OSError:
            return found, damaged
        for path in paths:
            try:
                grade = StudentGrade.from_json(read_json(path, "a student's grade"))
            except GraderFileError as error:
                damaged.append(Damaged(path, error.reason))
                continue
            except ValueError as error:
                damaged.append(Damaged(path, f"not a student's grade: {error}"))
                continue
            if path.stem != file_stem(grade.name):
                damaged.append(Damaged(path, f"holds the grade of {grade.name!r}"))
                continue
            found[grade.name] = grade
        return found, damaged

    def result_path(self, name: str) -> Path:
        """Where a student's grade is kept."""
        return self.path / RESULTS / f"{file_stem(name)}.json"

    def keep(self, grade: StudentGrade) -> None:
        """Write a student's grade to the folder, whole or not at all.

        Raises
        ------
        TargetError
            It could not be written.
        """
        data = (json.dumps(grade.to_json()) + "\n").encode("utf-8", "surrogatepass")
        self.write(f"{RESULTS}/{file_stem(grade.name)}.json", data)

    def write(self, name: str, data: bytes) -> None:
        """Write the file ``name`` (relative to the folder) whole, replacing only a regular
        file there.

        Raises
        ------
        TargetError
            It could not be written, or something that is not a regular file is in its way.
        """
        write_atomically(self.path / name, data)


def _read_state(run_file: Path) -> tuple[str, str | None, GradeOptions, bool]:
    """The board set's name, the key's path, the options and whether the run has finished,
    as ``run.json`` records them.

    Raises
    ------
    ClassRunError
        It is not a run's state (one line naming the file and what is wrong).
    """
    try:
        state = read_json(run_file, "a class run's state")
    except GraderFileError as error:
        raise ClassRunError(f"{error}: name another --out") from None
    try:
        if not isinstance(state, dict):
            raise ValueError("not a JSON object")
        if state.get("format") != _FORMAT or state.get("version") != _VERSION:
            raise ValueError("no format or version of one")
        name = state.get("board_set")
        if not isinstance(name, str) or not _BOARD_SET.fullmatch(name):
            raise ValueError('"board_set" is not a board set\'s name')
        key_path = state.get("key")
        if key_path is not None and not _path_text(key_path):
            raise ValueError('"key" is not the path of a key file')
        finished = state.get("finished", False)
        if not isinstance(finished, bool):
            raise ValueError('"finished" is not true or false')
        options = GradeOptions.from_json(state.get("options"), '"options"')
    except GradeOptionsError as error:
        raise ClassRunError(f"{run_file}: not a class run's state: {error}") from None
    except ValueError as error:
        raise ClassRunError(
            f"{run_file}: not a class run's state: {error}: name another --out"
        ) from None
    return name, key_path, options, finished


def _path_text(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= _MAX_PATH and "\0" not in value


def _read_key(path: Path) -> BoardKey:
    try:
        return BoardKey.read(path)
    except GradingError as error:
        raise ClassRunError(str(error)) from None


def _save_key(key: BoardKey, path: Path) -> None:
    try:
        key.write(path)
    except GradingError as error:
        raise ClassRunError(str(error)) from None
