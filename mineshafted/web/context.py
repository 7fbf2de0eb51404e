"""Context: what the running app keeps (its limits, live games, watched games, workers), and
the one way a route has a worker compute for it.

Every router (:mod:`.routes`) takes it with FastAPI's dependency injection: ``served:
Served`` in a route's parameters.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Annotated, Any, Final

from fastapi import Depends, Request

from .errors import RequestError
from .games import LiveGame, Store
from .guard import ClientGone
from .limits import Limits
from .watching import Watched
from .workers import Workers

__all__ = ["SLOW", "Context", "Served", "context"]

SLOW: Final = {
    "analyze": ": the clues' frontier is too wide to count exactly",
    "explain": ": the clues' frontier is too wide to count exactly",
    "hint": ": the clues' frontier is too wide to count exactly",
    "survey": ": the position has too many cells to look ahead on every one",
    "review": ": the game is too long to review",
    "generate": ": no no-guess board was made in time; lower the density",
    "watch": ": the player did not finish the board in time",
    "load": ": the text is too large",
    "learn": ": the trace is too long to compute here; mineshafted trace shows it",
}
"""What a job past the compute budget is told, after the budget."""


@dataclass
class Context:
    """The app's state while it runs."""

    limits: Limits
    games: Store[LiveGame]
    watches: Store[Watched]
    workers: Workers | None = None

    @classmethod
    def of(cls, limits: Limits) -> Context:
        """An empty context under ``limits``: no game yet, the workers started later."""
        return cls(
            limits,
            Store(
                limits.games,
                idle=limits.idle,
                keep=limits.keep,
                what="game",
                done=lambda live: live.over,
            ),
            Store(
                limits.games,
                idle=limits.idle,
                keep=limits.keep,
                what="watched game",
                done=lambda watched: watched.taken == len(watched.steps),
            ),
        )

    async def compute(
        self, request: Request, job: str, argument: object, *, seconds: float | None = None
    ) -> Any:
        """``job`` computed by a worker for ``request``; stopped if its client goes away.

        Raises
        ------
        RequestError
            The job's refusal, or 503 (no worker free in time, past the budget).
        ClientGone
            The client went away first.
        """
        workers = self.workers
        if workers is None:
            raise RequestError(503, "the server is not running its workers")
        work = asyncio.ensure_future(
            workers.compute(
                job,
                argument,
                slow=SLOW.get(job, ""),
                arrived=getattr(request.state, "arrived", None),
                seconds=seconds,
            )
        )
        gone = asyncio.ensure_future(_gone(request))
        try:
            await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (work, gone):
                task.cancel()
            await asyncio.gather(work, gone, return_exceptions=True)
        if work.done() and not work.cancelled():
            return work.result()
        problem = gone.exception() if gone.done() and not gone.cancelled() else None
        if problem is not None:
            raise problem  # the body's own deadline, say, met while waiting
        raise ClientGone


def context(request: Request) -> Context:
    """The running app's context (a FastAPI dependency)."""
    found: Context = request.app.state.context
    return found


Served = Annotated[Context, Depends(context)]
"""A route's parameter type for the app's context."""


async def _gone(request: Request) -> None:
    """Return once the client has gone (its connection closed)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return
