"""App: the ASGI application of ``mineshafted serve``: the page, its assets and the JSON API.

Needs the ``web`` extra (FastAPI). Every answer carries a content security policy that lets
the page load only its own server's script and style and talk only to its own server; every
refusal is one line of JSON, ``{"error": "..."}``, with a 4xx status (503 past the compute
budget), never a traceback.

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

import asyncio
import html
import json
import logging
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import MineshaftedError
from ..game import FirstMove
from ..solver import Technique
from . import schema
from .bodies import cell_field, choice_field, int_field, json_object, text_field
from .errors import RequestError
from .games import LiveGame, Settings, Store
from .guard import CSP, HEADERS, ClientGone, Guard, refusal_body
from .hints import first_hint
from .learn import router as learn_router
from .limits import MAX_GAME_CELLS, MAX_SEED, Limits
from .watching import RULES, Watch, players
from .workers import Workers

__all__ = ["CSP", "HEADERS", "LEVELS", "create_app"]

log = logging.getLogger(__name__)

LEVELS: Final = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}
"""The classic levels: rows, columns, mines."""

ASSETS: Final = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
}
"""The page's files, read once from the package when the app is made: no request reads a
file."""

SLOW: Final = {
    "analyze": ": the clues' frontier is too wide to count exactly",
    "explain": ": the clues' frontier is too wide to count exactly",
    "hint": ": the clues' frontier is too wide to count exactly",
    "generate": ": no no-guess board was made in time; lower the density",
    "watch": ": the player did not finish the board in time",
    "load": ": the text is too large",
}
"""What a job past the compute budget is told, after the budget."""

ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    status: {"model": schema.ErrorOut, "description": description}
    for status, description in {
        400: "Not JSON.",
        404: "No such live game.",
        408: "The body did not arrive in time.",
        409: "Not now (the game is over, or not started).",
        413: "The body is larger than 8 MiB.",
        415: "The body is not declared application/json.",
        422: "Malformed, off the board, or not decided.",
        503: "Past the compute budget, every worker busy, or every live game in use.",
    }.items()
}
"""The refusals every endpoint may answer, for the OpenAPI document."""


@dataclass
class _State:
    """What the app keeps while it runs."""

    limits: Limits
    workers: Workers | None
    games: Store[LiveGame]
    watches: Store[_Watched]


@dataclass
class _Watched:
    """A watched game: its steps, and how many the page has taken."""

    rows: int
    cols: int
    mines: int
    player: str
    note: str
    steps: list[dict[str, Any]]
    status: str
    guesses: int
    taken: int = 0

    def meta(self, key: str) -> dict[str, Any]:
        return {
            "id": key,
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "player": self.player,
            "note": self.note,
            "total": len(self.steps),
            "step": self.taken,
        }


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
    assets = {path: (_asset(name), kind) for path, (name, kind) in ASSETS.items()}
    state = _State(
        limits,
        None,
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

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        workers = Workers(limits.workers, seconds=limits.seconds, memory=limits.memory)
        await run_in_threadpool(workers.start)
        state.workers = workers
        app.state.workers = workers  # for tests and benchmarks: the pool's tally
        log.info("%d worker(s) started", limits.workers)
        try:
            yield
        finally:
            state.workers = None
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
    app.add_middleware(
        Guard,
        limit=limits.body,
        hosts=hosts,
        body_seconds=limits.body_seconds,
        requests=limits.requests,
    )
    _handlers(app)
    app.include_router(learn_router)

    async def compute(
        request: Request, job: str, argument: object, *, seconds: float | None = None
    ) -> Any:
        """``job`` computed by a worker for ``request``; stopped if its client goes away."""
        workers = state.workers
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

    async def body(request: Request) -> bytes:
        return await request.body()

    # -- the page -------------------------------------------------------------------------

    for path, (content, kind) in assets.items():
        app.add_api_route(path, _static(content, kind), methods=["GET"], include_in_schema=False)

    api_page: list[str] = []

    @app.get("/api", include_in_schema=False)
    async def api_document() -> HTMLResponse:
        if not api_page:
            api_page.append(_api_page(app.openapi()))
        return HTMLResponse(api_page[0])

    @app.get("/api/config", response_model=schema.ConfigOut, summary="What the server offers")
    async def config() -> dict[str, Any]:
        """The players Watch offers, the techniques a no-guess board can be made for, the
        classic levels and the limits."""
        return {
            "players": players(),
            "techniques": _techniques(),
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

    # -- positions ------------------------------------------------------------------------

    @app.post(
        "/api/analyze",
        response_model=schema.AnalysisOut,
        responses=ERRORS,
        openapi_extra=_body(schema.PositionIn),
        summary="Exact odds, decided cells and the best move of a position",
    )
    async def analyze(request: Request) -> Response:
        """The body is a position as `mineshafted probabilities` reads it; the answer's
        `probabilities` are exactly that command's `--json` values."""
        return _json_bytes(await compute(request, "analyze", await body(request)))

    @app.post(
        "/api/explain",
        response_model=schema.ExplanationOut,
        responses=ERRORS,
        openapi_extra=_body(schema.ExplainIn),
        summary="Why a position decides a cell",
    )
    async def explain(request: Request) -> Response:
        """A sound and minimal set of clues that force the cell, whether the mine total is
        needed, and the weakest technique that decides it. A cell the position does not
        decide is a 422."""
        return _json_bytes(await compute(request, "explain", await body(request)))

    @app.post(
        "/api/load",
        response_model=schema.LoadOut,
        responses=ERRORS,
        openapi_extra=_body(schema.LoadIn),
        summary="The position a pasted or uploaded text holds",
    )
    async def load(request: Request) -> Response:
        """A position file, a puzzle file (shown after its first move), a game record
        (shown at its end), or a text grid."""
        return _json_bytes(await compute(request, "load", await body(request)))

    # -- live games -----------------------------------------------------------------------

    @app.post(
        "/api/games",
        response_model=schema.GameOut,
        responses=ERRORS,
        openapi_extra=_body(schema.GameIn),
        summary="Start a live game",
    )
    async def new_game(request: Request) -> dict[str, Any]:
        """The board stays on the server; a random board is drawn, and a no-guess board
        made, at the first click, from the seed."""
        data = json_object(await body(request), fields=tuple(schema.GameIn.model_fields))
        settings = _settings(data)
        live = LiveGame(settings)
        key = state.games.add(live)
        return {"id": key, **live.view()}

    @app.get(
        "/api/games/{key}", response_model=schema.GameOut, responses=ERRORS, summary="A live game"
    )
    async def get_game(key: str) -> dict[str, Any]:
        """What the page shows of the game."""
        return {"id": key, **state.games.get(key).view()}

    @app.delete("/api/games/{key}", status_code=204, responses=ERRORS, summary="End a live game")
    async def end_game(key: str) -> Response:
        """Forget the game."""
        state.games.get(key)
        state.games.remove(key)
        return Response(status_code=204)

    async def cell_of(request: Request, live: LiveGame) -> tuple[int, int]:
        data = json_object(await body(request), fields=("cell",))
        s = live.settings
        return cell_field(data.get("cell"), s.rows, s.cols)

    @app.post(
        "/api/games/{key}/reveal",
        response_model=schema.MoveOut,
        responses=ERRORS,
        openapi_extra=_body(schema.CellIn),
        summary="Reveal a cell",
    )
    async def reveal(key: str, request: Request) -> dict[str, Any]:
        """A zero opens its region; a mine ends the game, and the answer then holds every
        mine."""
        live = state.games.get(key)
        cell = await cell_of(request, live)
        if live.needs_board:
            await _make_board(request, live, cell)
        return live.reveal(cell)

    @app.post(
        "/api/games/{key}/flag",
        response_model=schema.MoveOut,
        responses=ERRORS,
        openapi_extra=_body(schema.CellIn),
        summary="Flag a cell, or take its flag off",
    )
    async def flag(key: str, request: Request) -> dict[str, Any]:
        """A hidden cell only."""
        live = state.games.get(key)
        return live.flag(await cell_of(request, live))

    @app.post(
        "/api/games/{key}/chord",
        response_model=schema.MoveOut,
        responses=ERRORS,
        openapi_extra=_body(schema.CellIn),
        summary="Reveal around a satisfied clue",
    )
    async def chord(key: str, request: Request) -> dict[str, Any]:
        """Every hidden, unflagged neighbour of a clue with as many flags around it as its
        value; nothing (and a `note`) otherwise."""
        live = state.games.get(key)
        return live.chord(await cell_of(request, live))

    @app.post(
        "/api/games/{key}/hint",
        response_model=schema.HintOut,
        responses=ERRORS,
        summary="The cell to reveal next",
    )
    async def hint(key: str, request: Request) -> dict[str, Any]:
        """A safe cell with its explanation if there is one; else the best policy's guess
        with its exact mine probability."""
        live = state.games.get(key)
        if live.status.value != "playing":
            raise RequestError(409, f"the game is over ({live.status.value})")
        if not live.started:
            return first_hint().to_json()
        answer: dict[str, Any] = await compute(request, "hint", live.position())
        return answer

    async def _make_board(request: Request, live: LiveGame, cell: tuple[int, int]) -> None:
        if live.making:
            raise RequestError(409, "the board is being made: wait for the first click's answer")
        s = live.settings
        live.making = True
        try:
            made = await compute(
                request,
                "generate",
                {
                    "rows": s.rows,
                    "cols": s.cols,
                    "mines": s.mines,
                    "seed": s.seed,
                    "start": cell[0] * s.cols + cell[1],
                    "timeout": limits.seconds * 0.8,
                    "extra": _generator_options(s.technique),
                },
            )
        finally:
            live.making = False
        if live.needs_board:
            live.place(made["mines"], made["rating"])

    # -- watched games --------------------------------------------------------------------

    @app.post(
        "/api/watch",
        response_model=schema.WatchOut,
        responses=ERRORS,
        openapi_extra=_body(schema.WatchIn),
        summary="Have a player play a board, to watch step by step",
    )
    async def new_watch(request: Request) -> dict[str, Any]:
        """The game is played at once on the server (within the compute budget) and kept;
        the page takes its steps one by one."""
        data = json_object(await body(request), fields=tuple(schema.WatchIn.model_fields))
        spec = _watch_spec(data, state.games, limits)
        played: dict[str, Any] = await compute(request, "watch", spec, seconds=limits.watch_seconds)
        watched = _Watched(
            spec.rows,
            spec.cols,
            spec.mines,
            spec.player,
            played["note"],
            played["steps"],
            played["status"],
            played["guesses"],
        )
        key = state.watches.add(watched)
        return watched.meta(key)

    @app.get(
        "/api/watch/{key}",
        response_model=schema.WatchOut,
        responses=ERRORS,
        summary="A watched game",
    )
    async def get_watch(key: str) -> dict[str, Any]:
        """The board, the player, and how far the page has stepped."""
        return state.watches.get(key).meta(key)

    @app.post(
        "/api/watch/{key}/step",
        response_model=schema.StepsOut,
        responses=ERRORS,
        openapi_extra=_body(schema.StepIn, required=False),
        summary="The next steps of a watched game",
    )
    async def step(key: str, request: Request) -> dict[str, Any]:
        """Each step with what it revealed and why; an empty body takes one."""
        watched = state.watches.get(key)
        raw = await body(request)
        count = 1
        if raw.strip():
            asked = json_object(raw, fields=("count",))
            count = int_field(asked, "count", low=1, high=1000, default=1)
        steps = watched.steps[watched.taken : watched.taken + count]
        watched.taken += len(steps)
        done = watched.taken == len(watched.steps)
        status = watched.status if done else steps[-1]["status"] if steps else "playing"
        answer: dict[str, Any] = {
            "steps": steps,
            "step": watched.taken,
            "total": len(watched.steps),
            "done": done,
            "status": status,
        }
        if done:
            answer["guesses"] = watched.guesses
        return answer

    return app


