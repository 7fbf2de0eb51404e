"""A live game's hidden cells stay on the server until it ends: no endpoint's answer depends on
them, the seed included (it would draw the board), and Watch replays a game only once it is
over.

The check is non-interference: two live games whose boards differ in their hidden cells but
show the same cells are asked the same things through every route of the app (the routes are
enumerated from the app, so a new one fails here until it is given a call); every answer must
be the same for both, but for the game's id and clock. What one game answered could then not
tell its board from the other's.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from fastapi.testclient import TestClient

from fastapi import FastAPI

from mineshafted.board import MINE
from mineshafted.web.games import LiveGame, Settings
from mineshafted.web.routes import ROUTERS
from mineshafted.web.routes.page import ASSETS

ROWS, COLS, MINES = 8, 8, 10
FIRST = (0, 0)


@pytest.fixture
def client(api: TestClient) -> TestClient:
    """The web tests' app (:func:`.conftest.api`)."""
    return api


@pytest.fixture
def app(client: TestClient) -> FastAPI:
    """Its application, whose routes are enumerated."""
    found = client.app
    assert isinstance(found, FastAPI)
    return found


def _twins() -> tuple[int, int, tuple[int, int]]:
    """Two seeds whose boards differ but show the same cells after the first reveal, and a
    safe clue (not a zero, so it opens nothing more) hidden in both with the same value."""
    shown: dict[str, tuple[int, LiveGame]] = {}
    for seed in range(500):
        live = LiveGame(Settings(ROWS, COLS, MINES, seed=seed))
        first = live.reveal(FIRST)
        if first["status"] != "playing":
            continue
        key = json.dumps(first["revealed"])
        if key not in shown:
            shown[key] = (seed, live)
            continue
        other_seed, other = shown[key]
        assert live.game is not None and other.game is not None
        board, other_board = live.game.board, other.game.board
        assert board is not None and other_board is not None
        if board.mines == other_board.mines:
            continue
        revealed = {(r, c) for r, c, _ in first["revealed"]}
        for cell in range(ROWS * COLS):
            where = divmod(cell, COLS)
            value = board.values[cell]
            if (
                where not in revealed
                and value not in (0, MINE)
                and value == other_board.values[cell]
            ):
                return other_seed, seed, where
    raise AssertionError("no two boards alike after the first reveal among 500 seeds")


Call = Callable[[TestClient, str], Any]
"""One request to a route, for the live game of the given id."""


def _post(path: str, body: object = None) -> Call:
    return lambda client, key: client.post(path.format(key=key), json=body)


def _calls(safe: tuple[int, int]) -> dict[tuple[str, str], list[Call]]:
    """What to ask each route of the app, in this order, about a live game."""
    view = {"board": [[None] * COLS for _ in range(ROWS)], "mines": MINES}
    view["board"][0][0] = 0  # a position only: analyses never see the game at all
    get = lambda path: lambda client, key: client.get(path.format(key=key))  # noqa: E731
    head = lambda path: lambda client, key: client.head(path.format(key=key))  # noqa: E731
    assets: dict[tuple[str, str], list[Call]] = {}
    for path in ASSETS:
        assets[("GET", path)] = [get(path)]
        assets[("HEAD", path)] = [head(path)]
    return {
        **assets,
        ("GET", "/api"): [get("/api")],
        ("HEAD", "/api"): [head("/api")],
        ("GET", "/openapi.json"): [get("/openapi.json")],
        ("HEAD", "/openapi.json"): [head("/openapi.json")],
        ("GET", "/api/config"): [get("/api/config")],
        ("POST", "/api/analyze"): [_post("/api/analyze", view)],
        ("POST", "/api/explain"): [_post("/api/explain", {**view, "cell": [1, 1]})],
        ("POST", "/api/load"): [_post("/api/load", {"text": "0??\n???"})],
        ("POST", "/api/survey"): [_post("/api/survey", view)],
        ("POST", "/api/knowledge"): [_post("/api/knowledge", view)],
        ("POST", "/api/games"): [_post("/api/games", {"rows": ROWS, "cols": COLS, "mines": 3})],
        ("GET", "/api/games/{key}"): [get("/api/games/{key}")],
        ("POST", "/api/games/{key}/reveal"): [
            _post("/api/games/{key}/reveal", {"cell": list(safe)})
        ],
        ("POST", "/api/games/{key}/flag"): [
            _post("/api/games/{key}/flag", {"cell": [ROWS - 1, COLS - 1]}),
            _post("/api/games/{key}/flag", {"cell": [ROWS - 1, COLS - 2]}),
        ],
        ("POST", "/api/games/{key}/chord"): [
            _post("/api/games/{key}/chord", {"cell": list(safe)}),
            _post("/api/games/{key}/chord", {"cell": [0, 0]}),
        ],
        ("POST", "/api/games/{key}/hint"): [_post("/api/games/{key}/hint")],
        ("POST", "/api/games/{key}/review"): [_post("/api/games/{key}/review")],
        ("POST", "/api/watch"): [
            _post("/api/watch", {"player": "policy:best", "game": "{key}"}),
            _post("/api/watch", {"player": "rules", "rules": "x", "game": "{key}"}),
        ],
        ("GET", "/api/watch/{key}"): [get("/api/watch/{key}")],
        ("POST", "/api/watch/{key}/step"): [_post("/api/watch/{key}/step", {"count": 1000})],
        ("POST", "/api/watch/{key}/takeover"): [
            _post("/api/watch/{key}/takeover", {"step": 0}),
        ],
        ("GET", "/learn.js"): [get("/learn.js")],
        ("GET", "/learn.css"): [get("/learn.css")],
        ("GET", "/api/learn/puzzles"): [get("/api/learn/puzzles")],
        ("POST", "/api/learn"): [
            _post("/api/learn", {"board": view["board"]}),
            # a live game's id is no shipped puzzle's name: refused, whatever the game
            lambda client, key: client.post("/api/learn", json={"puzzle": key}),
        ],
        ("DELETE", "/api/games/{key}"): [lambda client, key: client.delete(f"/api/games/{key}")],
    }


