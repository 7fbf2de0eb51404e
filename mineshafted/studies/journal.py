"""The journal: a study's results file, one JSON line per finished game, resumable.

The first line names the study (:class:`StudyKey`); every other line is one finished game
(:class:`GameLine`), written and flushed as soon as the game ends, in the order games end.
A study run again with the same file skips the games already in it.

Glossary
--------
key
    What fixes every game of a study: size, mines, first move, start, policy and base seed.
    The number of games does not: a study can be resumed with more.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import IO, Any

from ..game import GameStatus
from .errors import JournalError

__all__ = ["GameLine", "Journal", "StudyKey", "open_journal"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StudyKey:
    """What fixes every game of a study (and must match to resume one)."""

    rows: int
    cols: int
    mines: int
    first: str
    start: str
    policy: str
    seed: int

    def to_json(self) -> dict[str, Any]:
        """The key as the journal's first line holds it."""
        return asdict(self)


@dataclass(frozen=True)
class GameLine:
    """One finished game of a study."""

    index: int
    """The game's number in the study, from 0."""
    seed: int
    """The game's own seed (from the base seed and the index)."""
    outcome: GameStatus
    guesses: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The line as JSON-ready data.

        >>> GameLine(3, 99, GameStatus.WON, 1, 0.01234567).to_json()
        {'index': 3, 'seed': 99, 'outcome': 'won', 'guesses': 1, 'seconds': 0.012346}
        """
        return {
            "index": self.index,
            "seed": self.seed,
            "outcome": self.outcome.value,
            "guesses": self.guesses,
            "seconds": round(self.seconds, 6),
        }

    @classmethod
    def from_json(cls, obj: Any) -> GameLine:
        """The line :meth:`to_json` wrote.

        Raises
        ------
        ValueError
            A field is missing or holds the wrong kind of value.
        """
        if not isinstance(obj, dict):
            raise ValueError("not a JSON object")
        for name in ("index", "seed", "guesses"):
            if type(obj.get(name)) is not int:
                raise ValueError(f"{name}: {obj.get(name)!r} is not an integer")
        seconds = obj.get("seconds")
        if not isinstance(seconds, int | float) or isinstance(seconds, bool):
            raise ValueError(f"seconds: {seconds!r} is not a number")
        outcomes = {status.value: status for status in (GameStatus.WON, GameStatus.LOST)}
        outcome = outcomes.get(obj.get("outcome"))  # type: ignore[arg-type]
        if outcome is None:
            raise ValueError(f"outcome: {obj.get('outcome')!r} is not won or lost")
        return cls(obj["index"], obj["seed"], outcome, obj["guesses"], float(seconds))


@dataclass
class Journal:
    """An open results file: the games it already holds, and a way to add more."""

    path: Path
    done: dict[int, GameLine]
    """The finished games already in the file, by index."""
    _stream: IO[str]

    def append(self, line: GameLine) -> None:
        """Write one finished game and flush it, so that an interruption loses nothing."""
        self._stream.write(json.dumps(line.to_json()) + "\n")
        self._stream.flush()
        self.done[line.index] = line


@contextmanager
def open_journal(path: Path, key: StudyKey) -> Iterator[Journal]:
    """Open (or start) the results file of the study ``key``, ready to append.

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
    >>> path = Path(tempfile.mkdtemp()) / "study.jsonl"
    >>> key = StudyKey(9, 9, 10, "safe", "corner", "best", 0)
    >>> with open_journal(path, key) as journal:
    ...     journal.append(GameLine(0, 5, GameStatus.WON, 0, 0.001))
    >>> with open_journal(path, key) as journal:
    ...     sorted(journal.done)
    [0]
    """
    done: dict[int, GameLine] = {}
    if path.exists() and path.stat().st_size:
        done = _read(path, key)
    else:
        path.write_text(json.dumps({"study": key.to_json()}) + "\n", encoding="utf-8")
    with path.open("a", encoding="utf-8") as stream:
        yield Journal(path, done, stream)


def _read(path: Path, key: StudyKey) -> dict[int, GameLine]:
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
    theirs = head["study"]
    ours = key.to_json()
    differ = [
        f"{f.name} {theirs.get(f.name)!r}, not {ours[f.name]!r}"
        for f in fields(StudyKey)
        if theirs.get(f.name) != ours[f.name]
    ]
    if differ:
        raise JournalError(
            "written by another study (" + "; ".join(differ) + "): use another --out file, "
            "or the same arguments to resume it",
            path=path,
        )
    done: dict[int, GameLine] = {}
    for number, raw in enumerate(lines[1:], start=2):
        if not raw.strip():
            continue
        try:
            line = GameLine.from_json(json.loads(raw))
        except ValueError as error:
            raise JournalError(f"not a game line: {error}", path=path, line=number) from None
        done[line.index] = line
    return done
