"""Page: one self-contained HTML file that steps through a game record.

The file holds everything: the style sheet, the script and the record's data (packed by
:func:`~.script.script`, as JSON in a ``<script type="application/json">`` block). It loads
nothing from anywhere, so it works offline and as an e-mail attachment.
"""

from __future__ import annotations

import html
import json
import logging
import os
from pathlib import Path

from ..errors import MineshaftedError
from ..formats import writing
from ..game import GameRecord
from .assets import SCRIPT, STYLE
from .script import Judgement, script

__all__ = ["PageExistsError", "page", "write_page"]

log = logging.getLogger(__name__)


class PageExistsError(MineshaftedError, FileExistsError):
    """The page's file exists and overwriting was not asked for; ``path`` names it."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        super().__init__(f"{self.path}: exists; use --force to overwrite it")


def page(record: GameRecord, *, title: str = "replay", judgement: Judgement | None = None) -> str:
    """The replay page of ``record`` as one HTML document.

    Parameters
    ----------
    record:
        The game to show; it must replay (see :func:`mineshafted.game.replay`).
    title:
        The page's title and heading.
    judgement:
        How a judge of the game saw its end: shown under the summary and at the last step,
        in place of the game's status, with the cells of what came after it marked.

    Returns
    -------
    str
        The document: the board as the player saw it at each step, the controls (first,
        previous, play/pause with a speed, next, last, a slider; keys ``←`` ``→``, space,
        Home, End, ``H``), what each step did and why, the outcome (or the judgement), a
        heat map of the mine odds where the record has them, and a legend.

    Raises
    ------
    RecordFormatError
        The record does not replay, or a reveal's odds are malformed.

    Examples
    --------
    >>> from mineshafted import Board, Game, Rules
    >>> game = Game.on(Board.from_grid([[0, 1, -1]]), rules=Rules.MINE_SHAFTED)
    >>> _ = game.reveal(0, reason="start")
    >>> document = page(game.record, title="a <tiny> game")
    >>> document.startswith("<!DOCTYPE html>"), "<title>a &lt;tiny&gt; game</title>" in document
    (True, True)
    >>> "://" in document  # no address to fetch anything from
    False

    Notes
    -----
    ``O(cells + events)``; the page is about 3 bytes per cell and 10 per step larger than
    its fixed ~15 KB of style and script.
    """
    data = json.dumps(script(record, title=title, judgement=judgement), separators=(",", ":"))
    data = data.replace("<", "\\u003c")  # the block cannot close itself early
    name = html.escape(title)
    return _TEMPLATE.format(title=name, style=STYLE, data=data, script=SCRIPT)


def write_page(
    record: GameRecord,
    path: str | os.PathLike[str],
    *,
    title: str = "replay",
    force: bool = False,
) -> Path:
    """Write the replay page of ``record`` to ``path`` and return the path.

    Raises
    ------
    PageExistsError
        ``path`` exists and ``force`` is not set.
    RecordFormatError
        As :func:`page`.
    OSError
        The file cannot be written; the error names it.
    """
    target = Path(path)
    if target.exists() and not force:
        raise PageExistsError(target)
    text = page(record, title=title)
    with writing(target):
        target.write_text(text, encoding="utf-8")
    log.info("wrote %s: %d bytes", target, len(text.encode()))
    return target


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<h1>{title}</h1>
<div id="summary"></div>
<div id="verdict" hidden></div>
<div id="bar">
<button id="first" title="First step (Home)">|&#x25C0;</button>
<button id="prev" title="Previous step (&#x2190;)">&#x25C0;</button>
<button id="play" title="Play or pause (space)">&#x25B6; Play</button>
<button id="next" title="Next step (&#x2192;)">&#x25B6;</button>
<button id="last" title="Last step (End)">&#x25B6;|</button>
<label>Speed <select id="speed" title="Steps per second while playing">
<option value="1">1/s</option><option value="4">4/s</option>
<option value="10" selected>10/s</option>
<option value="30">30/s</option><option value="100">100/s</option><option value="500">500/s</option>
</select></label>
<input id="slider" type="range" min="0" value="0" step="1" aria-label="Step">
<span id="step"></span>
<span><span id="status-name">Game</span>: <span id="status"></span></span>
</div>
<div id="what" aria-live="polite"></div>
<div id="counts"></div>
<div id="main">
<div id="wrap"><div id="board"></div></div>
<div id="legend">
<strong>Cells</strong>
<ul>
<li><span class="c h"></span>hidden</li>
<li><span class="c f">&#x2691;</span>flagged as a mine</li>
<li><span class="c m">&#x2739;</span>a revealed mine</li>
<li><span class="c">&nbsp;</span>a revealed 0</li>
<li><span class="c v1">1</span><span class="c v2">2</span><span class="c v3">3</span>\
<span class="c v4">4</span> clues</li>
<li><span class="c now"></span>changed at this step</li>
<li><span class="c h truth"></span>a mine never found (after the end)</li>
<li id="loop-key" hidden><span class="c loop"></span>moved onto again after the last step</li>
</ul>
<label><input id="tint" type="checkbox" checked> Colour revealed cells by reason</label>
<ul id="reasons"></ul>
<label><input id="heat" type="checkbox" disabled> Heat map of mine odds (H)</label>
<div id="ramp"></div><div>0% &#x2192; 100% mine</div>
<p><strong>Keys</strong>: <kbd>&#x2190;</kbd> <kbd>&#x2192;</kbd> step, <kbd>space</kbd> play or \
pause, <kbd>Home</kbd> <kbd>End</kbd> first or last step, <kbd>H</kbd> heat map.</p>
</div>
</div>
<script type="application/json" id="data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
