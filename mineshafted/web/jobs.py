"""Jobs: what the worker processes compute, by name, each from plain picklable arguments.

A job that answers a request directly returns the answer's JSON as bytes, made in the worker
(a large grid is not serialised in the server's event loop); the others return plain data
for the server to keep.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..game import GameRecord
from ..generate import generate
from ..probability import view_odds
from .analysis import analyze
from .bodies import position, position_and_cell, validated
from .explanation import explain
from .hints import hint
from .loading import load
from .requests import LoadIn
from .review import review
from .survey import survey
from .tracing import traced
from .watching import Watch, watch

__all__ = ["JOBS", "answer"]


def answer(data: object) -> bytes:
    """``data`` as compact JSON bytes."""
    return json.dumps(data, separators=(",", ":")).encode()


def _analyze(raw: bytes) -> bytes:
    """``POST /api/analyze``."""
    read = position(raw)
    return answer(analyze(read.board, read.mines).to_json())


def _explain(raw: bytes) -> bytes:
    """``POST /api/explain``."""
    read, cell = position_and_cell(raw)
    return answer(explain(read.board, read.mines, cell).to_json())


def _survey(raw: bytes) -> bytes:
    """``POST /api/survey``."""
    read = position(raw)
    return answer(survey(read.board, read.mines, view_odds(read.board, read.mines)))


def _load(raw: bytes) -> bytes:
    """``POST /api/load``."""
    body = validated(LoadIn, raw)
    return answer(load(body.text, mines=body.mines).to_json())


def _review(record: GameRecord) -> dict[str, Any]:
    """A finished game's review (see :func:`.review.review`)."""
    return review(record)


def _hint(argument: tuple[list[list[int | None]], int]) -> dict[str, Any]:
    """A live game's hint (see :func:`.hints.hint`)."""
    grid, mines = argument
    return hint(grid, mines).to_json()


def _generate(argument: dict[str, Any]) -> dict[str, Any]:
    """A no-guess board's ``mines`` and its ``rating`` (see
    :func:`mineshafted.generate.generate`)."""
    made = generate(
        argument["rows"],
        argument["cols"],
        argument["mines"],
        seed=argument["seed"],
        start=argument["start"],
        timeout=argument["timeout"],
        **argument.get("extra", {}),
    )
    return {"mines": sorted(made.board.mines), "rating": made.technique.value}


def _watch(argument: Watch) -> dict[str, Any]:
    """A game played by a watched player (see :func:`.watching.watch`)."""
    return watch(argument)


def _echo(argument: object) -> object:
    """The argument itself: for tests of the pool."""
    return argument


def _sleep(seconds: float) -> float:
    """Sleep, then return ``seconds``: for tests of the deadline."""
    import time

    time.sleep(seconds)
    return seconds


JOBS: dict[str, Callable[[Any], Any]] = {
    "analyze": _analyze,
    "explain": _explain,
    "survey": _survey,
    "load": _load,
    "hint": _hint,
    "review": _review,
    "generate": _generate,
    "watch": _watch,
    "learn": traced,
    "echo": _echo,
    "sleep": _sleep,
}
"""Every job by name: the only functions a worker runs."""
