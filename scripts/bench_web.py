"""Benchmark the live web environment: the API's server times, and the page in headless Chromium.

Serves the app in this process on a free port of 127.0.0.1 (two workers, the default
limits), then measures:

1. ``POST /api/analyze`` on the stalls of classic expert games (30x16, 99 mines: the sweep,
   with the mine total, run from the corner until it decides nothing more): the server time
   each answer reports in its ``Server-Timing`` header (from the request's arrival to the
   answer's start: reading the body, the worker's computing and the answer's JSON) and the
   round trip the client sees, over one kept-alive connection;
2. ``POST /api/explain`` on up to ``--explained`` decided cells of each stall, the same way;
3. the page in Debian's Chromium through Playwright (``--no-browser`` skips this): the first
   contentful paint of ``/`` and the time until it is ready (its first game made), over
   ``--loads`` loads; and the answer to a click: from a click on a hidden safe cell of an
   expert no-guess game to the next frame painted after the cell shows its value.

Printed: for each, the count, median, p90 and max in milliseconds; ``--json`` prints one
object instead. The targets (issue 22): analyze <= 20 ms and explain <= 100 ms of server
time (median), paint <= 1 s, a click answered <= 100 ms.

    python scripts/bench_web.py                   # 40 stalls, 10 loads, 60 clicks
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
        k: [] for k in ("analyze", "analyze_trip", "explain", "explain_trip")
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
    return {name: summary(values) for name, values in times.items()}


def page(url: str, loads: int, clicks: int) -> dict[str, dict[str, float]] | str:
    """The page's paint, readiness and answers to clicks, or why they were not measured."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "Playwright is not installed"
    executable = next(filter(None, map(shutil.which, BROWSERS)), None)
    if executable is None:
        return "no Chromium on PATH"
    paints: list[float] = []
    ready: list[float] = []
    answers: list[float] = []
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
        seed = 0
        while len(answers) < clicks:
            tab.select_option("#play-level", "expert")
            tab.select_option("#play-kind", "no-guess")
            tab.fill("#play-seed", str(seed))
            seed += 1
            tab.click("#play-new")
            tab.wait_for_function("() => window.mineshafted.idle()")
            answers.append(_click(tab, 0))  # the first click makes the board
            while len(answers) < clicks and tab.inner_text("#play-status") == "playing":
                glyphs = tab.evaluate(
                    "Array.from(document.querySelectorAll('#play-board > .c'), e => e.dataset.s)"
                )
                cells = [
                    None if g in "?F" else -1 if g == "*" else 0 if g == "." else int(g)
                    for g in glyphs
                ]
                grid = [cells[r : r + 30] for r in range(0, len(cells), 30)]
                safe = view_odds(grid, 99).safe
                if not safe:
                    break
                answers.append(_click(tab, safe[len(safe) // 2]))
        browser.close()
    return {"paint": summary(paints), "ready": summary(ready), "click": summary(answers)}


def _click(tab: Any, cell: int) -> float:
    """Click ``cell`` of the Play board; milliseconds until the frame after it shows a value."""
    took: float = tab.evaluate(
        """(cell) => new Promise((resolve) => {
            const el = document.querySelectorAll('#play-board > .c')[cell];
            const before = el.dataset.s, began = performance.now();
            const seen = new MutationObserver(() => {
                if (el.dataset.s === before) { return; }
                seen.disconnect();
                requestAnimationFrame(() => resolve(performance.now() - began));
            });
            seen.observe(el, { attributes: true });
            el.click();
        })""",
        cell,
    )
    tab.wait_for_function("() => window.mineshafted.idle()")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--stalls", type=int, default=40, help="expert stalls to analyse")
    parser.add_argument("--explained", type=int, default=10, help="cells explained per stall")
    parser.add_argument("--loads", type=int, default=10, help="page loads timed")
    parser.add_argument("--clicks", type=int, default=60, help="clicks timed")
    parser.add_argument("--no-browser", action="store_true", help="time the API only")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with in_background(Limits()) as url:
        results: dict[str, Any] = {"api": api(url, args.stalls, args.explained)}
        if not args.no_browser:
            results["page"] = page(url, args.loads, args.clicks)
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
