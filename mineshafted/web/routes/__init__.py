"""Routes: the app's endpoints, one FastAPI router per concern.

:mod:`.page` (the page's files, the API document, the config), :mod:`.analyse` (positions:
odds, explanations, what the policy knows, loaded texts), :mod:`.play` (live games), and
:mod:`.watch` (watched games). A tab of its own (Learn, say) adds its module here and its
router to :data:`ROUTERS`; its script is one more of :data:`.page.ASSETS`.
"""

from __future__ import annotations

from fastapi import APIRouter

from . import analyse, page, play, watch

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (page.router, analyse.router, play.router, watch.router)
"""Every router, in the order the API document lists them."""
