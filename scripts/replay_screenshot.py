"""Make the README's screenshot of a replay page: an expert game at a guess, heat map on.

A classic 16x30 game with 99 mines (seeded) is played by the sweep, which knows the mine
total; at each stall it guesses the cell least likely to hold a mine, its exact odds and
those of every unknown cell recorded. The page is opened in headless Chromium (Debian's
``chromium``, driven by Playwright; nothing is downloaded) at one of the guesses, with the
heat map on, and the window is saved as a PNG:

    python scripts/replay_screenshot.py                      # writes docs/replay.png
    python scripts/replay_screenshot.py --guess 1 --out /tmp/shot.png --html /tmp/shot.html
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from mineshafted.game import Game, GameRecord, Reveal, Rules
from mineshafted.probability import odds
from mineshafted.replay import write_page
from mineshafted.solver import Sweep

ROOT = Path(__file__).resolve().parent.parent
SEED = 9
"""The game's seed: the sweep plays nearly to the end, guesses, then loses on a second guess."""


def played(seed: int) -> GameRecord:
    """A classic expert game swept from the corner, guessing the safest cell at each stall."""
    game = Game.draw(16, 30, 99, rules=Rules.CLASSIC, seed=seed)
    sweep = Sweep(game.manager(), start=0, mines=game.mines)
    report = sweep.run()
    while not game.over and not report.solved:
        chances = odds(sweep.position(), game.mines).floats()
        cell = min(chances, key=lambda c: (chances[c], c))
        event = game.reveal(
            cell, guess=True, probability=chances[cell], reason="guess", detail={"odds": chances}
        )
        sweep.tell(cell, mine=event.hit)
        if not game.over:
            report = sweep.advance()
    return game.record


def guess_steps(record: GameRecord) -> list[int]:
    """The page's step number of each guess in ``record``, in order."""
    steps: list[int] = []
    step = 0
    for event in record.events:
        if event.kind in ("reveal", "flag", "unflag"):
            step += 1
            if isinstance(event, Reveal) and event.guess:
                steps.append(step)
    return steps


def main(argv: list[str] | None = None) -> int:
    """Play, write the page, and save the screenshot; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "replay.png")
    parser.add_argument("--html", type=Path, help="Also keep the page here.")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--guess", type=int, default=1, help="Which guess to show, from 1.")
    parser.add_argument("--chromium", help="The browser (default: chromium on PATH).")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    executable = args.chromium or shutil.which("chromium")
    if executable is None:
        print("no chromium on PATH: apt-get install chromium, or pass --chromium", file=sys.stderr)
        return 2
    record = played(args.seed)
    steps = guess_steps(record)
    if not 1 <= args.guess <= len(steps):
        print(f"the game has {len(steps)} guess(es), not {args.guess}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        page_path = args.html or Path(folder) / "replay.html"
        title = f"Expert game (seed {args.seed}), played by the sweep with guesses at exact odds"
        write_page(record, page_path, title=title, force=True)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1240, "height": 760})
            page.goto(page_path.resolve().as_uri())
            page.wait_for_selector("body[data-ready='1']")
            page.evaluate(f"window.replay.go({steps[args.guess - 1]})")
            page.keyboard.press("h")
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.out))
            browser.close()
    print(f"wrote {args.out}: step {steps[args.guess - 1]}, guess {args.guess} of {len(steps)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
