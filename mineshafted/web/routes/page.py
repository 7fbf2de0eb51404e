"""The page's routes: its files, the API document, and what the server offers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from .. import schema
from ..apipage import api_page
from ..context import Served
from ..games import LEVELS
from ..limits import MAX_GAME_CELLS
from ..watching import players

__all__ = ["ASSETS", "router", "serve_assets"]

ASSETS: Final = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/shared.js": ("shared.js", "text/javascript; charset=utf-8"),
    "/play.js": ("play.js", "text/javascript; charset=utf-8"),
    "/analyse.js": ("analyse.js", "text/javascript; charset=utf-8"),
    "/watch.js": ("watch.js", "text/javascript; charset=utf-8"),
}
"""The page's files, read once from the package when the app is made: no request reads a
file. ``app.js`` starts the page and its tabs; each tab has its own script (a new tab adds
its own here), and ``shared.js`` the board and the API client they share."""

router = APIRouter()


def _asset(name: str) -> bytes:
    """One of the page's files, from the package."""
    return resources.files(__package__.rsplit(".", 1)[0]).joinpath("static", name).read_bytes()


def _static(content: bytes, kind: str) -> Callable[[], Awaitable[Response]]:
    """An endpoint answering one of the page's files."""

    async def asset() -> Response:
        return Response(content, media_type=kind)

    return asset


def serve_assets(target: APIRouter, assets: dict[str, tuple[str, str]]) -> None:
    """Add to ``target`` a route for each of ``assets`` (path -> file name in ``static/``,
    media type), each file read once, now."""
    for path, (name, kind) in assets.items():
        target.add_api_route(
            path, _static(_asset(name), kind), methods=["GET"], include_in_schema=False
        )


serve_assets(router, ASSETS)


@router.get("/api", include_in_schema=False)
async def api_document(request: Request) -> HTMLResponse:
    """The API's document as a page."""
    state = request.app.state
    if getattr(state, "api_page", None) is None:
        state.api_page = api_page(request.app.openapi())
    return HTMLResponse(state.api_page)


@router.get("/api/config", response_model=schema.ConfigOut, summary="What the server offers")
async def config(served: Served) -> dict[str, Any]:
    """The players Watch offers, the techniques a no-guess board can be made for, the classic
    levels and the limits."""
    limits = served.limits
    return {
        "players": players(),
        "techniques": schema.techniques(),
        "levels": {name: list(level) for name, level in LEVELS.items()},
        "limits": {
            "seconds": limits.seconds,
            "watch_seconds": limits.watch_seconds,
            "body_bytes": limits.body,
            "head_seconds": limits.head_seconds,
            "body_seconds": limits.body_seconds,
            "game_cells": MAX_GAME_CELLS,
            "games": limits.games,
            "keep_seconds": limits.keep,
            "idle_seconds": limits.idle,
        },
    }
