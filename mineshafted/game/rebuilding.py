"""Rebuilding: a game replayed from its record, to the end or to any action, events checked.

Glossary
--------
action
    A reveal, a flag or an unflag: what a player does. The other events (a mine hit, the
    outcome) follow from the actions and are checked against the record, not applied.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..board import Board, Geometry
from ..errors import IllegalMoveError, MineshaftedError, RecordFormatError
from .engine import Game, View
from .record import Event, Flag, GameRecord, Reveal, Unflag, event_line

__all__ = ["rebuild", "views_of"]


def rebuild(record: GameRecord, *, actions: int | None = None) -> Game:
    """The game of ``record`` after its first ``actions`` actions (all of them by default).

    Actions are reveals, flags and unflags; the events that follow from them (mine hits and
    the outcome) are checked against the record rather than applied.

    Raises
    ------
    RecordFormatError
        An action is refused by the rules, or the replay's events differ from the record's
        (the record was edited, or written by different rules). Names the event's line.

    Examples
    --------
    >>> game = Game.draw(4, 4, 3, seed=5)
    >>> _ = game.reveal(0), game.flag(15)
    >>> rebuild(game.record).view() == game.view()
    True
    >>> rebuild(game.record, actions=1).flags
    frozenset()

    Notes
    -----
    ``O(cells + events)``.
    """
    *_, game = _replayed(record, actions)
    return game


def views_of(record: GameRecord) -> Iterator[View]:
    """The position before any action, then after each action of ``record`` in turn.

    Raises
    ------
    RecordFormatError
        As :func:`rebuild`, when the bad event is reached.
    """
    for game in _replayed(record, None):
        yield game.view()


def _replayed(record: GameRecord, actions: int | None) -> Iterator[Game]:
    """One game, yielded before any action and again after each action it re-applies."""
    header = record.header
    geometry = Geometry(header.rows, header.cols)
    board = None
    if header.layout is not None:
        board = Board.from_mines(header.rows, header.cols, header.layout)
    game = Game(geometry, header.mines, rules=header.rules, seed=header.seed, board=board)
    yield game
    events = record.events
    done = index = 0
    while index < len(events) and (actions is None or done < actions):
        event, line = events[index], index + 2
        try:
            _apply(game, event)
        except MineshaftedError as error:
            raise RecordFormatError(f"does not replay: {error}", line=line) from error
        produced = game.record.events[index:]
        for offset, (want, got) in enumerate(
            zip(events[index : index + len(produced)], produced, strict=False)
        ):
            if want != got:
                raise RecordFormatError(
                    f"the replay gives {event_line(got)} here, the record {event_line(want)}",
                    line=line + offset,
                )
        if not produced:
            raise RecordFormatError(f"{event_line(event)} changes nothing", line=line)
        if len(produced) > len(events) - index:
            raise RecordFormatError(
                f"the replay goes on with {event_line(produced[len(events) - index])}",
                line=len(events) + 2,
            )
        index += len(produced)
        done += 1
        yield game
    if index == len(events) and game.record.header != header:
        raise RecordFormatError(
            f"the first move was {_cell(game.record.header.first)}; "
            f"the header says {_cell(header.first)}",
            line=1,
            field="first",
        )


def _apply(game: Game, event: Event) -> None:
    """Re-apply ``event`` if it is an action; refuse any other event at this point."""
    if isinstance(event, Reveal):
        game.reveal(
            event.cell,
            guess=event.guess,
            probability=event.probability,
            reason=event.reason,
            detail=event.detail,
        )
    elif isinstance(event, Flag):
        game.flag(event.cell, reason=event.reason, detail=event.detail)
    elif isinstance(event, Unflag):
        game.unflag(event.cell, reason=event.reason, detail=event.detail)
    else:
        raise IllegalMoveError(f"a {event.kind} event where an action was expected", cell=None)


def _cell(cell: int | None) -> str:
    """A first move as a message names it."""
    return "none" if cell is None else f"cell {cell}"
