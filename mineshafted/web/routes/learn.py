"""Learn: the tab that steps through AC-3 (and count, and subset) as the assignment tells it:
its endpoints, and its script and style.

``POST /api/learn`` answers the events of ``mineshafted trace --json`` for a shipped puzzle or
a position (computed by :func:`.tracing.traced` in a worker, under the compute budget);
``GET /api/learn/puzzles`` lists the shipped puzzles it takes. The page's script
(``/learn.js``) replays the events forward and back; nothing of a live game is traced.
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from ..context import Served
from ..requests import LearnIn
from ..tracing import CELLS, EVENTS, SAMPLE, catalogue
from .page import serve_assets

__all__ = ["JOB", "router"]

JOB: Final = "learn"
"""The name of the trace's job among the workers' jobs (:data:`.jobs.JOBS`)."""

ASSETS: Final = {
    "/learn.js": ("learn.js", "text/javascript; charset=utf-8"),
    "/learn.css": ("learn.css", "text/css; charset=utf-8"),
}
"""The tab's files, served beside the page's (:data:`.page.ASSETS`)."""

router = APIRouter()


class LearnOut(BaseModel):
    """A trace: the events of ``mineshafted trace --json``."""

    name: str | None = Field(description="The puzzle's name; null for a position.")
    events: list[Any] = Field(
        description="The events, in order: JSON objects whose fields docs/guides/learn.md "
        "gives, exactly the lines of mineshafted trace --json."
    )


class PuzzleOut(BaseModel):
    """A shipped puzzle the tab can trace."""

    name: str
    title: str | None
    rows: int
    cols: int
    mines: int


class PuzzlesOut(BaseModel):
    """The shipped puzzles, and the tab's bounds."""

    sample: str = Field(description="The assignment's 4x3 sample's name.")
    puzzles: list[PuzzleOut]
    cells: int = Field(description="The most cells a traced board may have.")
    events: int = Field(description="The most events a trace may have.")


@router.get(
    "/api/learn/puzzles", response_model=PuzzlesOut, summary="The shipped puzzles Learn traces"
)
async def puzzles() -> dict[str, Any]:
    """Every shipped puzzle of at most `cells` cells, the assignment's sample first."""
    listed = await run_in_threadpool(catalogue)
    return {"sample": SAMPLE, "puzzles": listed, "cells": CELLS, "events": EVENTS}


@router.post(
    "/api/learn",
    response_model=LearnOut,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": LearnIn.model_json_schema()}},
        }
    },
    summary="A solve step by step: the events of mineshafted trace --json",
)
async def learn(request: Request, served: Served) -> Response:
    """A shipped puzzle played from its start, or a position (one round: nothing to explore),
    with AC-3 (or count, or subset): every variable, arc, revision and decision."""
    answer = await served.compute(request, JOB, await request.body())
    return Response(answer, media_type="application/json")


serve_assets(router, ASSETS)
