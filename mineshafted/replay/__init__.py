"""Replay: a game record as one self-contained HTML page that steps through the game.

:func:`script` packs a :class:`~mineshafted.game.GameRecord` as the page's data (one step per
action, as diffs); :func:`page` and :func:`write_page` make the page around it. Any record
works (a solve recorded by :func:`mineshafted.solver.recording.record_solve`, a game, a rules
run); reasons and details the page does not know are shown as they are. :func:`moves_page`
replays a sweep's moves on a board (a graded submission's), with a :class:`Judgement` of its
end in place of the game's status.
"""

from __future__ import annotations

from .moves import moves_page
from .page import PageExistsError, page, write_page
from .script import ODDS, Judgement, script

__all__ = ["ODDS", "Judgement", "PageExistsError", "moves_page", "page", "script", "write_page"]
