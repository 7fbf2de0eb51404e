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

import json
import logging
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Generic, Protocol, TypeVar

from .errors import JournalError

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
    """An open results file: the games it already holds, and a way to add more."""

    path: Path
    done: dict[int, L]
    """The finished games already in the file, by index."""
    _stream: IO[str]

    def append(self, line: L) -> None:
        """Write one finished game and flush it, so that an interruption loses nothing."""
        self._stream.write(json.dumps(line.to_json()) + "\n")
        self._stream.flush()
        self.done[line.index] = line


@contextmanager
def open_journal(path: Path, key: dict[str, Any], read: Callable[[Any], L]) -> Iterator[Journal[L]]:
    """Open (or start) the results file of the study ``key``, ready to append.

    Parameters
    ----------
    path:
        The file.
    key:
        The study's key (its first line must be ``{"study": key}``).
    read:
        A game line back from its JSON (``ValueError`` when it is not one).

    Raises
    ------
    JournalError
        The file was written by another study (its first line names a different key), or a
        line is not a game line. A last line cut short (the writer was killed mid-line) is
        dropped with a warning.
    OSError
        The file cannot be read or written.

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
    >>> with open_journal(path, key, GameLine.from_json) as journal:
    ...     sorted(journal.done)
    [0]
    """
    done: dict[int, L] = {}
    if path.exists() and not stat.S_ISREG(path.stat().st_mode):
        # A directory, a device or a FIFO (which would block): refused, left as it is.
        raise JournalError("not a regular file: results are kept in one", path=path)
    if path.exists() and path.stat().st_size:
        done = _read(path, key, read)
    else:
        path.write_text(json.dumps({"study": key}) + "\n", encoding="utf-8")
    with path.open("a", encoding="utf-8") as stream:
        yield Journal(path, done, stream)


def _read(path: Path, key: dict[str, Any], read: Callable[[Any], L]) -> dict[int, L]:
    """The games already in ``path``, after checking it belongs to the study ``key``.

    The file is read once, through the package's capped reader, and each line parsed once.
    Nothing is rewritten until the file is known to be a study's results file (a last line cut
    short is dropped then): a file that is not one is refused and left as it was.
    """
    from ..formats import read_text

    text = read_text(path)
    lines = text.splitlines()
    parsed = [_parse(raw, path, number) for number, raw in enumerate(lines, start=1)]
    head = parsed[0] if parsed else None
    if not isinstance(head, dict) or not isinstance(head.get("study"), dict):
        raise JournalError("not a study's results file (no study on its first line)", path=path)
    if not text.endswith("\n"):
        cut = text.rfind("\n") + 1
        log.warning("%s: dropping a last line cut short: %r", path, text[cut:][:80])
        path.write_text(text[:cut], encoding="utf-8")
        lines, parsed = lines[:-1], parsed[:-1]
        if not lines:
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
    done: dict[int, L] = {}
    for number, (raw, value) in enumerate(zip(lines[1:], parsed[1:], strict=True), start=2):
        if not raw.strip():
            continue
        try:
            if isinstance(value, json.JSONDecodeError):
                raise value
            line = read(value)
        except ValueError as error:
            raise JournalError(f"not a game line: {error}", path=path, line=number) from None
        done[line.index] = line
    return done


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
