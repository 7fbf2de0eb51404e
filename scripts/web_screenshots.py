"""Make the web page's screenshots for the documentation: Play, Analyse and Watch.

Serves the app in this process on a free port of 127.0.0.1 and drives it in headless
Chromium (Debian's ``chromium`` through Playwright; nothing is downloaded), every game
seeded, then saves six PNGs of the window:

- ``web-play-hint.png``: an expert game after a few moves, a hint shown with its clues;
- ``web-play-heat.png``: the same game with the heat map on, and Why? on a decided cell;
- ``web-play-end.png``: a no-guess game won on hints, its summary and its review;
- ``web-analyse.png``: a position pasted into the analyser, its odds and best move;
- ``web-watch.png``: the best policy watched on an expert board, at its first guess (the
  odds of that moment as a heat map), its proving clues ringed before it;
- ``web-phone.png``: an expert game on a 390 px touch screen, the heat map on.

    python scripts/web_screenshots.py               # writes docs/web-*.png
    python scripts/web_screenshots.py --out /tmp/shots
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Any

from mineshafted.probability import view_odds
from mineshafted.web.limits import Limits
from mineshafted.web.server import in_background

ROOT = Path(__file__).resolve().parent.parent

SEED = 12
"""The Play game's seed (an expert board, the first reveal an opening in the middle)."""

POSITION = """\
? ? ? ? ? ? 1 . . .
? ? ? ? 2 1 1 . . .
? ? ? ? 2 . . . . .
? ? ? ? 1 . . . . .
? ? ? 1 1 . . 1 1 1
? ? ? 1 . 1 1 2 ? ?
? ? ? 2 1 2 ? ? ? ?
? ? ? ? ? ? ? ? ? ?
"""
"""The position pasted into the analyser: an 8x10 game with 14 mines after its first reveal
(``Game.draw(8, 10, 14, rules=Rules(FirstMove.OPENING), seed=0)``, revealed at (4, 5))."""

MINES = 14

WATCHED = 14
"""The watched game's seed: the best policy deduces 259 steps, guesses, and wins."""


def glyph_grid(tab: Any) -> list[list[int | None]]:
    """The Play board as a position's grid."""
    glyphs = tab.evaluate(
        "Array.from(document.querySelectorAll('#play-board .c'), e => e.dataset.s)"
    )
    cols = int(tab.evaluate("window.mineshafted.playBoard.cols"))
    cells = [None if g in "?F" else -1 if g == "*" else 0 if g == "." else int(g) for g in glyphs]
    return [cells[r : r + cols] for r in range(0, len(cells), cols)]


def idle(tab: Any) -> None:
    tab.wait_for_function("() => window.mineshafted.idle()")


def shots(url: str, out: Path, executable: str) -> list[Path]:
    """Drive the page and save the screenshots; their paths."""
    from playwright.sync_api import sync_playwright

    written: list[Path] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        tab = browser.new_page(viewport={"width": 1180, "height": 760})
        tab.goto(url)
        tab.wait_for_selector("body[data-ready='1']")

        def save(name: str) -> None:
            path = out / name
            tab.screenshot(path=str(path))
            written.append(path)

        # Play: an expert game, opened in the middle, a few safe moves, then a hint.
        tab.select_option("#play-level", "expert")
        tab.select_option("#play-first", "opening")
        tab.check("#play-use-seed")
        tab.fill("#play-seed", str(SEED))
        tab.click("#play-new")
        idle(tab)
        tab.click("#play-board .c >> nth=" + str(8 * 30 + 15))
        idle(tab)
        for _ in range(6):
            tab.click("#play-hint")
            idle(tab)
            hinted = tab.query_selector("#play-board .c.hint")
            if hinted is None or "is safe" not in tab.inner_text("#play-say"):
                break
            hinted.click()
            idle(tab)
        tab.click("#play-hint")
        idle(tab)
        save("web-play-hint.png")

        # The heat map, and Why? on a cell the position decides.
        tab.keyboard.press("m")
        idle(tab)
        grid = glyph_grid(tab)
        odds = view_odds(grid, 99)
        decided = odds.mines[len(odds.mines) // 2] if odds.mines else odds.safe[0]
        tab.keyboard.press("w")
        tab.click("#play-board .c >> nth=" + str(decided))
        idle(tab)
        save("web-play-heat.png")
        tab.keyboard.press("Escape")
        tab.keyboard.press("m")

        # The end: a no-guess beginner board won on hints alone, its summary and review.
        tab.select_option("#play-level", "beginner")
        tab.select_option("#play-kind", "no-guess")
        tab.fill("#play-seed", "8")
        tab.click("#play-new")
        idle(tab)
        for _ in range(81):
            tab.click("#play-hint")
            idle(tab)
            hinted = tab.query_selector("#play-board .c.hint")
            if hinted is None:
                break
            hinted.click()
            idle(tab)
            if tab.inner_text("#play-status") != "playing":
                break
        tab.wait_for_function("() => window.mineshafted.play.review !== null")
        tab.click("#play-review")
        tab.click("#play-moves li >> nth=3")
        idle(tab)
        save("web-play-end.png")

        # Analyse: a pasted position.
        tab.click("#tab-analyse")
        tab.fill("#an-mines", str(MINES))
        tab.fill("#an-text", POSITION)
        tab.click("#an-load")
        idle(tab)
        tab.click("#an-export")
        save("web-analyse.png")

        # Watch: the best policy on an expert board, stepped to its first guess.
        tab.click("#tab-watch")
        tab.select_option("#w-player", "policy:best")
        tab.select_option("#w-level", "expert")
        tab.fill("#w-seed", str(WATCHED))
        tab.click("#w-new")
        idle(tab)
        for _ in range(2000):
            tab.click("#w-step")
            idle(tab)
            if "A guess" in tab.inner_text("#w-say") or tab.is_disabled("#w-step"):
                break
        tab.click("#w-back")
        idle(tab)
        tab.click("#w-step")
        idle(tab)
        save("web-watch.png")

        # A phone: 390 px wide, touch; the expert board scrolls under its labels.
        phone = browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
        ).new_page()
        phone.goto(url)
        phone.wait_for_selector("body[data-ready='1']")
        phone.select_option("#play-level", "expert")
        phone.select_option("#play-first", "opening")
        phone.check("#play-use-seed")
        phone.fill("#play-seed", str(SEED))
        phone.tap("#play-new")
        idle(phone)
        phone.tap("#play-board .c >> nth=" + str(3 * 30 + 4))
        idle(phone)
        phone.tap("#play-heat")
        idle(phone)
        phone.evaluate("document.querySelector('#play .wrap').scrollIntoView()")
        path = out / "web-phone.png"
        phone.screenshot(path=str(path))
        written.append(path)
        browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    """Serve, drive the page, save the screenshots; the exit status."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="The folder.")
    parser.add_argument("--chromium", help="The browser (default: chromium on PATH).")
    args = parser.parse_args(argv)
    executable = args.chromium or shutil.which("chromium")
    if executable is None:
        print("no chromium on PATH: apt-get install chromium, or pass --chromium", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with in_background(Limits()) as url:
        for path in shots(url, args.out, executable):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
