"""Script: a game record packed as the replay page's data, one step per action, as diffs.

Glossary
--------
step
    One action of the record (a reveal, a flag, an unflag) with the events that follow from
    it (a mine hit, the outcome). Step 0 is the position before any action; step ``k`` the
    position after the ``k``-th action.
odds
    The mine probability of every unknown cell when a reveal was chosen, as a play records
    it in the reveal's ``detail`` under :data:`ODDS`: ``{cell: probability}``.
judgement
    What a judge of the game (the grader) says of how it ended, which the record cannot say:
    shown at the last step in place of the game's status (a board returned wrong is never
    *won*), with what came after the last step (moves onto cells already revealed).

The packed form is columnar, so a 200x200 solve stays small: one character per step for its
kind, one int per step for its cell and one for its reason (an index into a table of the
reasons used), one character per revealed cell for its value, and sparse maps, keyed by
step, for what most steps lack (the cells a zero's expansion opened, guesses, odds, mine
hits, other details).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Final

from ..board import MINE
from ..errors import RecordFormatError
from ..game import Flag, GameRecord, MineHit, Outcome, Reveal, Unflag, rebuild

__all__ = ["ODDS", "SCRIPT_VERSION", "Judgement", "script"]

log = logging.getLogger(__name__)

ODDS: Final = "odds"
"""The key of a reveal's ``detail`` that holds the odds of every unknown cell."""

SCRIPT_VERSION: Final = 1
"""The version of the packed form, for the page's script."""

_KINDS: Final = {Reveal: "r", Flag: "f", Unflag: "u"}
"""Each action's one-character code in ``kinds``."""


@dataclass(frozen=True)
class Judgement:
    """How a judge of the game saw its end (:func:`mineshafted.grading.accounts.replay_words`
    gives a graded board's).

    Examples
    --------
    >>> said = Judgement("timed out", "No answer in time.", "moves 15-99 repeat cells 3, 4", (3, 4))
    >>> said.verdict, said.cells
    ('timed out', (3, 4))
    """

    verdict: str
    """What the game is called at its last step, in place of its status (``wrong board``)."""
    text: str
    """Why, in a sentence or a few."""
    after: str = ""
    """What came after the last step, if anything did."""
    cells: tuple[int, ...] = ()
    """The cells :attr:`after` is about, marked on the board at the last step."""


