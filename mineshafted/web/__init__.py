"""The live web environment: Play, Analyse and Watch in the browser, and the JSON API under them.

:mod:`.app` (the ASGI application, needing the ``web`` extra: FastAPI) with its routers by
concern (:mod:`.routes`: the page, analyse, play, watch) and its state (:mod:`.context`),
:mod:`.server` (``mineshafted serve``'s uvicorn), :mod:`.analysis` (odds, decided cells,
best move), :mod:`.survey` (what the ``best`` policy knows at a stall: the one caller of
the policy, look-ahead, fifty-fifties and endgame), :mod:`.explanation` (why a cell is
decided: sound and minimal clues, the technique), :mod:`.hints` (the next cell of a live
game), :mod:`.review` (a finished game, move by move), :mod:`.bodies` (request bodies read
in a worker), :mod:`.loading` (a pasted or uploaded position, puzzle or game record as a
position), :mod:`.games` (live games), :mod:`.watching` (a game played by an agent, the
``best`` policy or S4 rules, step by step), :mod:`.jobs` (what the worker processes
compute), :mod:`.workers` (the processes, each computation under a deadline) with
:mod:`.poolcounts` (what they have done), :mod:`.schema` (the API's JSON: its request models
are the checks), :mod:`.refusals` (validation errors as one line), :mod:`.apipage`,
:mod:`.limits` and :mod:`.errors`.

Only :mod:`.app`, :mod:`.routes`, :mod:`.context`, :mod:`.server`, :mod:`.schema`,
:mod:`.bodies` and :mod:`.jobs` import FastAPI, uvicorn or pydantic: :func:`analyze`,
:func:`explain` and the other modules work without the extra.
"""

from __future__ import annotations

from .analysis import Analysis, analyze, best_move
from .errors import NotDecidedError, RequestError
from .explanation import Explanation, explain
from .limits import Limits

__all__ = [
    "Analysis",
    "Explanation",
    "Limits",
    "NotDecidedError",
    "RequestError",
    "analyze",
    "best_move",
    "explain",
]
