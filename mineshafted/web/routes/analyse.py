"""Positions: exact odds, explanations, surveys (what the best policy knows), and loaded texts.

Each body is read in a worker (a position may be a million cells): by the command's own
reader for a position, by its model for the rest (:mod:`..bodies`).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from .. import schema
from ..context import Served
from .common import ERRORS, json_bytes, raw_body

__all__ = ["router"]

router = APIRouter()


@router.post(
    "/api/analyze",
    response_model=schema.AnalysisOut,
    responses=ERRORS,
    openapi_extra=raw_body(schema.PositionIn),
    summary="Exact odds, decided cells and the best move of a position",
)
async def analyze(request: Request, served: Served) -> Response:
    """The body is a position as `mineshafted probabilities` reads it; the answer's
    `probabilities` are exactly that command's `--json` values."""
    return json_bytes(await served.compute(request, "analyze", await request.body()))


@router.post(
    "/api/explain",
    response_model=schema.ExplanationOut,
    responses=ERRORS,
    openapi_extra=raw_body(schema.ExplainIn),
    summary="Why a position decides a cell",
)
async def explain(request: Request, served: Served) -> Response:
    """A sound and minimal set of clues that force the cell, whether the mine total is
    needed, and the weakest technique that decides it. A cell the position does not decide
    is a 422."""
    return json_bytes(await served.compute(request, "explain", await request.body()))


@router.post(
    "/api/knowledge",
    response_model=schema.SurveyOut,
    responses=ERRORS,
    openapi_extra=raw_body(schema.PositionIn),
    summary="The survey of a position, under its old path",
    deprecated=True,
)
@router.post(
    "/api/survey",
    response_model=schema.SurveyOut,
    responses=ERRORS,
    openapi_extra=raw_body(schema.PositionIn),
    summary="What the best policy knows at a position: its survey",
)
async def survey(request: Request, served: Served) -> Response:
    """At a stall: each unknown cell not decided, with its mine chance, secondary safety
    (how safe the best next guess is after it), chance of progress and whether it is dead;
    the fifty-fifties;
    the endgame search's exact chance of a win when it finishes. The library's own figures
    (`mineshafted.probability`). `/api/knowledge` is its old path, still answered."""
    return json_bytes(await served.compute(request, "survey", await request.body()))


@router.post(
    "/api/load",
    response_model=schema.LoadOut,
    responses=ERRORS,
    openapi_extra=raw_body(schema.LoadIn),
    summary="The position a pasted or uploaded text holds",
)
async def load(request: Request, served: Served) -> Response:
    """A position file, a puzzle file (shown after its first move), a game record (shown at
    its end), or a text grid."""
    return json_bytes(await served.compute(request, "load", await request.body()))
