"""Guard: the ASGI middleware around the whole app, and the answers the server makes itself.

Every answer the server sends carries :data:`HEADERS`, the app's (through :class:`Guard`)
and the HTTP layer's own (:func:`answer_bytes`, for a malformed request or a request head
that took too long). Every refusal is one line of JSON, ``{"error": "..."}``.

Glossary
--------
arrival
    When the request reached the app (``request.state.arrived``, :func:`time.monotonic`):
    the body's deadline and the wait for a worker count from here.
client gone
    A client that closed its connection before its answer: its request is dropped with one
    line in the log at ``INFO``, and any computing for it is stopped.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from http import HTTPStatus
from typing import Any, Final

from starlette.requests import ClientDisconnect

from ..text import visible
from .errors import RequestError

__all__ = ["CSP", "HEADERS", "ClientGone", "Guard", "answer_bytes", "refusal_body"]

log = logging.getLogger(__name__)

CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The content security policy of every answer: the page's own script, style and API, and
nothing from anywhere else."""

HEADERS: Final = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}
"""The headers every answer carries."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class ClientGone(Exception):
    """The client closed its connection before its answer (raised in a route)."""


class _TooLarge(Exception):
    """The body grew past the limit while it was read."""


class _TooSlow(Exception):
    """The body did not arrive within its deadline."""


def refusal_body(message: str) -> bytes:
    """A refusal's JSON: one line, ASCII only (so no string from outside can break it).

    Examples
    --------
    >>> refusal_body("cell: [9, 0] is off the board")
    b'{"error":"cell: [9, 0] is off the board"}'
    """
    return json.dumps({"error": visible(" ".join(message.split()))}, separators=(",", ":")).encode()


def answer_bytes(status: int, message: str) -> bytes:
    """A whole HTTP/1.1 refusal, for the server's own answers (a malformed request, a head
    too slow): the status, :data:`HEADERS`, ``Connection: close`` and the one-line JSON.

    Examples
    --------
    >>> answer_bytes(400, "malformed").splitlines()[0]
    b'HTTP/1.1 400 Bad Request'
    """
    body = refusal_body(message)
    lines = [
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
        *(f"{name}: {value}" for name, value in HEADERS.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class Guard:
    """The middleware: refuse before reading what must be refused, bound the body's reading,
    count the requests in flight, drop a gone client quietly, and answer every failure in
    one line with :data:`HEADERS`.

    Before the app sees a request: a ``Host`` not in ``hosts`` is a 400; a declared body
    over ``limit`` bytes a 413; a POST not declared JSON a 415; a request past ``requests``
    in flight a 503. While the app reads the body: past ``limit`` bytes a 413, past
    ``body_seconds`` from the arrival a 408. An answer sent before the body was read whole
    closes the connection (the rest of the body is never read, so a client cannot keep the
    connection by trickling it). A client that goes away is one ``INFO`` line. An unexpected
    exception is one ``ERROR`` record with its traceback, and a 500 in one line. Every
    answer gets :data:`HEADERS` and
    ``Server-Timing: app;dur=<ms>``, the time from the arrival to the answer's start (the
    benchmark reads it).
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        limit: int,
        hosts: list[str] | None,
        body_seconds: float = 30.0,
        requests: int = 64,
    ) -> None:
        self.app = app
        self.limit = limit
        self.hosts = None if hosts is None else {h.lower() for h in hosts}
        self.body_seconds = body_seconds
        self.requests = requests
        self.active = 0
        """Requests in flight now."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        exchange = _Exchange(scope, receive, send, limit=self.limit, seconds=self.body_seconds)
        refusal = self._refusal(scope, exchange.headers)
        if refusal is None and self.active >= self.requests:
            refusal = RequestError(
                503, f"the server is answering {self.requests} requests at once; try again"
            )
        if refusal is not None:
            await exchange.refuse(refusal)
            return
        self.active += 1
        try:
            await self._run(exchange)
        finally:
            self.active -= 1

    async def _run(self, exchange: _Exchange) -> None:
        """Run the app on one request, each failure answered (or logged) as the class says."""
        scope = exchange.scope
        try:
            await self.app(scope, exchange.receive, exchange.send)
        except _TooLarge:
            await exchange.refuse(RequestError(413, self._too_large()))
        except _TooSlow:
            log.info("%s sent too slow a body: refused after %g s", _who(scope), self.body_seconds)
            message = f"the body did not arrive within {self.body_seconds:g} s"
            await exchange.refuse(RequestError(408, message))
        except (ClientGone, ClientDisconnect) as gone:
            log.info(
                "%s went away before its answer (%s %s)%s",
                _who(scope),
                scope["method"],
                visible(scope["path"][:80]),
                ": its computing stopped" if isinstance(gone, ClientGone) else "",
            )
        except Exception as error:
            log.error("internal error in %s %s", scope["method"], scope["path"], exc_info=error)
            name = type(error).__name__
            await exchange.refuse(
                RequestError(500, f"internal error ({name}): see the server's log")
            )

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> RequestError | None:
        """Why the request is refused before it is read, if it is."""
        if self.hosts is not None:
            host = headers.get("host", "")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name.strip("[]").lower() not in self.hosts:
                return RequestError(400, f"this server does not answer to the host {host[:60]!r}")
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            return RequestError(413, self._too_large())
        if scope["method"] == "POST" and length != "0":
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json" and (length is not None or kind):
                shown = kind or "none"
                return RequestError(
                    415, f"the body must be JSON, sent as application/json (not {shown[:60]})"
                )
        return None

    def _too_large(self) -> str:
        return f"the body is larger than {self.limit:,} bytes ({self.limit // 2**20} MiB)"


class _Exchange:
    """One request as the guard sees it: its headers, how much of its body has come, and
    whether its answer has started.

    :meth:`receive` and :meth:`send` stand between the app and the server: the first bounds
    the body (``limit`` bytes, ``seconds`` from the arrival), the second adds
    :data:`HEADERS` and ``Server-Timing`` to the answer's start.
    """

    def __init__(
        self, scope: Scope, receive: Receive, send: Send, *, limit: int, seconds: float
    ) -> None:
        self.scope = scope
        self.began = time.perf_counter()
        self.arrived = time.monotonic()
        scope.setdefault("state", {})["arrived"] = self.arrived
        self.headers = {
            k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]
        }
        self.has_body = (
            self.headers.get("content-length", "0") != "0" or "transfer-encoding" in self.headers
        )
        self.limit = limit
        self.seconds = seconds
        self.started = False
        """Whether the answer has started."""
        self.read = False
        """Whether the body has been read whole."""
        self.seen = 0
        """The body's bytes read so far."""
        self._receive = receive
        self._send = send

    async def send(self, message: Message) -> None:
        """Send ``message``, the answer's start with :data:`HEADERS` and its timing."""
        if message["type"] == "http.response.start":
            self.started = True
            took = f"app;dur={(time.perf_counter() - self.began) * 1000:.2f}"
            extra = [(k.encode(), v.encode()) for k, v in HEADERS.items()]
            extra.append((b"server-timing", took.encode()))
            if self.has_body and not self.read:  # answered before its body was in: never read
                extra.append((b"connection", b"close"))
            message["headers"] = [*message.get("headers", []), *extra]
        await self._send(message)

    async def receive(self) -> Message:
        """The next message, the body bounded in size and in time."""
        if self.read:  # the body is in: what follows is the client's going, whenever
            return await self._receive()
        try:
            message = await asyncio.wait_for(
                self._receive(), max(0.0, self.arrived + self.seconds - time.monotonic())
            )
        except TimeoutError:
            raise _TooSlow from None
        if message["type"] == "http.request":
            self.seen += len(message.get("body", b""))
            if self.seen > self.limit:
                raise _TooLarge
            self.read = not message.get("more_body", False)
        return message

    async def refuse(self, error: RequestError) -> None:
        """Answer ``error``, unless an answer has started already."""
        if not self.started:
            await _answer(error, self.send)


async def _answer(error: RequestError, send: Send) -> None:
    """Send the refusal ``error``."""
    body = refusal_body(str(error))
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _who(scope: Scope) -> str:
    """The client, as the log names it."""
    client = scope.get("client")
    return "a client" if not client else f"client {client[0]}:{client[1]}"
