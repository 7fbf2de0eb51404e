"""What the routers share: the refusals every endpoint may answer, and an answer whose JSON a
worker made."""

from __future__ import annotations

from typing import Any, Final

from fastapi.responses import Response
from pydantic import BaseModel

from .. import schema

__all__ = ["ERRORS", "json_bytes", "raw_body"]

ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    status: {"model": schema.ErrorOut, "description": description}
    for status, description in {
        400: "Not JSON.",
        404: "No such live game.",
        408: "The body did not arrive in time.",
        409: "Not now (the game is over, or not started).",
        413: "The body is larger than 8 MiB, or the position too large to count within the "
        "server's memory (the same answer on any retry).",
        415: "The body is not declared application/json.",
        422: "Malformed, off the board, or not decided.",
        503: "Past the compute budget, every worker busy, or every live game in use.",
    }.items()
}
"""The refusals every endpoint may answer, for the OpenAPI document."""


def raw_body(model: type[BaseModel], *, required: bool = True) -> dict[str, Any]:
    """The OpenAPI request body of an endpoint that has its body read in a worker."""
    return {
        "requestBody": {
            "required": required,
            "content": {"application/json": {"schema": model.model_json_schema()}},
        }
    }


def json_bytes(content: bytes) -> Response:
    """An answer whose JSON a worker made."""
    return Response(content, media_type="application/json")
