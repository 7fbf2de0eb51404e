"""Server: the app on uvicorn, on a socket bound before anything starts.

Needs the ``web`` extra (uvicorn). Binding first means a port in use is one clear error
before any worker starts; a host other than this machine's own names makes the app answer
any ``Host`` (it could not know the names it is reached by), and only loopback binds get
the protection against DNS rebinding (:func:`~.app.create_app`'s ``hosts``).
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import uvicorn

from .app import create_app
from .limits import LOOPBACK, Limits

__all__ = ["bind", "in_background", "is_loopback", "run", "url_of"]

log = logging.getLogger(__name__)


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
    app = create_app(limits, hosts=hosts)
    config = uvicorn.Config(
        app,
        log_config=None,
        access_log=access_log,
        lifespan="on",
        timeout_graceful_shutdown=5,
    )
    server = uvicorn.Server(config)
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
def in_background(limits: Limits | None = None) -> Iterator[str]:
    """Serve the app on a free port of 127.0.0.1 in a thread, for scripts and tests.

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
    app = create_app(limits, hosts=list(LOOPBACK))
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, access_log=False, lifespan="on"))
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
