"""The live web environment: Play, Analyse and Watch in the browser, and the JSON API under them.

:mod:`.app` (the ASGI application, needing the ``web`` extra: FastAPI), :mod:`.server`
(``mineshafted serve``'s uvicorn), :mod:`.analysis` (odds, decided cells, best move),
:mod:`.explanation` (why a cell is decided: sound and minimal clues, the technique),
:mod:`.hints` (the next cell of a live game), :mod:`.bodies` (request bodies read and
checked), :mod:`.loading` (a pasted or uploaded position, puzzle or game record as a
position), :mod:`.games` (live games), :mod:`.watching` (a game played by an agent, the
``best`` policy or S4 rules, step by step), :mod:`.jobs` (what the worker processes
compute), :mod:`.workers` (the processes, each computation under a deadline),
:mod:`.schema` (the API's JSON, for its OpenAPI document), :mod:`.limits` and
:mod:`.errors`.

Only :mod:`.app`, :mod:`.server` and :mod:`.schema` import FastAPI, uvicorn and pydantic:
everything else works without the extra.
"""

from __future__ import annotations

from .analysis import Analysis, analyze, best_move
from .errors import RequestError, UndecidedError
from .explanation import Explanation, explain
from .limits import Limits

__all__ = [
    "Analysis",
    "Explanation",
    "Limits",
    "RequestError",
    "UndecidedError",
    "analyze",
    "best_move",
    "explain",
]
