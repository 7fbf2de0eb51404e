"""Replay pages in headless Chromium: every view, the controls, the heat map, no network.

Driven through Playwright for Python pointed at the system's Chromium (Debian's ``chromium``
package; no browser is downloaded). The tests skip, saying why, when Playwright or a Chromium
is missing, unless ``MINESHAFTED_REQUIRE_BROWSER`` is set (as CI sets it): then they fail.
``MINESHAFTED_CHROMIUM`` names the browser's executable when it is not on ``PATH``.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from mineshafted.board import MINE, Board
from mineshafted.formats import read_puzzles
from mineshafted.game import Flag, GameRecord, View, views_of
from mineshafted.replay import Judgement, moves_page, write_page
from mineshafted.solver.recording import record_solve

from .conftest import PUZZLES, solved

pytestmark = pytest.mark.slow  # a real browser: run by CI, left out of `-m "not slow"`

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Request, Route

log = logging.getLogger(__name__)

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def _unavailable(reason: str) -> None:
    if os.environ.get("MINESHAFTED_REQUIRE_BROWSER"):
        pytest.fail(f"MINESHAFTED_REQUIRE_BROWSER is set, but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Chromium, or a skip naming what is missing."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        _unavailable("Playwright is not installed (pip install playwright)")
    executable = os.environ.get("MINESHAFTED_CHROMIUM") or next(
        filter(None, map(shutil.which, BROWSERS)), None
    )
    if executable is None:
        _unavailable(f"no Chromium on PATH (looked for {', '.join(BROWSERS)})")
    with sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        except Error as error:
            _unavailable(f"{executable} does not start: {error.message.splitlines()[0]}")
        yield chromium
        chromium.close()


class Tab:
    """One browser page that opens replay pages and watches for errors and requests."""

    def __init__(self, page: Page, folder: Path) -> None:
        self.page = page
        self.folder = folder
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.allowed: set[str] = set()
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("request", lambda request: self.requests.append(request.url))
        page.route("**/*", self._route)

    def _route(self, route: Route, request: Request) -> None:
        if request.url in self.allowed:
            route.continue_()
        else:
            route.abort()

    def open(self, record: GameRecord, name: str = "replay") -> dict[str, Any]:
        """Write ``record``'s page, load it, and return the data the page holds."""
        path = write_page(record, self.folder / f"{name}.html", title=name, force=True)
        return self.load(path)

    def open_document(self, document: str, name: str = "replay") -> dict[str, Any]:
        """Write a page made elsewhere, load it, and return the data it holds."""
        path = self.folder / f"{name}.html"
        path.write_text(document, encoding="utf-8")
        return self.load(path)

    def load(self, path: Path) -> dict[str, Any]:
        """Load the page at ``path`` and return the data it holds."""
        url = path.resolve().as_uri()
        self.allowed.add(url)
        self.page.goto(url)
        self.page.wait_for_selector("body[data-ready='1']")
        data: dict[str, Any] = self.page.evaluate(
            "JSON.parse(document.getElementById('data').textContent)"
        )
        return data

    def glyphs(self) -> str:
        """Every cell's ``data-s``, row-major: the position the page shows."""
        return str(
            self.page.evaluate(
                "Array.from(document.querySelectorAll('#board > .c'), e => e.dataset.s).join('')"
            )
        )

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector)

    def step(self) -> int:
        return int(self.text("#step").split()[1])


@pytest.fixture
def tab(browser: Browser, tmp_path: Path) -> Iterator[Tab]:
    """A fresh page; afterwards, no console error and nothing but the replay requested."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watched = Tab(page, tmp_path)
    yield watched
    page.close()
    assert watched.errors == []
    assert set(watched.requests) <= watched.allowed, watched.requests


def _shown(view: View) -> str:
    """A view's cells as the page writes them: ``?`` ``F`` ``*`` ``.`` and digits."""
    return "".join(view.render().split())