# -- refusals ----------------------------------------------------------------------------


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
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid"}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "path")
        return _error(RequestError(422, f"{where}: {first.get('msg', 'invalid')}"))

    # Any other exception reaches the guard, which logs it once and answers 500 in one line.


# -- helpers ------------------------------------------------------------------------------


def _settings(data: dict[str, Any]) -> Settings:
    """A new live game's settings, checked."""
    rows = int_field(data, "rows", low=1, high=1000)
    cols = int_field(data, "cols", low=1, high=1000)
    if rows * cols > MAX_GAME_CELLS:
        raise RequestError(422, f"rows, cols: {rows}x{cols} is more than {MAX_GAME_CELLS:,} cells")
    first = FirstMove(choice_field(data, "first", ("safe", "opening"), "safe"))
    no_guess = choice_field(data, "board", ("random", "no-guess"), "random") == "no-guess"
    zone = 1 if first is FirstMove.SAFE and not no_guess else min(rows, 3) * min(cols, 3)
    mines = int_field(data, "mines", low=0, high=rows * cols - zone)
    seed = int_field(data, "seed", low=0, high=MAX_SEED, default=-1)
    if seed < 0:
        seed = secrets.randbelow(MAX_SEED + 1)
    technique = text_field(data, "technique", required=False)
    if technique is not None:
        if not no_guess:
            raise RequestError(422, "technique: only a no-guess board is made for a technique")
        technique = _technique(technique).value
    return Settings(rows, cols, mines, seed, first, no_guess, technique)


