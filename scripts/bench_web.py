"""Benchmark the live web environment: the API's server times, and the page in headless Chromium.

Serves the app in this process on a free port of 127.0.0.1 (two workers, the default
limits), then measures:

1. ``POST /api/analyze`` on the stalls of classic expert games (30x16, 99 mines: the sweep,
   with the mine total, run from the corner until it decides nothing more): the server time
   each answer reports in its ``Server-Timing`` header (from the request's arrival to the
   answer's start: reading the body, the worker's computing and the answer's JSON) and the
   round trip the client sees, over one kept-alive connection;
2. ``POST /api/explain`` on up to ``--explained`` decided cells of each stall, the same way;
   and ``POST /api/survey`` (what the policy knows) on each stall;
3. the page in Debian's Chromium through Playwright (``--no-browser`` skips this): the first
   contentful paint of ``/`` and the time until it is ready (its first game made), over
   ``--loads`` loads; ``--painted`` expert stalls loaded into Analyse, each from its
   analysis's request to the frame painted after it shows; and ``--presses`` presses of
   the mouse (real input) on hidden safe cells of expert no-guess games (not the first reveal,
   which makes the board): from the input event to the first frame painted after the cell
   changed (shown pressed at once, before the server answers) and to the first frame
   painted after it shows its value. "Painted after" is a message posted from the frame's
   ``requestAnimationFrame``, which runs once the frame is drawn.

Printed: for each, the count, median, p90 and max in milliseconds; ``--json`` prints one
object instead. The targets (issues 22 and 31): analyze <= 20 ms and explain <= 100 ms of
server time (median), first paint <= 200 ms, an expert stall analysed and painted <= 50 ms,
a press to its painted frame <= 17 ms (one frame).

    python scripts/bench_web.py                   # 40 stalls, 10 loads, 60 presses
    python scripts/bench_web.py --stalls 200 --json
"""

from __future__ import annotations

import argparse
import http.client
import json
import shutil
import statistics
import time
from typing import Any
from urllib.parse import urlsplit

from mineshafted.game import Game, Rules
from mineshafted.probability import view_odds
from mineshafted.solver import Sweep
from mineshafted.web.limits import Limits
from mineshafted.web.server import in_background

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

Grid = list[list[int | None]]


def stalls(count: int, *, seed: int = 0) -> list[Grid]:
    """The first stall of classic expert games from ``seed`` on, as the player sees it.

    >>> grid = stalls(1)[0]
    >>> len(grid), len(grid[0]), any(v is None for row in grid for v in row)
    (16, 30, True)
    """
    found: list[Grid] = []
    while len(found) < count:
        game = Game.draw(16, 30, 99, rules=Rules.CLASSIC, seed=seed)
        seed += 1
        report = Sweep(game.manager(), start=0, mines=99).run()
        if not game.over and not report.solved:
            found.append(game.view().grid)
    return found


def summary(values: list[float]) -> dict[str, float]:
    """Count, median, p90 and max of ``values`` (milliseconds), rounded.

    >>> summary([1.0, 2.0, 3.0, 4.0])
    {'count': 4, 'median': 2.5, 'p90': 4.0, 'max': 4.0}
    """
    ordered = sorted(values)
    if not ordered:
        return {"count": 0, "median": float("nan"), "p90": float("nan"), "max": float("nan")}
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return {
        "count": len(ordered),
        "median": round(statistics.median(ordered), 2),
        "p90": round(p90, 2),
        "max": round(ordered[-1], 2),
    }


