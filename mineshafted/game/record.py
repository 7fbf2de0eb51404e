"""GameRecord: what happened in a game, event by event, and its JSON Lines file.

A record is a header (the format version, the board's size and mine total, the rules, the
seed, the first move once made, and the mines of a fixed board) and a list of events. The
player's actions are :class:`Reveal`, :class:`Flag` and :class:`Unflag`; :class:`MineHit`
and :class:`Outcome` follow from them. Every event may carry a ``reason`` (who or what
decided it: a rung of the solver's ladder by its technique's word, ``"count"`` ...
``"total"``, or ``"start"``; a policy's guess; an S4 rule's name) and a small JSON ``detail``
object, for replays.

On file, line 1 is the header and each further line one event::

    {"format": "mineshafted-game", "version": 2, "rows": 2, "cols": 2, "mines": 1, ...}
    {"event": "reveal", "cell": 0, "revealed": [[0, 1]]}
    {"event": "flag", "cell": 3, "reason": "count"}

Version 1 differed only in three of the solver's reasons, which named the sweep's stages
in words of their own: ``"clue"``, ``"propagation"`` and ``"search"``. A version 1 record is
read with them in the ladder's words (:data:`OLD_REASONS`), so every reader sees one
vocabulary; this module writes version 2.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from ..board import MINE, Cell
from ..errors import RecordFormatError

# Detail and the game's fast constructors of events are kept importable from here, where
# engine.py takes them.
from .events import Detail as Detail
from .events import Event, Flag, MineHit, Outcome, Reveal, Unflag
from .events import _flag as _flag
from .events import _reveal as _reveal
from .rules import GameStatus, Rules

__all__ = [
    "FORMAT",
    "OLD_REASONS",
    "READS",
    "VERSION",
    "Event",
    "Flag",
    "GameRecord",
    "MineHit",
    "Outcome",
    "RecordHeader",
    "Reveal",
    "Unflag",
    "event_line",
    "read_record",
    "write_record",
]

FORMAT: Final = "mineshafted-game"
"""The ``format`` field of every record's header."""

VERSION: Final = 2
"""The version of the record format this module writes."""

READS: Final = (1, 2)
"""The versions of the record format this module reads."""

OLD_REASONS: Final = {"clue": "count", "propagation": "ac3", "search": "complete"}
"""The solver's reasons in version 1 records, by the ladder's words that replaced them."""


@dataclass(frozen=True, slots=True)
class RecordHeader:
    """Everything needed to set a game up again.

    ``layout`` holds the mines of a fixed board as given (before a safe first move moved
    any); it is ``None`` for a drawn board, which the seed redraws.
    """

    rows: int
    cols: int
    mines: int
    rules: Rules
    seed: int
    first: Cell | None = None
    """The first cell revealed, once it is known."""
    layout: tuple[Cell, ...] | None = None


@dataclass
class GameRecord:
    """A header and the events of one game, in order.

    Examples
    --------
    >>> import io
    >>> record = GameRecord(RecordHeader(1, 2, 1, Rules.MINE_SHAFTED, seed=7, layout=(1,)))
    >>> record.events.append(Reveal(0, ((0, 1),), reason="start"))
    >>> out = io.StringIO()
    >>> write_record(record, out)
    >>> print(out.getvalue(), end="")  # doctest: +NORMALIZE_WHITESPACE
    {"format": "mineshafted-game", "version": 2, "rows": 1, "cols": 2, "mines": 1,
     "rules": {"first_move": "none", "auto_expand": false, "after_mine": "end",
     "total_known": false}, "seed": 7, "first": null, "layout": [1]}
    {"event": "reveal", "cell": 0, "revealed": [[0, 1]], "reason": "start"}
    >>> read_record(io.StringIO(out.getvalue())) == record
    True
    """

    header: RecordHeader
    events: list[Event] = field(default_factory=list)

    def lines(self) -> Iterator[str]:
        """The record as JSON Lines, header first, without line ends."""
        yield json.dumps(_header_json(self.header))
        for event in self.events:
            yield event_line(event)


def event_line(event: Event) -> str:
    """``event`` as its line of a record file (JSON), the way a message shows it.

    >>> event_line(Flag(3))
    '{"event": "flag", "cell": 3}'
    """
    return json.dumps(_event_json(event))


