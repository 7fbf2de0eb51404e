"""The journal: a study's results file, one JSON line per finished game, resumable.

The first line names the study (its key); every other line is one finished game, written and
flushed as soon as the game ends, in the order games end. A study run again with the same file
skips the games already in it.

Glossary
--------
key
    What fixes every game of a study, as JSON: for classic play the size, mines, first move,
    start, policy and base seed; for a lab study its kind, boards, agents and seed. The number
    of classic games does not: such a study can be resumed with more.
line
    One finished game as the journal holds it: a JSON object with at least its ``index``.
"""

from __future__ import annotations

import codecs
import json
import logging
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Generic, Protocol, TypeVar

from ..formats import writing
from .errors import JournalError
from .indices import Indices

__all__ = ["Journal", "Line", "open_journal"]

log = logging.getLogger(__name__)


class Line(Protocol):
    """One finished game of a study, as its kind records it."""

    @property
    def index(self) -> int:
        """The game's number in the study, from 0."""
        ...  # pragma: no cover - protocol

    def to_json(self) -> dict[str, Any]:
        """The line as JSON-ready data (with its ``index``)."""
        ...  # pragma: no cover - protocol


L = TypeVar("L", bound=Line)


@dataclass
class Journal(Generic[L]):
    """An open results file: which games it already holds, and a way to add more."""

    path: Path
    done: Indices
    """The indices of the games in the file: those read when it was opened and those
    appended since, kept as runs of consecutive indices."""
    _stream: IO[str]

    def append(self, line: L) -> None:
        """Write one finished game and flush it, so that an interruption loses nothing.

        Raises
        ------
        OSError
            The write failed (a full disk); the error names the file.
        """
        with writing(self.path):
            self._stream.write(json.dumps(line.to_json()) + "\n")
            self._stream.flush()
        self.done.add(line.index)


@contextmanager
def open_journal(
    path: Path,
    key: dict[str, Any],
    read: Callable[[Any], L],
    fold: Callable[[L], object] | None = None,
) -> Iterator[Journal[L]]:
    """Open (or start) the results file of the study ``key``, ready to append.

    Parameters
    ----------
    path:
        The file.
    key:
        The study's key (its first line must be ``{"study": key}``).
    read:
        A game line back from its JSON (``ValueError`` when it is not one).
    fold:
        Called with each game line of the file as it is read, in the file's order; a game
        written twice is given once (its first line; one warning says how many were). After
        an error the lines it was given are to be thrown away.

    Raises
    ------
    JournalError
        The file was written by another study (its first line names a different key), or a
        line is not a game line, is longer than 64 MiB or is not UTF-8. A last line cut short
        (the writer was killed mid-line) is dropped with a warning.
    OSError
        The file cannot be read or written; the error names it.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from mineshafted.game import GameStatus
    >>> from mineshafted.studies import GameLine
    >>> path = Path(tempfile.mkdtemp()) / "study.jsonl"
    >>> key = {"rows": 9, "cols": 9, "mines": 10, "seed": 0}
    >>> with open_journal(path, key, GameLine.from_json) as journal:
    ...     journal.append(GameLine(0, 5, GameStatus.WON, 0, 0.001))
    >>> with open_journal(path, key, GameLine.from_json, print) as journal:
    ...     sorted(journal.done)
    GameLine(index=0, seed=5, outcome=<GameStatus.WON: 'won'>, guesses=0, seconds=0.001)
    [0]

    Notes
    -----
    The file is read once, a line at a time: ``O(1)`` memory per game line (the indices are
    kept as runs of consecutive ones, :class:`~mineshafted.studies.indices.Indices`), whatever
    the file's size.
    """
    done = Indices()
    if path.exists() and not stat.S_ISREG(path.stat().st_mode):
        # A directory, a device or a FIFO (which would block): refused, left as it is.
        raise JournalError("not a regular file: results are kept in one", path=path)
    if path.exists() and path.stat().st_size:
        done = _read(path, key, read, fold)
    else:
        with writing(path):
            path.write_text(json.dumps({"study": key}) + "\n", encoding="utf-8")
    with writing(path), path.open("a", encoding="utf-8") as stream:
        yield Journal(path, done, stream)