@pytest.mark.parametrize("name", ["small_solve", "guessing_game", "lost_game"])
def test_each_step_shows_exactly_the_recorded_position(
    tab: Tab, name: str, request: pytest.FixtureRequest
) -> None:
    record: GameRecord = request.getfixturevalue(name)
    data = tab.open(record, name)
    views = list(views_of(record))
    assert len(views) == len(data["kinds"]) + 1
    for k, view in enumerate(views):
        if k:
            tab.page.keyboard.press("ArrowRight")
        assert tab.glyphs() == _shown(view), f"step {k}"
        assert tab.text("#step") == f"Step {k} / {len(views) - 1}"
    tab.page.keyboard.press("ArrowRight")  # past the end: stays
    assert tab.step() == len(views) - 1
    for k in range(len(views) - 2, -1, -1):  # and back, undoing each step
        tab.page.keyboard.press("ArrowLeft")
        assert tab.glyphs() == _shown(views[k]), f"back to step {k}"


def test_buttons_slider_and_keys_move_as_documented(tab: Tab, guessing_game: GameRecord) -> None:
    data = tab.open(guessing_game)
    last = len(data["kinds"])
    views = list(views_of(guessing_game))
    page = tab.page
    page.click("#next")
    page.click("#next")
    assert tab.step() == 2
    page.click("#prev")
    assert tab.step() == 1 and tab.glyphs() == _shown(views[1])
    page.click("#last")
    assert tab.step() == last and tab.glyphs() == _shown(views[-1])
    page.click("#first")
    assert tab.step() == 0 and tab.glyphs() == _shown(views[0])
    page.keyboard.press("End")
    assert tab.step() == last
    page.keyboard.press("Home")
    assert tab.step() == 0
    for k in (last // 2, 3, last, 1):  # the slider jumps both ways
        page.eval_on_selector(
            "#slider", "(el, k) => { el.value = k; el.dispatchEvent(new Event('input')); }", k
        )
        assert tab.step() == k and tab.glyphs() == _shown(views[k])
    page.focus("#slider")  # keys on the focused slider move one step, not two
    page.keyboard.press("ArrowRight")
    assert tab.step() == 2


def test_space_plays_to_the_end_and_pauses(tab: Tab, small_solve: GameRecord) -> None:
    data = tab.open(small_solve)
    last = len(data["kinds"])
    page = tab.page
    page.select_option("#speed", "500")
    page.keyboard.press(" ")
    assert tab.text("#play") == "\u23f8 Pause"
    page.wait_for_function(f"() => window.replay.step === {last}", timeout=10_000)
    assert tab.text("#play") == "\u25b6 Play"  # stopped by itself at the end
    assert tab.text("#status") == "won"
    page.keyboard.press(" ")  # from the end, play starts over
    assert tab.step() < last
    page.keyboard.press(" ")
    paused = tab.step()
    assert tab.text("#play") == "\u25b6 Play"
    page.evaluate("() => new Promise(r => setTimeout(r, 50))")  # 25 ticks at 500/s, if running
    assert tab.step() == paused


def test_the_heat_map_shows_the_recorded_odds_at_each_guess(
    tab: Tab, guessing_game: GameRecord
) -> None:
    data = tab.open(guessing_game)
    assert tab.page.is_disabled("#heat")
    assert data["odds"]
    for key, odds in data["odds"].items():
        tab.page.evaluate(f"window.replay.go({key})")
        assert tab.page.is_enabled("#heat")
        marked = tab.page.evaluate(
            "Object.fromEntries(Array.from(document.querySelectorAll('#board > .c[data-p]'),"
            " e => [String(Array.prototype.indexOf.call(e.parentNode.children, e)),"
            " Number(e.dataset.p)]))"
        )
        assert marked == odds
        guess = data["guesses"][key]["p"]
        places = 2 if guess < 0.01 or guess > 0.99 else 1
        assert f"A guess, mine probability {100 * guess:.{places}f}%." in tab.text("#what")
    board_class = "document.getElementById('board').classList.contains('heat')"
    assert tab.page.evaluate(board_class) is False
    tab.page.keyboard.press("h")
    assert tab.page.evaluate(board_class) is True
    tab.page.keyboard.press("Home")
    assert tab.page.is_disabled("#heat")
    assert tab.page.evaluate("document.querySelectorAll('[data-p]').length") == 0


def test_the_outcome_and_each_reason_are_always_said(tab: Tab, lost_game: GameRecord) -> None:
    data = tab.open(lost_game)
    last = len(data["kinds"])
    assert f"result: lost at step {last}" in tab.text("#summary")
    assert tab.text("#status") == "playing"
    tab.page.keyboard.press("ArrowRight")
    assert "Revealed cell 40 (row 4, column 4)" in tab.text("#what")  # index first
    tab.page.keyboard.press("End")
    assert tab.text("#status") == "lost"
    what = tab.text("#what")
    assert "a mine" in what and "A guess, mine probability" in what and "lost" in what
    assert "*" in tab.glyphs()


@pytest.mark.parametrize(
    ("reason", "said"),
    [
        ("start", "start, the start cell"),
        ("count", "count, counting"),
        ("ac3", "ac3, AC-3"),
        ("complete", "complete, component search"),
    ],
)
def test_a_solve_says_which_stage_proved_each_cell(tab: Tab, reason: str, said: str) -> None:
    data = tab.open(solved("needs-guess/30x16-99-01.json"))
    first = data["why"].index(data["reasons"].index(reason)) + 1
    for _ in range(first):
        tab.page.keyboard.press("ArrowRight")
    assert f"Why: {said}" in tab.text("#what")
    assert said.split(", ")[1] in tab.text("#reasons")  # the legend


def test_a_200x200_solve_paints_within_2_seconds_and_steps(tab: Tab) -> None:
    puzzle = read_puzzles(PUZZLES / "no-guess" / "200x200-5000" / "01.json")[0]
    record = record_solve(puzzle.board, start=puzzle.start)
    data = tab.open(record, "big")
    paint = tab.page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
    size = (tab.folder / "big.html").stat().st_size
    steps = len(data["kinds"])
    log.warning("200x200 solve: %d bytes, %d steps, first paint %.0f ms", size, steps, paint)
    assert paint <= 2000
    began = time.perf_counter()
    tab.page.keyboard.press("End")
    assert tab.step() == len(data["kinds"])
    log.warning("200x200 solve: to the last step in %.2f s", time.perf_counter() - began)
    # Solved: every safe cell shows its clue, and each mine its flag if it was flagged.
    flags = {e.cell for e in record.events if isinstance(e, Flag)}
    values = puzzle.board.values
    expected = [
        ("F" if c in flags else "?") if v == MINE else (str(v) if v else ".")
        for c, v in enumerate(values)
    ]
    assert tab.glyphs() == "".join(expected)
    tab.page.keyboard.press("ArrowLeft")
    assert tab.step() == len(data["kinds"]) - 1


def test_a_judged_replay_ends_on_its_verdict_and_never_calls_a_wrong_board_won(tab: Tab) -> None:
    board = Board.from_grid([[0, 1, -1], [0, 1, 1]])
    safe = [0, 1, 3, 4, 5]  # every safe cell: the game itself is won
    said = Judgement(
        "wrong board",
        "Your sweep moved onto every safe cell, but the board it returned is wrong.",
        "After move 5, its last onto a new cell, moves 6-90 repeat cells 4 (1, 1), 5 (1, 2).",
        (4, 5),
    )
    data = tab.open_document(moves_page(board, safe, title="ann: b", judgement=said))
    assert data["outcome"]["status"] == "won"
    assert tab.text("#status") == "playing" and tab.text("#status-name") == "Verdict"
    assert tab.text("#verdict").startswith("Verdict: wrong board. Your sweep moved onto every")
    assert "result: wrong board after step 5" in tab.text("#summary")
    tab.page.keyboard.press("End")
    assert tab.text("#status") == "wrong board"
    what = tab.text("#what")
    assert "Verdict: wrong board." in what and "moves 6-90 repeat cells 4 (1, 1)" in what
    shown = " ".join(tab.text(s) for s in ("#status", "#what", "#summary", "#verdict"))
    assert "won" not in shown
    looped = tab.page.evaluate(
        "Array.from(document.querySelectorAll('#board > .c'), (e, i) => [i, e]).filter("
        "([i, e]) => e.classList.contains('loop')).map(([i]) => i)"
    )
    assert looped == [4, 5] and tab.page.is_visible("#loop-key")
    tab.page.keyboard.press("ArrowLeft")
    assert tab.text("#status") == "playing"
    assert tab.page.evaluate("document.querySelectorAll('#board > .loop').length") == 0