def _watch_spec(data: dict[str, Any], games: Store[LiveGame], limits: Limits) -> Watch:
    """A watch request, checked: a live game's board only once the game is over."""
    player = text_field(data, "player")
    assert player is not None
    if player not in players():
        raise RequestError(422, f"player: {player!r} is not one of {', '.join(players())}")
    rules = text_field(data, "rules", required=False)
    if player == RULES and not rules:
        raise RequestError(422, "rules: missing: the S4 rule file's text")
    key = text_field(data, "game", required=False)
    if key is not None:
        live = games.get(key)
        game = live.game
        if game is None or not live.over:
            raise RequestError(409, "game: finish the game first: its board is hidden until then")
        assert game.board is not None and game.record.header.first is not None
        s = live.settings
        return Watch(
            s.rows,
            s.cols,
            s.mines,
            player,
            s.seed,
            start=game.record.header.first,
            layout=tuple(sorted(game.board.mines)),
            rules=rules,
            seconds=limits.watch_seconds * 0.8,
        )
    settings = _settings({k: v for k, v in data.items() if k in schema.GameIn.model_fields})
    start = data.get("start")
    row, col = (0, 0)
    if start is not None:
        row, col = cell_field(start, settings.rows, settings.cols, name="start")
    return Watch(
        settings.rows,
        settings.cols,
        settings.mines,
        player,
        settings.seed,
        first=settings.first,
        start=row * settings.cols + col,
        no_guess=settings.no_guess,
        rules=rules,
        seconds=limits.watch_seconds * 0.8,
        generator=_generator_options(settings.technique),
    )


