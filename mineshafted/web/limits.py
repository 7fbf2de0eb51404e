"""Limits: every bound the web server puts on what a request may ask, in one place.

Each is a default of :class:`Limits`; a test or a benchmark makes its own (a short compute
budget, say) and hands it to :func:`mineshafted.web.app.create_app`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..formats import MAX_CELLS

__all__ = [
    "LOOPBACK",
    "MAX_BODY_BYTES",
    "MAX_CELLS",
    "MAX_GAME_CELLS",
    "MAX_SEED",
    "Limits",
]

MAX_BODY_BYTES: Final = 8 * 1024 * 1024
"""The largest request body: 8 MiB (a 1,000,000-cell position fits)."""

MAX_GAME_CELLS: Final = 40_000
"""The largest board a live game or a watched game may have (200x200): every cell is drawn
in the page, and a game keeps its board in the server's memory."""

MAX_SEED: Final = 2**53 - 1
"""The largest seed a request may set: a page's numbers hold integers exactly up to here."""

LOOPBACK: Final = ("127.0.0.1", "localhost", "::1")
"""The hosts that only this machine can reach."""


@dataclass(frozen=True)
class Limits:
    """The server's bounds on computing and on what it keeps.

    Examples
    --------
    >>> Limits().seconds, Limits(seconds=0.5).games, Limits().head_seconds
    (5.0, 100, 10.0)
    """

    seconds: float = 5.0
    """The compute budget: a computation (odds, an explanation, a board) that has not
    finished by then is stopped and the request answered 503; and the longest a request
    waits for a free worker, counted from its arrival."""
    watch_seconds: float = 60.0
    """The compute budget of a watched game: long enough for every board Watch admits
    (:data:`MAX_GAME_CELLS` cells) to be played to its end."""
    workers: int = 2
    """Worker processes that compute."""
    memory: int = 2048
    """Each worker's address-space limit, in MiB."""
    games: int = 100
    """Live games kept at once (Play and Watch each)."""
    keep: float = 600.0
    """Seconds after its last request during which a live game is never dropped to make room
    for a new one: with every game in use, a new game is refused (503) instead. Games over
    are dropped first, then the least recently used."""
    idle: float = 3600.0
    """Seconds a live game is kept after its last request."""
    body: int = MAX_BODY_BYTES
    """The largest request body, in bytes."""
    head_seconds: float = 10.0
    """The time a client has to send a request's line and headers, from its first byte
    (or from the connection's opening): past it the connection is closed (a 408 if part of
    a head had come)."""
    body_seconds: float = 30.0
    """The time a client has to send a request's body, from the request's arrival: past it
    the request is answered 408 and the connection closed."""
    requests: int = 64
    """Requests answered at once; one more is refused (503) before its body is read, so
    bodies in memory stay under ``requests`` x :attr:`body`."""
