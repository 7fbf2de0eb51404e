"""App: the ASGI application of ``mineshafted serve``: the page, its assets and the JSON API.

Needs the ``web`` extra (FastAPI). The routes are FastAPI routers by concern
(:mod:`.routes`); this module puts them together with the guard, the refusals and the
worker processes. Every answer carries a content security policy that lets the page load
only its own server's script and style and talk only to its own server; every refusal is
one line of JSON, ``{"error": "..."}``, with a 4xx status (413 for a body or a position
too large, 503 past the compute budget or busy), never a traceback.

Glossary
--------
guard
    The ASGI middleware around everything (:class:`~.guard.Guard`): sizes, deadlines,
    requests in flight, gone clients, the security headers.
live game
    A game of Play kept on the server. Nothing answered about it while it is on depends on
    its hidden cells: not its seed (shown at the end), not its board (Watch replays a game
    by its id only once it is over).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import MineshaftedError
from .context import Context
from .errors import RequestError
from .games import LEVELS
from .guard import CSP, HEADERS, Guard, refusal_body
from .limits import Limits
from .refusals import validation_error
from .routes import ROUTERS
from .workers import Workers

__all__ = ["CSP", "HEADERS", "LEVELS", "create_app"]

log = logging.getLogger(__name__)


def create_app(limits: Limits | None = None, *, hosts: list[str] | None = None) -> FastAPI:
    """The application: the page at ``/``, the API under ``/api``, its document at ``/api``.

    Parameters
    ----------
    limits:
        The server's bounds (:class:`~.limits.Limits`); the defaults when ``None``.
    hosts:
        The ``Host`` headers to answer (``None``: any). A server bound to this machine only
        answers its own names, so a web page elsewhere cannot reach it by renaming an address
        (DNS rebinding).

    Returns
    -------
    FastAPI
        The ASGI app; its worker processes start with its lifespan (uvicorn's, or a test
        client's ``with`` block) and end with it.
    """
    limits = limits if limits is not None else Limits()
    context = Context.of(limits)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        workers = Workers(limits.workers, seconds=limits.seconds, memory=limits.memory)
        await run_in_threadpool(workers.start)
        context.workers = workers
        app.state.workers = workers  # for tests and benchmarks: the pool's counts
        log.info("%d worker(s) started", limits.workers)
        try:
            yield
        finally:
            context.workers = None
            await run_in_threadpool(workers.close)

    app = FastAPI(
        title="mineshafted",
        version=_version(),
        description="The live Minesweeper environment's API: exact odds, explanations, live "
        'games and watched games. Every refusal is `{"error": "one line"}`.',
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.context = context
    app.add_middleware(
        Guard,
        limit=limits.body,
        hosts=hosts,
        body_seconds=limits.body_seconds,
        requests=limits.requests,
    )
    _handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    return app


def _error(error: RequestError) -> Response:
    """The answer to a refusal: one line of JSON (ASCII, whatever the message quotes)."""
    return Response(
        refusal_body(str(error)), status_code=error.status, media_type="application/json"
    )


def _handlers(app: FastAPI) -> None:
    """Every refusal as one line of JSON; nothing else ever reaches the client."""

    @app.exception_handler(RequestError)
    async def refused(_request: Request, error: RequestError) -> Response:
        return _error(error)

    @app.exception_handler(MineshaftedError)
    async def unplayable(_request: Request, error: MineshaftedError) -> Response:
        return _error(RequestError(422, str(error)))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> Response:
        detail = error.detail if isinstance(error.detail, str) else "refused"
        return _error(RequestError(error.status_code, detail))

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> Response:
        return _error(validation_error(list(error.errors())))

    # Any other exception reaches the guard, which logs it once and answers 500 in one line.


def _version() -> str:
    """The installed package's version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mineshafted")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree not installed
        return "unknown"
