"""``mineshafted serve``: the live web environment on this machine, in the browser."""

from __future__ import annotations

from typing import Annotated

import typer

from .output import fail

__all__ = ["HELP", "command"]

HELP = (
    "Serve the live web environment and open it in the browser: Play (with hints, a heat map "
    "of exact odds and Why? on any decided cell), Analyse (edit or paste any position: its "
    "odds, safe cells and best move) and Watch (an agent, the best policy or an S4 rule file "
    "playing a board step by step). The JSON API is documented at /api on the same server.\n\n"
    "Needs the web extra: pip install 'mineshafted[web]'.\n\n"
    "The server listens on 127.0.0.1 (this machine only) unless --host says otherwise; anyone "
    "who can reach another address can use this machine's CPU through it. It reads no file on "
    "request, bounds every request (8 MiB bodies, 1,000,000-cell positions, 10 s to send a "
    "request's headers and 30 s its body, a few seconds of computing each, stopped when the "
    "client goes away) and keeps at most 100 live games, each for an hour after its last use; "
    "a game in play is never ended to make room for a new one. Ctrl-C stops it.\n\n"
    "Exit status: 0 stopped; 2 the address cannot be used, or the web extra is missing."
)
"""The command's ``--help`` text."""


def command(
    host: Annotated[
        str,
        typer.Option(
            help="Address to listen on. 127.0.0.1 (the default) is this machine only; 0.0.0.0 "
            "is every network this machine is on."
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(min=0, max=65535, help="Port to listen on (0: any free port)."),
    ] = 8765,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Do not open the page in a browser.")
    ] = False,
) -> None:
    """Bind, say where, open the browser, and serve until Ctrl-C."""
    import logging

    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as error:
        from ..studies import MissingExtraError

        package = {"fastapi": "FastAPI"}.get(error.name or "", error.name or "FastAPI")
        fail(str(MissingExtraError("web", package=package, needed_by="serve")))
    from ..web.server import bind, is_loopback, run, url_of

    try:
        sock = bind(host, port)
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    url = url_of(sock)
    if not is_loopback(host):
        typer.echo(
            f"warning: listening on {host}: anyone who can reach this address can use this "
            "machine's CPU through the server",
            err=True,
        )

    def ready() -> None:
        typer.echo(f"serving on {url} (Ctrl-C stops it)")
        if no_browser:
            return
        import webbrowser

        if not webbrowser.open(url):
            typer.echo(f"note: no browser could be started; open {url} in one", err=True)

    verbose = logging.getLogger().isEnabledFor(logging.INFO)
    try:
        with sock:
            run(sock, host=host, on_ready=ready, access_log=verbose)
    except KeyboardInterrupt:
        pass
    typer.echo("stopped")
