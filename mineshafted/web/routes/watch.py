"""Watched games: a player plays a board on the server; the page takes the steps, and may
take over from any step it has been sent."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from .. import schema
from ..context import Served
from ..errors import RequestError
from ..games import LiveGame, Settings, Store
from ..limits import Limits
from ..watching import Watch, Watched
from .common import ERRORS
from .play import generator_options, settings_of

__all__ = ["router"]

router = APIRouter()


@router.post(
    "/api/watch",
    response_model=schema.WatchOut,
    responses=ERRORS,
    summary="Have a player play a board, to watch step by step",
)
async def new_watch(body: schema.WatchIn, request: Request, served: Served) -> dict[str, Any]:
    """The game is played at once on the server (within the compute budget) and kept; the
    page takes its steps one by one."""
    spec = _watch_spec(body, served.games, served.limits)
    played: dict[str, Any] = await served.compute(
        request, "watch", spec, seconds=served.limits.watch_seconds
    )
    watched = Watched(
        spec.rows,
        spec.cols,
        spec.mines,
        spec.player,
        played["note"],
        played["steps"],
        played["status"],
        played["guesses"],
        tuple(played["layout"]),
    )
    key = served.watches.add(watched)
    return watched.meta(key)


@router.get(
    "/api/watch/{key}", response_model=schema.WatchOut, responses=ERRORS, summary="A watched game"
)
async def get_watch(key: str, served: Served) -> dict[str, Any]:
    """The board, the player, and how far the page has stepped."""
    return served.watches.get(key).meta(key)


@router.post(
    "/api/watch/{key}/step",
    response_model=schema.StepsOut,
    responses=ERRORS,
    summary="The next steps of a watched game",
)
async def step(key: str, served: Served, body: schema.StepIn | None = None) -> dict[str, Any]:
    """Each step with what it revealed and why; an empty body takes one."""
    watched = served.watches.get(key)
    count = 1 if body is None else body.count
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


@router.post(
    "/api/watch/{key}/takeover",
    response_model=schema.GameOut,
    responses=ERRORS,
    summary="Play on from a step of a watched game",
)
async def take_over(key: str, body: schema.TakeOverIn, served: Served) -> dict[str, Any]:
    """A live game on the watched board with its first `step` steps played (at most the steps
    the page has been sent). Its board is the watched game's, which the watcher may know:
    the game says so (`origin`: `watch`)."""
    watched = served.watches.get(key)
    if body.step > watched.taken:
        raise RequestError(
            422, f"step: {body.step} is past the {watched.taken} step(s) sent so far"
        )
    settings = Settings(watched.rows, watched.cols, watched.mines, seed=0)
    live = LiveGame.taken_over(settings, watched.layout, watched.steps[: body.step])
    game_key = served.games.add(live)
    return {"id": game_key, **live.view()}


def _watch_spec(body: schema.WatchIn, games: Store[LiveGame], limits: Limits) -> Watch:
    """A watch request as the job to play: a live game's board only once the game is over."""
    if body.game is not None:
        live = games.get(body.game)
        game = live.game
        if game is None or not live.over:
            raise RequestError(409, "game: finish the game first: its board is hidden until then")
        assert game.board is not None and game.record.header.first is not None
        s = live.settings
        return Watch(
            s.rows,
            s.cols,
            s.mines,
            body.player,
            s.seed,
            start=game.record.header.first,
            layout=tuple(sorted(game.board.mines)),
            rules=body.rules,
            seconds=limits.watch_seconds * 0.8,
        )
    settings = settings_of(body)
    row, col = (0, 0) if body.start is None else body.start
    return Watch(
        settings.rows,
        settings.cols,
        settings.mines,
        body.player,
        settings.seed,
        first=settings.first,
        start=row * settings.cols + col,
        no_guess=settings.no_guess,
        rules=body.rules,
        seconds=limits.watch_seconds * 0.8,
        generator=generator_options(settings.technique),
    )