def write_record(record: GameRecord, target: str | os.PathLike[str] | IO[str]) -> None:
    """Write ``record`` as JSON Lines to a path or an open text file.

    Raises
    ------
    TypeError
        An event's ``detail`` holds a value JSON cannot write.

    Notes
    -----
    ``O(events)``.
    """
    text = "".join(f"{line}\n" for line in record.lines())
    if isinstance(target, (str, os.PathLike)):
        Path(target).write_text(text, encoding="utf-8")
    else:
        target.write(text)


def read_record(source: str | os.PathLike[str] | IO[str]) -> GameRecord:
    """Read a record written by :func:`write_record` from a path or an open text file.

    Blank lines are skipped (and still counted in line numbers).

    Raises
    ------
    RecordFormatError
        The file is empty, a line is not a JSON object, the format or version is not this
        module's, a field is missing or of the wrong type, a cell is off the board, or an
        event is of an unknown kind. The error names the line, the field and the file.
    OSError
        ``source`` is a path that cannot be read.

    Notes
    -----
    ``O(size of the file)``; the events are checked one by one, not replayed (see
    :func:`~mineshafted.game.rebuilding.rebuild` for that).
    """
    if isinstance(source, (str, os.PathLike)):
        name: str | None = os.fspath(source)
        with open(source, encoding="utf-8") as file:
            return _parse(file, name)
    return _parse(source, getattr(source, "name", None))


def _parse(lines: Iterable[str], name: str | None) -> GameRecord:
    """The record in ``lines``; errors name ``name``."""
    header: RecordHeader | None = None
    events: list[Event] = []
    renamed: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        reader = _Reader(line, number, name)
        if header is None:
            header, version = reader.header()
            renamed = OLD_REASONS if version == 1 else {}
        else:
            events.append(reader.event(header.rows * header.cols, renamed))
    if header is None:
        raise RecordFormatError("the record is empty: no header", line=1, source=name)
    return GameRecord(header, events)


def _header_json(header: RecordHeader) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "rows": header.rows,
        "cols": header.cols,
        "mines": header.mines,
        "rules": header.rules.to_json(),
        "seed": header.seed,
        "first": header.first,
        "layout": None if header.layout is None else list(header.layout),
    }


def _event_json(event: Event) -> dict[str, Any]:
    obj: dict[str, Any] = {"event": event.kind}
    if isinstance(event, Outcome):
        obj["status"] = event.status.value
        obj["mines"] = list(event.mines)
    else:
        obj["cell"] = event.cell
    if isinstance(event, Reveal):
        obj["revealed"] = [list(pair) for pair in event.revealed]
        if event.guess:
            obj["guess"] = True
        if event.probability is not None:
            obj["probability"] = event.probability
    if event.reason is not None:
        obj["reason"] = event.reason
    if event.detail is not None:
        obj["detail"] = event.detail
    return obj