class Client:
    """One kept-alive HTTP connection to the server."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname or "", parts.port)

    def post(self, path: str, body: object) -> tuple[dict[str, Any], float, float]:
        """The answer, its server time and the round trip, both in milliseconds."""
        data = json.dumps(body).encode()
        began = time.perf_counter()
        self.connection.request(
            "POST", path, body=data, headers={"content-type": "application/json"}
        )
        response = self.connection.getresponse()
        payload = response.read()
        trip = (time.perf_counter() - began) * 1000
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status} {payload[:200]!r}")
        timing = response.getheader("server-timing", "app;dur=nan")
        server = float(timing.split("dur=")[1])
        answer: dict[str, Any] = json.loads(payload)
        return answer, server, trip


def api(url: str, count: int, explained: int) -> dict[str, dict[str, float]]:
    """Server times and round trips of analyze and explain on ``count`` expert stalls."""
    client = Client(url)
    client.post("/api/analyze", {"board": [[1, None]], "mines": 1})  # warm the workers
    times: dict[str, list[float]] = {
        k: [] for k in ("analyze", "analyze_trip", "explain", "explain_trip", "survey")
    }
    for grid in stalls(count):
        position = {"board": grid, "mines": 99}
        answer, server, trip = client.post("/api/analyze", position)
        times["analyze"].append(server)
        times["analyze_trip"].append(trip)
        decided = [*answer["safe"], *answer["mines"]][:explained]
        for cell in decided:
            _, server, trip = client.post("/api/explain", {**position, "cell": cell})
            times["explain"].append(server)
            times["explain_trip"].append(trip)
        _, server, _ = client.post("/api/survey", position)
        times["survey"].append(server)
    return {name: summary(values) for name, values in times.items()}


def page(url: str, loads: int, presses: int, painted: int) -> dict[str, dict[str, float]] | str:
    """The page's paint, readiness, analyses painted, and answers to presses, or why they were
    not measured."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "Playwright is not installed"
    executable = next(filter(None, map(shutil.which, BROWSERS)), None)
    if executable is None:
        return "no Chromium on PATH"
    paints: list[float] = []
    ready: list[float] = []
    shown: list[float] = []
    pressed: list[float] = []
    answered: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        for _ in range(loads):
            tab.goto(url)
            tab.wait_for_selector("body[data-ready='1']")
            paints.append(
                tab.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
            )
            ready.append(tab.evaluate("performance.now()"))
        tab.click("#tabs [data-tab=analyse]")
        for grid in stalls(painted, seed=1000):
            tab.evaluate(
                "(p) => { const m = window.mineshafted; m.an.painted = null; m.loadPosition(p); }",
                {"board": grid, "mines": 99},
            )
            tab.wait_for_function("() => window.mineshafted.an.painted !== null")
            shown.append(tab.evaluate("window.mineshafted.an.painted"))
        tab.click("#tabs [data-tab=play]")
        seed = 0
        while len(answered) < presses:
            tab.select_option("#play-level", "expert")
            tab.select_option("#play-kind", "no-guess")
            if tab.locator("#play-use-seed").count():  # (a page before issue 31 has none)
                tab.check("#play-use-seed")
            tab.fill("#play-seed", str(seed))
            seed += 1
            tab.click("#play-new")
            tab.wait_for_function("() => window.mineshafted.idle()")
            _press(tab, 0)  # the first reveal makes the board: not counted
            while len(answered) < presses and tab.inner_text("#play-status") == "playing":
                glyphs = tab.evaluate(
                    "Array.from(document.querySelectorAll('#play-board .c'), e => e.dataset.s)"
                )
                cells = [
                    None if g in "?F" else -1 if g == "*" else 0 if g == "." else int(g)
                    for g in glyphs
                ]
                grid = [cells[r : r + 30] for r in range(0, len(cells), 30)]
                safe = view_odds(grid, 99).safe
                if not safe:
                    break
                first, value = _press(tab, safe[len(safe) // 2])
                pressed.append(first)
                answered.append(value)
        browser.close()
    return {
        "paint": summary(paints),
        "ready": summary(ready),
        "analysis_painted": summary(shown),
        "press_drawn": summary(pressed),
        "press_answered": summary(answered),
    }


def _press(tab: Any, cell: int) -> tuple[float, float]:
    """Press ``cell`` of the Play board with the mouse (real input, through the browser's
    event pipeline); milliseconds from the input event to the first frame painted after the
    cell changed (pressed, before the server answers), and to the first frame painted after
    it shows its value."""
    tab.evaluate(
        """(cell) => {
            const el = document.querySelectorAll('#play-board .c')[cell];
            const times = window.pressTimes = { input: null, pressed: null, answered: null };
            const after = (key) => requestAnimationFrame(() => {
                const channel = new MessageChannel();
                channel.port1.onmessage = () => { times[key] = performance.now() - times.input; };
                channel.port2.postMessage(null);
            });
            const board = document.getElementById('play-board');
            board.addEventListener('pointerdown', (e) => { times.input = e.timeStamp; },
                { capture: true, once: true });
            const seen = new MutationObserver(() => {
                if (times.pressed === null && el.className !== seen.before) {
                    times.pressed = -1; after('pressed');
                }
                if (el.dataset.s !== '?' && times.answered === null) {
                    times.answered = -1; after('answered'); seen.disconnect();
                }
            });
            seen.before = el.className;
            seen.observe(el, { attributes: true });
        }""",
        cell,
    )
    box = tab.locator("#play-board .c").nth(cell).bounding_box()
    tab.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tab.wait_for_function("() => window.pressTimes.pressed > 0 && window.pressTimes.answered > 0")
    times = tab.evaluate("window.pressTimes")
    tab.wait_for_function("() => window.mineshafted.idle()")
    return float(times["pressed"]), float(times["answered"])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--stalls", type=int, default=40, help="expert stalls to analyse")
    parser.add_argument("--explained", type=int, default=10, help="cells explained per stall")
    parser.add_argument("--loads", type=int, default=10, help="page loads timed")
    parser.add_argument("--presses", type=int, default=60, help="presses timed")
    parser.add_argument("--painted", type=int, default=20, help="stalls painted in Analyse")
    parser.add_argument("--no-browser", action="store_true", help="time the API only")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with in_background(Limits()) as url:
        results: dict[str, Any] = {"api": api(url, args.stalls, args.explained)}
        if not args.no_browser:
            results["page"] = page(url, args.loads, args.presses, args.painted)
    if args.json:
        print(json.dumps(results))
        return
    print(f"{'what':<14} {'count':>6} {'median':>8} {'p90':>8} {'max':>8}  (ms)")
    for group in results.values():
        if isinstance(group, str):
            print(f"page: not measured: {group}")
            continue
        for name, row in group.items():
            print(
                f"{name:<14} {row['count']:>6} {row['median']:>8.2f} {row['p90']:>8.2f} "
                f"{row['max']:>8.2f}"
            )


if __name__ == "__main__":
    main()
