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
    >>> Limits().seconds, Limits(seconds=0.5).games
    (5.0, 100)
    """

    seconds: float = 5.0
    """The compute budget: a computation (odds, an explanation, a board, a watched game) that
    has not finished by then is stopped and the request answered 503."""
    workers: int = 2
    """Worker processes that compute; a request waits at most :attr:`seconds` for one."""
    memory: int = 2048
    """Each worker's address-space limit, in MiB."""
    games: int = 100
    """Live games kept at once (Play and Watch each): making one more ends the least
    recently used."""
    idle: float = 3600.0
    """Seconds a live game is kept after its last request."""
    body: int = MAX_BODY_BYTES
    """The largest request body, in bytes."""
