"""Store: live things by id (games of Play, watched games), bounded, the idle dropped first.

Glossary
--------
done
    A thing that may be dropped first to make room (a game that is over).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from .errors import RequestError

__all__ = ["Store"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class Store(Generic[T]):
    """Live things by id, at most ``limit`` of them, each dropped ``idle`` seconds after its
    last use.

    Making one past the limit drops one to make room: the least recently used of those
    ``done`` (a game over), else the least recently used if it has been idle ``keep``
    seconds; when every one was used more recently, the new one is refused (503), so a
    burst of new games never ends a game in play.

    Examples
    --------
    >>> store: Store[str] = Store(2, idle=60.0)
    >>> a, b = store.add("a"), store.add("b")
    >>> c = store.add("c")  # "a" is dropped
    >>> store.get(c), len(store)
    ('c', 2)
    >>> store.get(a)
    Traceback (most recent call last):
    ...
    mineshafted.web.errors.RequestError: no live game ... (ended, expired or never made)
    >>> busy: Store[str] = Store(1, idle=60.0, keep=30.0)
    >>> _ = busy.add("in play")
    >>> busy.add("one more")
    Traceback (most recent call last):
    ...
    mineshafted.web.errors.RequestError: the server keeps at most 1 live game(s), each used in \
the last 30 s: end one, or try again later
    """

    def __init__(
        self,
        limit: int,
        *,
        idle: float,
        keep: float = 0.0,
        what: str = "game",
        done: Callable[[T], bool] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.idle = idle
        self.keep = keep
        self.what = what
        self.done = done
        self.clock = clock
        self._items: OrderedDict[str, tuple[T, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def add(self, item: T) -> str:
        """Keep ``item``; return its new id.

        Raises
        ------
        RequestError
            503: the store is full and every item in it was used in the last ``keep``
            seconds.
        """
        self._expire()
        while len(self._items) >= self.limit:
            old = self._room()
            del self._items[old]
            log.info("dropped live %s %s to make room: %d kept at most", self.what, old, self.limit)
        key = secrets.token_urlsafe(12)
        self._items[key] = (item, self.clock())
        return key

    def get(self, key: str) -> T:
        """The item kept as ``key``, now used.

        Raises
        ------
        RequestError
            404: no item has that id (it expired, was dropped, or never was).
        """
        self._expire()
        found = self._items.get(key)
        if found is None:
            shown = key if len(key) <= 24 else key[:24] + "..."  # made visible by the error
            raise RequestError(404, f"no live {self.what} {shown!r} (ended, expired or never made)")
        self._items[key] = (found[0], self.clock())
        self._items.move_to_end(key)
        return found[0]

    def remove(self, key: str) -> None:
        """Drop ``key`` (nothing if it is not kept)."""
        self._items.pop(key, None)

    def _room(self) -> str:
        """The id to drop for a new item (see the class).

        Notes
        -----
        ``O(limit)``: the items are kept least recently used first.
        """
        if self.done is not None:
            for key, (item, _) in self._items.items():
                if self.done(item):
                    return key
        key, (_, used) = next(iter(self._items.items()))
        if self.clock() - used >= self.keep:
            return key
        raise RequestError(
            503,
            f"the server keeps at most {self.limit} live {self.what}(s), each used in the last "
            f"{self.keep:g} s: end one, or try again later",
        )

    def _expire(self) -> None:
        """Drop every item unused for ``idle`` seconds."""
        now = self.clock()
        while self._items:
            key, (_, used) = next(iter(self._items.items()))
            if now - used < self.idle:
                return
            del self._items[key]
            log.info("live %s %s expired", self.what, key)
