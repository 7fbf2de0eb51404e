"""Live games: made, played, hinted, reviewed once over.

While a game is on, every answer about it is a function of what the player has seen (see
``docs/web.md``, and ``tests/web/test_secrecy.py``, which asks every route).
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ...game import FirstMove
from ...solver import Technique
from .. import schema
from ..bodies import cell_field
from ..context import Context, Served
from ..errors import RequestError
from ..games import LiveGame, Settings
from ..hints import first_hint
from ..limits import MAX_SEED
from .common import ERRORS

__all__ = ["generator_options", "router", "settings_of"]

router = APIRouter()


def settings_of(body: schema.GameIn | schema.WatchIn) -> Settings:
    """A board's settings from a checked body; a random seed when it gives none."""
    assert body.rows is not None and body.cols is not None and body.mines is not None
    seed = body.seed if body.seed is not None else secrets.randbelow(MAX_SEED + 1)
    return Settings(
        body.rows,
        body.cols,
        body.mines,
        seed,
        FirstMove(body.first),
        body.board == "no-guess",
        body.technique,
    )


def generator_options(technique: str | None) -> dict[str, Any]:
    """The generator's keyword arguments for a board rated ``technique`` (``None``: the
    generator's default, any board its complete deduction solves)."""
    return {} if technique is None else {"technique": Technique.parse(technique), "needs": True}


@router.post(
    "/api/games", response_model=schema.GameOut, responses=ERRORS, summary="Start a live game"
)
async def new_game(body: schema.GameIn, served: Served) -> dict[str, Any]:
    """The board stays on the server; a random board is drawn, and a no-guess board made, at
    the first reveal, from the seed."""
    live = LiveGame(settings_of(body))
    key = served.games.add(live)
    return {"id": key, **live.view()}


@router.get(
    "/api/games/{key}", response_model=schema.GameOut, responses=ERRORS, summary="A live game"
)
async def get_game(key: str, served: Served) -> dict[str, Any]:
    """What the page shows of the game."""
    return {"id": key, **served.games.get(key).view()}


@router.delete("/api/games/{key}", status_code=204, responses=ERRORS, summary="End a live game")
async def end_game(key: str, served: Served) -> Response:
    """Forget the game."""
    served.games.get(key)
    served.games.remove(key)
    return Response(status_code=204)


def _cell(live: LiveGame, body: schema.CellIn) -> tuple[int, int]:
    return cell_field(body.cell, live.settings.rows, live.settings.cols)


@router.post(
    "/api/games/{key}/reveal",
    response_model=schema.MoveOut,
    responses=ERRORS,
    summary="Reveal a cell",
)
async def reveal(key: str, body: schema.CellIn, request: Request, served: Served) -> dict[str, Any]:
    """A zero opens its region; a mine ends the game, and the answer then holds every mine."""
    live = served.games.get(key)
    cell = _cell(live, body)
    if live.needs_board:
        await _make_board(request, served, live, cell)
    return live.reveal(cell)


@router.post(
    "/api/games/{key}/flag",
    response_model=schema.MoveOut,
    responses=ERRORS,
    summary="Flag a cell, or take its flag off",
)
async def flag(key: str, body: schema.CellIn, served: Served) -> dict[str, Any]:
    """A hidden cell only."""
    live = served.games.get(key)
    return live.flag(_cell(live, body))


@router.post(
    "/api/games/{key}/chord",
    response_model=schema.MoveOut,
    responses=ERRORS,
    summary="Reveal around a satisfied clue",
)
async def chord(key: str, body: schema.CellIn, served: Served) -> dict[str, Any]:
    """Every hidden, unflagged neighbour of a clue with as many flags around it as its value;
    nothing (and a `note`) otherwise."""
    live = served.games.get(key)
    return live.chord(_cell(live, body))


@router.post(
    "/api/games/{key}/hint",
    response_model=schema.HintOut,
    responses=ERRORS,
    summary="The cell to reveal next",
)
async def hint(key: str, request: Request, served: Served) -> dict[str, Any]:
    """A safe cell with its explanation if there is one; else the best policy's guess with
    its exact mine probability."""
    live = served.games.get(key)
    if live.status.value != "playing":
        raise RequestError(409, f"the game is over ({live.status.value})")
    if not live.started:
        return first_hint().to_json()
    answer: dict[str, Any] = await served.compute(request, "hint", live.position())
    return answer


@router.post(
    "/api/games/{key}/review",
    response_model=schema.ReviewOut,
    responses=ERRORS,
    summary="A finished game, move by move",
)
async def review(key: str, request: Request, served: Served) -> dict[str, Any]:
    """Once the game is over (409 before): each move judged from what the player could see
    then: certain, the best guess, a riskier guess, or a guess while a cell was certainly
    safe, with its chance of a mine."""
    live = served.games.get(key)
    if not live.over or live.game is None:
        raise RequestError(409, "finish the game first: a review judges every move")
    answer: dict[str, Any] = await served.compute(request, "review", live.game.record)
    return answer


async def _make_board(
    request: Request, served: Context, live: LiveGame, cell: tuple[int, int]
) -> None:
    """Make a no-guess game's board around its first reveal, in a worker."""
    if live.making:
        raise RequestError(409, "the board is being made: wait for the first reveal's answer")
    s = live.settings
    live.making = True
    try:
        made = await served.compute(
            request,
            "generate",
            {
                "rows": s.rows,
                "cols": s.cols,
                "mines": s.mines,
                "seed": s.seed,
                "start": cell[0] * s.cols + cell[1],
                "timeout": served.limits.seconds * 0.8,
                "extra": generator_options(s.technique),
            },
        )
    finally:
        live.making = False
    if live.needs_board:
        live.place(made["mines"], made["rating"])