class _Reader:
    """One line of a record, and typed access to its fields that names the line on error."""

    def __init__(self, line: str, number: int, name: str | None) -> None:
        self.number = number
        self.name = name
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as error:
            raise self.error(f"not JSON: {error.msg} at column {error.colno}") from None
        if not isinstance(obj, dict):
            raise self.error(f"a line must be a JSON object, not {_as_json(obj)}")
        self.obj: dict[str, Any] = obj

    def error(self, message: str, field: str | None = None) -> RecordFormatError:
        return RecordFormatError(message, line=self.number, field=field, source=self.name)

    def get(self, key: str, kind: type | tuple[type, ...], *, optional: bool = False) -> Any:
        """The value of ``key``, checked to be of ``kind`` (bool is never taken for int)."""
        if key not in self.obj:
            if optional:
                return None
            raise self.error("missing", key)
        value = self.obj[key]
        if value is None and optional:
            return None
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            value_ok = False
        else:
            value_ok = isinstance(value, kinds)
        if not value_ok:
            wanted = " or ".join(_JSON_KINDS.get(k, k.__name__) for k in kinds)
            raise self.error(f"{_as_json(value)} is not {wanted}", key)
        return value

    def cell(self, key: str, cells: int, value: object = ...) -> Cell:
        """A cell index on a board of ``cells`` cells."""
        found = self.get(key, int) if value is ... else value
        if type(found) is not int or not 0 <= found < cells:
            raise self.error(f"cell {found!r} is off the board: cells are 0..{cells - 1}", key)
        return found

    def header(self) -> tuple[RecordHeader, int]:
        """The header, and the record's format version."""
        if self.obj.get("format") != FORMAT:
            raise self.error(f"not a game record: format is not {FORMAT!r}", "format")
        version = self.get("version", int)
        if version not in READS:
            reads = " and ".join(map(str, READS))
            raise self.error(f"unknown format version {version}: this reads {reads}", "version")
        rows, cols, mines = self.get("rows", int), self.get("cols", int), self.get("mines", int)
        if rows < 1 or cols < 1:
            raise self.error(f"a board of {rows}x{cols} has no cells", "rows")
        cells = rows * cols
        if not 0 <= mines <= cells:
            raise self.error(f"{mines} mines do not fit in {cells} cells", "mines")
        rules_obj = self.get("rules", dict)
        try:
            rules = Rules.from_json(rules_obj)
        except KeyError as error:
            raise self.error(f"missing {error.args[0]!r}", "rules") from None
        except ValueError as error:
            raise self.error(str(error), "rules") from None
        seed = self.get("seed", int)
        first = self.get("first", int, optional=True)
        if first is not None:
            self.cell("first", cells, first)
        layout = self.get("layout", list, optional=True)
        if layout is not None:
            layout = tuple(self.cell("layout", cells, c) for c in layout)
            if len(set(layout)) != mines:
                raise self.error(f"{len(set(layout))} distinct mines, not {mines}", "layout")
        return RecordHeader(rows, cols, mines, rules, seed, first, layout), version

    def event(self, cells: int, renamed: dict[str, str]) -> Event:
        """The event, on a board of ``cells`` cells, its reason in the words of today's format
        (``renamed``: the old reasons by their new words)."""
        kind = self.get("event", str)
        reason = self.get("reason", str, optional=True)
        reason = renamed.get(reason, reason) if reason is not None else None
        detail = self.get("detail", dict, optional=True)
        if kind == Outcome.kind:
            status = self.get("status", str)
            if status not in (GameStatus.WON.value, GameStatus.LOST.value):
                raise self.error(f"{status!r} is not won or lost", "status")
            mines = tuple(self.cell("mines", cells, c) for c in self.get("mines", list))
            return Outcome(GameStatus(status), mines, reason=reason, detail=detail)
        cell = self.cell("cell", cells)
        if kind == Reveal.kind:
            revealed = tuple(self.pair(item, cells) for item in self.get("revealed", list))
            guess = self.get("guess", bool, optional=True) is True
            probability = self.get("probability", (int, float), optional=True)
            if probability is not None:
                if not 0 <= probability <= 1:
                    raise self.error(f"{probability} is not in 0..1", "probability")
                probability = float(probability)
            return Reveal(cell, revealed, guess, probability, reason=reason, detail=detail)
        simple: dict[str, type[Flag | Unflag | MineHit]] = {
            Flag.kind: Flag,
            Unflag.kind: Unflag,
            MineHit.kind: MineHit,
        }
        if kind not in simple:
            known = ", ".join(k.kind for k in (Reveal, Flag, Unflag, MineHit, Outcome))
            raise self.error(f"unknown event {kind!r}: events are {known}", "event")
        return simple[kind](cell, reason=reason, detail=detail)

    def pair(self, item: object, cells: int) -> tuple[Cell, int]:
        """One ``[cell, value]`` of a reveal."""
        if not isinstance(item, list) or len(item) != 2:
            raise self.error(f"{item!r} is not a [cell, value] pair", "revealed")
        cell, value = item
        self.cell("revealed", cells, cell)
        if type(value) is not int or not MINE <= value <= 8:
            raise self.error(f"{value!r} is not a clue 0-8 or a mine -1", "revealed")
        return cell, value


_JSON_KINDS: Final[dict[type, str]] = {
    int: "an integer",
    float: "a number",
    str: "a string",
    bool: "true or false",
    list: "a list",
    dict: "an object",
}
"""A field's type as the file's words name it (``null is not an integer``, not Python's
``None is not of type int``)."""


def _as_json(value: object) -> str:
    """A value read from a line, as the line spells it (cut past 40 characters).

    >>> _as_json(None), _as_json(True), _as_json("1"), _as_json([1, 2])
    ('null', 'true', '"1"', '[1, 2]')
    """
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."
