"""Pool counts: what the server's pool of workers (:mod:`.workers`) has done since it started."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

__all__ = ["PoolCounts"]


@dataclass
class PoolCounts:
    """What the pool has done since it started: its own account, for tests and the log."""

    served: int = 0
    """Jobs that came back (a value, or the job's own refusal)."""
    busy: int = 0
    """Requests refused because no worker was free within the budget of their arrival."""
    late: int = 0
    """Jobs stopped past their deadline (their worker killed)."""
    cancelled: int = 0
    """Jobs stopped because their client went away (their worker killed)."""
    ended: int = 0
    """Jobs whose worker died under them."""
    running: int = 0
    """Jobs being computed now."""
    longest_wait: float = 0.0
    """The longest a request waited, from its arrival, for a worker or for its refusal."""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def count(self, name: str, change: int = 1) -> None:
        """Add ``change`` to the counter ``name``."""
        with self.lock:
            setattr(self, name, getattr(self, name) + change)

    def waited(self, seconds: float) -> None:
        """Note a wait of ``seconds`` from a request's arrival."""
        with self.lock:
            self.longest_wait = max(self.longest_wait, seconds)
