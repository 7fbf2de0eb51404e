"""Server: the app on uvicorn, on a socket bound before anything starts.

Needs the ``web`` extra (uvicorn). Binding first means a port in use is one clear error
before any worker starts; a host other than this machine's own names makes the app answer
any ``Host`` (it could not know the names it is reached by), and only loopback binds get
the protection against DNS rebinding (:func:`~.app.create_app`'s ``hosts``).

The HTTP layer is uvicorn's h11 protocol with two things it has no setting for
(:class:`Protocol`): a deadline on a request's head, and the security headers on the two
answers it makes itself, before any app runs. Everything else is uvicorn's configuration as
documented: the keep-alive timeout, the largest head h11 buffers.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import h11
import uvicorn
from fastapi import FastAPI
from uvicorn.protocols.http.h11_impl import H11Protocol

from .app import create_app
from .guard import answer_bytes
from .limits import LOOPBACK, Limits

__all__ = ["Protocol", "bind", "config", "in_background", "is_loopback", "run", "url_of"]

log = logging.getLogger(__name__)

KEEP_ALIVE_SECONDS = 5
"""How long an idle kept-alive connection stays open after an answer (uvicorn's
``timeout_keep_alive``)."""

HEAD_BYTES = 16 * 1024
"""The largest request head h11 buffers (uvicorn's ``h11_max_incomplete_event_size``)."""


class Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, with a deadline on each request's head and the security
    headers on the answers it makes itself.

    A subclass, because neither can be set: uvicorn's only timer on a connection is the
    keep-alive one, armed after an answer, so a client that opens a connection and sends
    its head a byte at a time (or nothing) is never timed out; and its 400 for a request h11
    cannot parse (a malformed header line, a bad ``Content-Length``, two ``Host`` headers)
    is written straight to the socket with two fixed headers, before any app or middleware
    runs, and uvicorn's ``headers`` setting does not reach it. The subclass extends the
    protocol's public callbacks (each calls uvicorn's own, then watches the head) and
    replaces ``send_400_response``; nothing of uvicorn's is patched.

    Attributes
    ----------
    head_seconds:
        The time a request's head may take, from the connection's opening or from the
        first byte of a later request on it; past it, the connection is closed (with a 408
        if part of a head had come).
    """

    head_seconds: float = 10.0
    _head: asyncio.TimerHandle | None = None
    """The head's timer, while a head is awaited."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """Answer a request h11 could not parse: 400, the security headers, one line of
        JSON; then close."""
        self._stop_head()
        if not self.transport.is_closing():
            self.transport.write(
                answer_bytes(
                    400, "the request is not valid HTTP/1.1 (its request line or a header)"
                )
            )
            self.transport.close()

    def _watch_head(self) -> None:
        """Arm the head's timer while a head is awaited, disarm it once the head is in."""
        awaiting = self.conn.their_state is h11.IDLE and not self.transport.is_closing()
        if awaiting and self._head is None:
            self._head = self.loop.call_later(self.head_seconds, self._head_too_slow)
        elif not awaiting:
            self._stop_head()

    def _stop_head(self) -> None:
        if self._head is not None:
            self._head.cancel()
            self._head = None

    def _head_too_slow(self) -> None:
        """The head did not arrive in time: close (with a 408 if part of it came)."""
        self._head = None
        if self.conn.their_state is not h11.IDLE or self.transport.is_closing():
            return
        partial, _ = self.conn.trailing_data
        if partial:
            self.transport.write(
                answer_bytes(
                    408, f"the request's head did not arrive within {self.head_seconds:g} s"
                )
            )
            client = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
            log.info(
                "%s sent too slow a request head: closed after %g s", client, self.head_seconds
            )
        self.transport.close()


def protocol(head_seconds: float) -> type[Protocol]:
    """:class:`Protocol` with ``head_seconds`` as its head's deadline."""

    class Timed(Protocol):
        pass

    Timed.head_seconds = head_seconds
    return Timed


def config(app: FastAPI, limits: Limits, **options: Any) -> uvicorn.Config:
    """uvicorn's configuration of the server: the protocol with the head's deadline of
    ``limits``, the keep-alive timeout, the largest head; ``options`` passed on.

    Examples
    --------
    >>> made = config(create_app(), Limits(head_seconds=3.0))
    >>> made.timeout_keep_alive, made.http.head_seconds
    (5, 3.0)
    """
    return uvicorn.Config(
        app,
        http=protocol(limits.head_seconds),
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        h11_max_incomplete_event_size=HEAD_BYTES,
        log_config=None,
        lifespan="on",
        **options,
    )


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach ``host``.

    Examples
    --------
    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    return host in LOOPBACK or host.startswith("127.")


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: any free port).

    Raises
    ------
    OSError
        The address cannot be bound (in use, not this machine's, a privileged port).
    """
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    """The address of the page served on ``sock``.

    Examples
    --------
    >>> with bind("127.0.0.1", 0) as sock:
    ...     url_of(sock).startswith("http://127.0.0.1:")
    True
    """
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def run(
    sock: socket.socket,
    *,
    host: str,
    limits: Limits | None = None,
    on_ready: Callable[[], None] | None = None,
    access_log: bool = False,
) -> None:
    """Serve the app on ``sock`` until Ctrl-C (or SIGTERM); then stop cleanly.

    Parameters
    ----------
    sock:
        From :func:`bind`.
    host:
        The host it was bound for: a loopback name restricts the ``Host`` headers answered.
    limits:
        The app's limits (:class:`~.limits.Limits`).
    on_ready:
        Called once the server answers (from another thread): to open a browser, say.
    access_log:
        Log every request (at ``INFO``).

    Raises
    ------
    KeyboardInterrupt
        After a clean stop on Ctrl-C (uvicorn raises the signal again once it has shut down).
    """
    hosts = sorted({*LOOPBACK, host}) if is_loopback(host) else None
    limits = limits if limits is not None else Limits()
    app = create_app(limits, hosts=hosts)
    server = uvicorn.Server(config(app, limits, access_log=access_log, timeout_graceful_shutdown=5))
    if on_ready is not None:
        callback = on_ready

        def wait() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                callback()

        threading.Thread(target=wait, name="on-ready", daemon=True).start()
    log.info("serving on %s", url_of(sock))
    server.run(sockets=[sock])


@contextmanager
def in_background(limits: Limits | None = None, *, app: FastAPI | None = None) -> Iterator[str]:
    """Serve the app on a free port of 127.0.0.1 in a thread, for scripts and tests.

    Parameters
    ----------
    limits:
        The server's limits (the defaults when ``None``).
    app:
        The app to serve (made with ``limits`` when ``None``): a test passes its own to
        read its state (``app.state.workers.counts``, say).

    Yields
    ------
    str
        The page's address, once the server answers (its workers started).

    Raises
    ------
    RuntimeError
        The server did not start within a minute.
    """
    sock = bind("127.0.0.1", 0)
    limits = limits if limits is not None else Limits()
    app = app if app is not None else create_app(limits, hosts=list(LOOPBACK))
    server = uvicorn.Server(config(app, limits, access_log=False))
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="web-server", daemon=True
    )
    thread.start()
    try:
        for _ in range(1200):
            if server.started or not thread.is_alive():
                break
            threading.Event().wait(0.05)
        if not server.started:
            raise RuntimeError("the web server did not start within a minute")
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()