def _read(
    path: Path, key: dict[str, Any], read: Callable[[Any], L], fold: Callable[[L], object] | None
) -> Indices:
    """The indices of the games already in ``path``, each game line given to ``fold``, after
    checking the file belongs to the study ``key``.

    The file is read once, a line at a time, and each line parsed once. Nothing is rewritten
    until every whole line is known to be good (a last line cut short is dropped then): a file
    that is not a study's results file is refused and left as it was.
    """
    done = Indices()
    whole = 0  # bytes of the whole lines read so far
    first_again: tuple[int, int] | None = None  # line and game of the first written twice
    again = 0  # how many lines repeat a game already read
    for number, raw in _lines(path):
        if not raw.endswith("\n"):  # the last line, cut short
            if number == 1:
                _check_head(_parse(raw, path, number), key, path)
            log.warning("%s: dropping a last line cut short: %r", path, raw[:80])
            os.truncate(path, whole)
            if number == 1:
                raise JournalError(
                    "not a study's results file (no study on its first line)", path=path
                )
            break
        whole += len(raw.encode("utf-8"))
        value = _parse(raw, path, number)
        if number == 1:
            _check_head(value, key, path)
            continue
        if value is None:
            continue
        try:
            if isinstance(value, json.JSONDecodeError):
                raise value
            line = read(value)
            new = done.add(line.index)
        except ValueError as error:
            raise JournalError(f"not a game line: {error}", path=path, line=number) from None
        if not new:
            first_again = first_again or (number, line.index)
            again += 1
        elif fold is not None:
            fold(line)
    if first_again is not None:
        log.warning(
            "%s: %d line(s) repeat a game already in the file (the first at line %d, game %d; "
            "two runs sharing the file?): the first line of each game kept",
            path,
            again,
            *first_again,
        )
    return done


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """The lines of the results file, one at a time, a reading error as a
    :class:`JournalError`."""
    from ..errors import InputError
    from ..formats import read_lines

    try:
        yield from read_lines(path)
    except InputError as error:
        raise JournalError(str(error).removeprefix(f"{path}: "), path=path) from None


def _check_head(head: Any, key: dict[str, Any], path: Path) -> None:
    """Refuse a first line that is not ``{"study": key}``.

    Raises
    ------
    JournalError
        The file is not a study's results file (if it is not even text, that is what is
        said), or it names another study.
    """
    if not isinstance(head, dict) or not isinstance(head.get("study"), dict):
        _check_text(path)
        raise JournalError("not a study's results file (no study on its first line)", path=path)
    theirs: dict[str, Any] = head["study"]
    names = [*key, *(name for name in theirs if name not in key)]
    differ = [
        f"{name} {theirs.get(name)!r}, not {key.get(name)!r}"
        for name in names
        if theirs.get(name) != key.get(name)
    ]
    if differ:
        raise JournalError(
            "written by another study (" + "; ".join(differ) + "): use another --out, "
            "or the same arguments to resume it",
            path=path,
        )


def _check_text(path: Path) -> None:
    """Refuse a file that is not UTF-8 text (a binary file given as results), naming the first
    byte at fault; read in blocks, ``O(1)`` memory.

    Raises
    ------
    JournalError
        A byte that is not UTF-8.
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0  # bytes read so far
    with path.open("rb") as stream:
        while True:
            block = stream.read(1 << 16)
            held = len(decoder.getstate()[0])  # the start of a character cut by the last block
            try:
                decoder.decode(block, final=not block)
            except UnicodeDecodeError as error:
                byte = offset - held + error.start
                raise JournalError(f"not UTF-8 text (byte {byte})", path=path) from None
            if not block:
                return
            offset += len(block)


def _parse(raw: str, path: Path, number: int) -> Any:
    """Line ``number`` of ``path`` as JSON; a syntax error is returned (the caller decides:
    a first line that is not a study's, a game line that is not one), anything Python cannot
    read at all (nesting past its recursion limit, an integer past its digit limit) raises.

    Raises
    ------
    JournalError
        The line is nested too deeply, or holds an integer of more than 4300 digits.
    """
    if not raw.strip():
        return None
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        return error
    except RecursionError:
        raise JournalError("nested too deeply to read", path=path, line=number) from None
    except ValueError as error:  # an integer of more than 4300 digits
        raise JournalError(str(error).split(";")[0], path=path, line=number) from None