def script(
    record: GameRecord, *, title: str = "replay", judgement: Judgement | None = None
) -> dict[str, Any]:
    """The page's data for ``record``: a JSON-ready object of columns and sparse maps.

    Parameters
    ----------
    record:
        The game to pack; it is replayed first, so a record that does not replay is refused.
    title:
        What the page calls the game.
    judgement:
        How a judge of the game saw its end, shown at its last step in place of its status.

    Returns
    -------
    dict
        ``rows``, ``cols``, ``mines`` (the total; ``total_known`` says whether the player saw
        it), ``rules``, ``title``; per step: ``kinds`` (a string, ``r`` reveal, ``f`` flag,
        ``u`` unflag), ``cells`` and ``why`` (an index into ``reasons``, ``-1`` for none);
        ``values``, a string of one character per revealed cell in order (``0``-``8``, ``*``
        a mine); sparse maps keyed by the step number as a string: ``more`` (the cells after
        the revealed one that a reveal opened), ``guesses`` (``{"p": probability or null}``),
        ``odds`` (``{cell: probability}``), ``details`` (the rest of an event's detail);
        ``hits``, the steps that showed a mine; ``outcome`` (``status`` won, lost or ``null``
        for a record that ends in play, ``step``, and ``mines``); ``judgement``
        (``verdict``, ``text``, ``after``, ``cells``, or ``null``).

    Raises
    ------
    RecordFormatError
        The record does not replay (see :func:`mineshafted.game.replay`).
    ValueError
        A cell of the judgement is not a cell of the board.

    Examples
    --------
    >>> from mineshafted import Board, Game, Rules
    >>> game = Game.on(Board.from_grid([[0, 1, -1]]), rules=Rules.MINE_SHAFTED)
    >>> _ = game.reveal(0, reason="start"), game.flag(2, reason="clue")
    >>> _ = game.reveal(1, reason="clue")
    >>> data = script(game.record)
    >>> data["kinds"], data["cells"], data["values"], data["reasons"], data["why"]
    ('rfr', [0, 2, 1], '01', ['start', 'clue'], [0, 1, 1])
    >>> data["outcome"]
    {'status': 'won', 'step': 3, 'mines': [2]}

    Notes
    -----
    ``O(cells + events)``, the replay included.
    """
    rebuild(record)  # a record that does not replay raises here
    header = record.header
    kinds: list[str] = []
    cells: list[int] = []
    why: list[int] = []
    values: list[str] = []
    reasons: dict[str, int] = {}
    more: dict[str, list[int]] = {}
    guesses: dict[str, dict[str, float | None]] = {}
    odds: dict[str, dict[str, float]] = {}
    details: dict[str, Any] = {}
    hits: list[int] = []
    outcome: dict[str, Any] = {"status": None, "step": None, "mines": []}
    for line, event in enumerate(record.events, start=2):
        step = len(kinds)
        if isinstance(event, MineHit):
            hits.append(step)
            continue
        if isinstance(event, Outcome):
            outcome = {"status": event.status.value, "step": step, "mines": list(event.mines)}
            continue
        step += 1
        key = str(step)
        kinds.append(_KINDS[type(event)])
        cells.append(event.cell)
        why.append(-1 if event.reason is None else reasons.setdefault(event.reason, len(reasons)))
        detail = dict(event.detail) if event.detail else {}
        if isinstance(event, Reveal):
            values.extend("*" if value == MINE else str(value) for _, value in event.revealed)
            if len(event.revealed) > 1:
                more[key] = [cell for cell, _ in event.revealed[1:]]
            if event.guess or event.probability is not None:
                guesses[key] = {"p": event.probability}
            if ODDS in detail:
                odds[key] = _odds(detail.pop(ODDS), header.rows * header.cols, line)
        if detail:
            details[key] = detail
    log.debug("packed %d step(s), %d reason(s)", len(kinds), len(reasons))
    return {
        "version": SCRIPT_VERSION,
        "title": title,
        "rows": header.rows,
        "cols": header.cols,
        "mines": header.mines,
        "total_known": header.rules.total_known,
        "rules": header.rules.to_json(),
        "kinds": "".join(kinds),
        "cells": cells,
        "why": why,
        "reasons": list(reasons),
        "values": "".join(values),
        "more": more,
        "guesses": guesses,
        "odds": odds,
        "details": details,
        "hits": hits,
        "outcome": outcome,
        "judgement": None if judgement is None else _judged(judgement, header.rows * header.cols),
    }


def _judged(judgement: Judgement, cells: int) -> dict[str, Any]:
    """A judgement as the page's data (its cells checked to be on the board).

    Raises
    ------
    ValueError
        One of its cells is not a cell of the board.
    """
    outside = [c for c in judgement.cells if not 0 <= c < cells]
    if outside:
        raise ValueError(f"judgement: {outside[0]} is not a cell 0..{cells - 1}")
    return {
        "verdict": judgement.verdict,
        "text": judgement.text,
        "after": judgement.after,
        "cells": list(judgement.cells),
    }


def _odds(value: object, cells: int, line: int) -> dict[str, float]:
    """A reveal's odds (from the record's ``line``) as ``{cell: probability}``, checked."""
    if not isinstance(value, dict):
        raise RecordFormatError("odds: not an object", line=line, field="detail")
    checked: dict[str, float] = {}
    for key, p in value.items():
        try:
            cell = int(key)
        except (TypeError, ValueError):
            cell = -1
        if not 0 <= cell < cells:
            raise RecordFormatError(
                f"odds: {key!r} is not a cell 0..{cells - 1}", line=line, field="detail"
            )
        if isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p <= 1:
            raise RecordFormatError(
                f"odds: {p!r} for cell {cell} is not a probability 0..1", line=line, field="detail"
            )
        checked[str(cell)] = float(p)
    return checked
