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
    if path.exists() and path.stat().st_size:
        done = _read(path, key, read)
    else:
        path.write_text(json.dumps({"study": key}) + "\n", encoding="utf-8")
    with path.open("a", encoding="utf-8") as stream:
        yield Journal(path, done, stream)


def _read(path: Path, key: dict[str, Any], read: Callable[[Any], L]) -> dict[int, L]:
    """The games already in ``path``, after checking it belongs to the study ``key``."""
    text = path.read_text(encoding="utf-8")
    if not text.endswith("\n"):
        cut = text.rfind("\n") + 1
        log.warning("%s: dropping a last line cut short: %r", path, text[cut:][:80])
        text = text[:cut]
        path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    try:
        head = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        head = None
    if not isinstance(head, dict) or not isinstance(head.get("study"), dict):
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
    for number, raw in enumerate(lines[1:], start=2):
        if not raw.strip():
            continue
        try:
            line = read(json.loads(raw))
        except ValueError as error:
            raise JournalError(f"not a game line: {error}", path=path, line=number) from None
        done[line.index] = line
    return done