def _routes(app: FastAPI) -> list[tuple[str, str]]:
    """Every (method, path) the app answers, through the routers it includes."""
    found: list[tuple[str, str]] = []

    def walk(routes: list[Any]) -> None:
        for route in routes:
            included = getattr(route, "original_router", None)  # FastAPI's included router
            if included is not None:
                walk(included.routes)
                continue
            methods = getattr(route, "methods", None)
            assert methods, f"a route of an unknown kind: {route!r}"
            for method in sorted(methods):
                found.append((method, getattr(route, "path", "")))

    walk(list(app.routes))
    for router in ROUTERS:  # whatever FastAPI's layout, every router's routes are counted
        for route in router.routes:
            for method in sorted(getattr(route, "methods", None) or ()):
                found.append((method, getattr(route, "path", "")))
    return sorted(set(found))


def _same(answer: Any, key: str) -> tuple[int, Any]:
    """An answer as the comparison sees it: its status and its body, with the game's id and
    every clock reading taken out."""
    text = answer.text.replace(key, "<id>")
    try:
        body = json.loads(text) if text else None
    except json.JSONDecodeError:
        return answer.status_code, text

    def scrub(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: scrub(v) for k, v in value.items() if k not in ("id", "seconds")}
        if isinstance(value, list):
            return [scrub(v) for v in value]
        return value

    return answer.status_code, scrub(body)


def test_every_route_has_a_call_here(app: FastAPI) -> None:
    calls = _calls((1, 1))
    missing = [route for route in _routes(app) if route not in calls]
    assert not missing, f"give these routes a call in test_secrecy: {missing}"


@pytest.mark.slow
def test_no_answer_about_a_live_game_depends_on_its_hidden_cells(
    app: FastAPI, client: TestClient
) -> None:
    one, other, safe = _twins()
    calls = _calls(safe)
    order = [call for route in calls for call in calls[route] if route in _routes(app)]
    answers: list[list[tuple[int, Any]]] = []
    for seed in (one, other):
        made = client.post(
            "/api/games", json={"rows": ROWS, "cols": COLS, "mines": MINES, "seed": seed}
        )
        key = made.json()["id"]
        first = client.post(f"/api/games/{key}/reveal", json={"cell": list(FIRST)})
        seen = [_same(made, key), _same(first, key)]
        for call in order:
            seen.append(_same(_with_key(call, client, key), key))
        answers.append(seen)
    assert answers[0][1][1]["status"] == "playing"
    for index, (a, b) in enumerate(zip(*answers, strict=True)):
        assert a == b, f"answer {index} differs between two boards showing the same cells"


def _with_key(call: Call, client: TestClient, key: str) -> Any:
    """Make ``call`` for the game ``key`` (a body naming ``{key}`` gets the id too)."""

    class Keyed:
        def __init__(self, inner: TestClient) -> None:
            self.inner = inner

        def __getattr__(self, name: str) -> Any:
            method = getattr(self.inner, name)

            def keyed(url: str, **options: Any) -> Any:
                if "json" in options and options["json"] is not None:
                    options["json"] = json.loads(json.dumps(options["json"]).replace("{key}", key))
                return method(url, **options)

            return keyed

    return call(Keyed(client), key)  # type: ignore[arg-type]


def test_a_live_games_seed_is_shown_only_once_it_is_over(client: TestClient) -> None:
    one, _, _ = _twins()
    made = client.post("/api/games", json={"rows": ROWS, "cols": COLS, "mines": MINES, "seed": one})
    key = made.json()["id"]
    assert made.json()["settings"]["seed"] is None
    client.post(f"/api/games/{key}/reveal", json={"cell": list(FIRST)})
    assert client.get(f"/api/games/{key}").json()["settings"]["seed"] is None
    refused = client.post("/api/watch", json={"player": "policy:best", "game": key})
    assert refused.status_code == 409 and "finish the game first" in refused.json()["error"]
    live = LiveGame(Settings(ROWS, COLS, MINES, seed=one))
    live.reveal(FIRST)
    assert live.game is not None and live.game.board is not None
    mine = min(live.game.board.mines)
    lost = client.post(f"/api/games/{key}/reveal", json={"cell": list(divmod(mine, COLS))}).json()
    assert lost["status"] == "lost" and lost["seed"] == one
    assert client.get(f"/api/games/{key}").json()["settings"]["seed"] == one
    watched = client.post("/api/watch", json={"player": "policy:best", "game": key})
    assert watched.status_code == 200, watched.text