async def _gone(request: Request) -> None:
    """Return once the client has gone (its connection closed)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def _techniques() -> list[str]:
    """The ratings a no-guess board can be made for: every technique that solves boards."""
    return [t.value for t in Technique.solving()]


def _technique(name: str) -> Technique:
    """The technique named ``name``, one a board can be rated."""
    offered = _techniques()
    refusal = RequestError(422, f"technique: {name[:40]!r} is not one of {', '.join(offered)}")
    try:
        technique = Technique.parse(name)
    except ValueError:
        raise refusal from None
    if technique.value not in offered:
        raise refusal
    return technique


def _generator_options(technique: str | None) -> dict[str, Any]:
    """The generator's keyword arguments for a board rated ``technique`` (``None``: the
    generator's default, any board its complete deduction solves)."""
    return {} if technique is None else {"technique": Technique.parse(technique), "needs": True}


def _body(model: type[BaseModel], *, required: bool = True) -> dict[str, Any]:
    """The OpenAPI request body of an endpoint that reads its body itself."""
    return {
        "requestBody": {
            "required": required,
            "content": {"application/json": {"schema": model.model_json_schema()}},
        }
    }


def _json_bytes(content: bytes) -> Response:
    """An answer whose JSON a worker made."""
    return Response(content, media_type="application/json")


