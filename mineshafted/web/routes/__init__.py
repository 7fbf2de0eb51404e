"""Routes: the app's endpoints, one FastAPI router per concern.

:mod:`.page` (the page's files, the API document, the config), :mod:`.analyse` (positions:
odds, explanations, what the policy knows, loaded texts), :mod:`.play` (live games), and
:mod:`.watch` (watched games) and :mod:`.learn` (AC-3 step by step, with its own script and
style). A new tab adds its module here and its router to :data:`ROUTERS`.
"""

from __future__ import annotations

from fastapi import APIRouter

from . import analyse, learn, page, play, watch

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (
    page.router,
    analyse.router,
    play.router,
    watch.router,
    learn.router,
)
"""Every router, in the order the API document lists them."""