def _static(content: bytes, kind: str) -> Callable[[], Awaitable[Response]]:
    """An endpoint answering one of the page's files."""

    async def asset() -> Response:
        return Response(content, media_type=kind)

    return asset


def _asset(name: str) -> bytes:
    """One of the page's files, from the package."""
    return resources.files(__package__).joinpath("static", name).read_bytes()


def _version() -> str:
    """The installed package's version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mineshafted")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree not installed
        return "unknown"


def _api_page(document: dict[str, Any]) -> str:
    """The API's OpenAPI document as a page of its own: each endpoint with its body's fields
    and its answer, then every schema as a table (no script, nothing fetched)."""

    def e(text: str) -> str:  # escaped, `code` as code
        return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text, quote=False))

    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<title>mineshafted API</title><link rel='icon' href='data:,'>",
        "<link rel='stylesheet' href='/app.css'></head><body class='api'>",
        "<h1>mineshafted API</h1>",
        f"<p>{e(document['info'].get('description', ''))}</p>",
        "<p>The same document as OpenAPI JSON: <a href='/openapi.json'>/openapi.json</a>. "
        "Back to <a href='/'>the page</a>.</p>",
    ]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            parts.append(
                f"<section class='endpoint'><h2><code>{method.upper()} {e(path)}</code> "
                f"{e(operation.get('summary', ''))}</h2>"
                f"<p>{e(operation.get('description', ''))}</p>"
            )
            request = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if request:
                parts.append("<h3>Body</h3>" + _fields(request["schema"]))
            answers = operation.get("responses", {})
            for status, answer in answers.items():
                if status.startswith("2"):
                    found = answer.get("content", {}).get("application/json", {}).get("schema")
                    shown = _type(found) if found else "nothing"
                    parts.append(f"<p>Answer ({status}): {shown}.</p>")
            refusals = ", ".join(k for k in answers if not k.startswith("2"))
            if refusals:
                parts.append(f"<p>Refusals: {refusals}, each an {_type(_ref('ErrorOut'))}.</p>")
            parts.append("</section>")
    parts.append("<h2>Schemas</h2>")
    for name, found in document.get("components", {}).get("schemas", {}).items():
        parts.append(f"<h3 id='{e(name)}'>{e(name)}</h3>")
        if found.get("description"):
            parts.append(f"<p>{e(found['description'])}</p>")
        parts.append(_fields(found))
    parts.append("</body></html>")
    return "".join(parts)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _fields(schema: dict[str, Any]) -> str:
    """An object schema's properties as a table: name, type, what it is."""
    properties = schema.get("properties")
    if not properties:
        return f"<p>{_type(schema)}</p>"
    required = set(schema.get("required", ()))
    rows = "".join(
        f"<tr><td><code>{html.escape(name)}</code>{'' if name in required else ' (optional)'}"
        f"</td><td>{_type(field)}</td><td>{html.escape(field.get('description', ''))}</td></tr>"
        for name, field in properties.items()
    )
    return f"<table><tr><th>field</th><th>type</th><th>what</th></tr>{rows}</table>"


def _type(schema: dict[str, Any]) -> str:
    """A schema's type in a few words, a reference as a link to its table."""
    if "$ref" in schema:
        name = html.escape(schema["$ref"].rsplit("/", 1)[1])
        return f"<a href='#{name}'>{name}</a>"
    if "anyOf" in schema:
        return " or ".join(_type(option) for option in schema["anyOf"])
    if "enum" in schema:
        return " | ".join(html.escape(json.dumps(value)) for value in schema["enum"])
    if "const" in schema:
        return html.escape(json.dumps(schema["const"]))
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {_type(schema.get('items', {}))}"
    if kind == "object" and "additionalProperties" in schema:
        return f"object of {_type(schema['additionalProperties'])}"
    return html.escape(str(kind))
