"""Shared by the web tests: positions cut from real boards, a brute-force judge of them, and the
page in headless Chromium (:class:`Tab`, the ``server`` and ``tab`` fixtures)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest

from mineshafted.board import MINE, Board, PartialGrid

from ..replay.test_browser import browser  # noqa: F401 - the shared headless Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Request, Route


@dataclass(frozen=True)
class Cut:
    """A position cut from a real board: what a player might see, and the mine total."""

    grid: PartialGrid
    mines: int

    def json(self) -> dict[str, object]:
        """The position as ``mineshafted probabilities`` and the API read it."""
        return {"board": self.grid, "mines": self.mines}


def cuts(count: int, *, seed: int, rows: int, cols: int, density: float) -> Iterator[Cut]:
    """``count`` positions: a random board, some safe cells revealed (zeros opening their
    neighbours, as in play) and a few mines known."""
    rng = random.Random(seed)
    for _ in range(count):
        cells = rows * cols
        mines = max(1, round(cells * density * rng.uniform(0.7, 1.3)))
        board = Board.from_mines(rows, cols, rng.sample(range(cells), min(mines, cells - 1)))
        values = board.values
        grid: list[list[int | None]] = [[None] * cols for _ in range(rows)]
        table = board.geometry.neighbour_table()
        safe = [c for c in range(cells) if values[c] != MINE]
        for start in rng.sample(safe, rng.randint(1, max(1, len(safe) // 2))):
            queue = [start]
            for cell in queue:
                if grid[cell // cols][cell % cols] is not None:
                    continue
                grid[cell // cols][cell % cols] = values[cell]
                if values[cell] == 0:
                    queue.extend(table[cell])
        for cell in board.mines:
            if rng.random() < 0.15:
                grid[cell // cols][cell % cols] = MINE
        yield Cut(grid, len(board.mines))


class Brute:
    """Every assignment of mines to a small position's unknown cells, judged from the grid's
    digits directly (no code of the package): which agree with which clues, and the total."""

    def __init__(self, cut: Cut) -> None:
        self.grid = cut.grid
        self.rows, self.cols = len(cut.grid), len(cut.grid[0])
        self.unknown = [
            r * self.cols + c
            for r in range(self.rows)
            for c in range(self.cols)
            if cut.grid[r][c] is None
        ]
        known = sum(value == MINE for row in cut.grid for value in row)
        self.left = cut.mines - known
        assert len(self.unknown) <= 16, "brute force is for small positions"

    @cached_property
    def bit(self) -> dict[int, int]:
        return {cell: 1 << i for i, cell in enumerate(self.unknown)}

    def clue(self, row: int, col: int) -> tuple[int, int]:
        """The clue at (row, col) as ``(mask of its unknown neighbours, mines among them)``."""
        value = self.grid[row][col]
        assert value is not None and value != MINE
        mask, need = 0, value
        for r in range(row - 1, row + 2):
            for c in range(col - 1, col + 2):
                if (r, c) == (row, col) or not (0 <= r < self.rows and 0 <= c < self.cols):
                    continue
                if self.grid[r][c] is None:
                    mask |= self.bit[r * self.cols + c]
                elif self.grid[r][c] == MINE:
                    need -= 1
        return mask, need

    def clues(self) -> list[tuple[int, int]]:
        return [
            (r, c)
            for r in range(self.rows)
            for c in range(self.cols)
            if self.grid[r][c] is not None and self.grid[r][c] != MINE
        ]

    def assignments(self, clues: list[tuple[int, int]], *, total: bool) -> Iterator[int]:
        """Every assignment (a bit mask over the unknown cells) agreeing with ``clues`` (and
        the total)."""
        masks = [self.clue(r, c) for r, c in clues]
        for a in range(1 << len(self.unknown)):
            if total and a.bit_count() != self.left:
                continue
            if all((a & mask).bit_count() == need for mask, need in masks):
                yield a

    def forced(
        self, clues: list[tuple[int, int]], cell: tuple[int, int], *, mine: bool, total: bool
    ) -> bool:
        """Whether no assignment agreeing with ``clues`` (and the total) has ``cell`` the
        other way."""
        bit = self.bit[cell[0] * self.cols + cell[1]]
        return not any(bool(a & bit) != mine for a in self.assignments(clues, total=total))

    def decided(self) -> dict[tuple[int, int], bool]:
        """Every unknown cell that all the clues and the total decide: ``{cell: is_mine}``."""
        every = list(self.assignments(self.clues(), total=True))
        found = {}
        for cell, bit in self.bit.items():
            values = {bool(a & bit) for a in every}
            if len(values) == 1:
                found[divmod(cell, self.cols)] = values.pop()
        return found

    def not_decided(self) -> list[tuple[int, int]]:
        every = list(self.assignments(self.clues(), total=True))
        return [
            divmod(cell, self.cols)
            for cell, bit in self.bit.items()
            if len({bool(a & bit) for a in every}) == 2
        ]


GLYPHS = {"?": None, "F": None, "*": -1, ".": 0, **{str(n): n for n in range(1, 9)}}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app on a free port of this machine, with a generous budget (no verdict here
    depends on speed)."""
    pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")
    from mineshafted.web.limits import Limits
    from mineshafted.web.server import in_background

    with in_background(Limits(seconds=30.0, workers=2)) as url:
        yield url


@pytest.fixture(scope="session")
def api() -> Iterator[Any]:
    """The app through an ASGI test client, with two workers and a generous budget (no verdict
    here depends on speed) and room for every game the tests make: one pool of workers for
    every API test (starting one takes about half a second)."""
    pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")
    import warnings

    with warnings.catch_warnings():  # Starlette 1.x asks for httpx2; httpx serves every version
        warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
        from fastapi.testclient import TestClient

    from mineshafted.web.app import create_app
    from mineshafted.web.limits import Limits

    with TestClient(create_app(Limits(seconds=30.0, workers=2, games=1000))) as test_client:
        yield test_client


class Tab:
    """One page of the live environment, watching for console errors and requests."""

    def __init__(self, page: Page, url: str) -> None:
        self.page = page
        self.url = url
        self.origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))
        self.errors: list[str] = []
        self.outside: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.route("**/*", self._route)
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")

    def _route(self, route: Route, request: Request) -> None:
        if request.url.startswith(self.origin + "/") or request.url.startswith("blob:"):
            route.continue_()
        else:
            self.outside.append(request.url)
            route.abort()

    def js(self, expression: str, arg: object = None) -> Any:
        return self.page.evaluate(expression, arg)

    def glyphs(self, board: str) -> list[str]:
        return list(
            self.js(f"Array.from(document.querySelectorAll('#{board} .c'), e => e.dataset.s)")
        )

    def grid(self, board: str) -> list[list[int | None]]:
        """What the board shows, as a position's grid (flags unknown)."""
        cols = int(self.js(f"window.mineshafted.{_STATE[board]}.cols"))
        cells = [GLYPHS[g] for g in self.glyphs(board)]
        return [cells[r : r + cols] for r in range(0, len(cells), cols)]

    def cell(self, board: str, r: int, c: int) -> str:
        cols = int(self.js(f"window.mineshafted.{_STATE[board]}.cols"))
        return f"#{board} .c >> nth={r * cols + c}"

    def marked(self, board: str, cls: str) -> list[list[int]]:
        cols = int(self.js(f"window.mineshafted.{_STATE[board]}.cols"))
        found = self.js(
            f"Array.from(document.querySelectorAll('#{board} .c'))"
            f".map((e, i) => e.classList.contains('{cls}') ? i : -1).filter(i => i >= 0)"
        )
        return [[i // cols, i % cols] for i in found]

    def settle(self) -> None:
        """Wait until the page has no request in flight, nor one about to be made."""
        self.page.wait_for_function("() => window.mineshafted.idle()")

    def press(self, board: str, r: int, c: int) -> None:
        """Press the cell ``(r, c)`` of ``board`` with the mouse, and wait for its answers."""
        self.page.click(self.cell(board, r, c))
        self.settle()

    def new_game(self, **choices: str) -> None:
        for name, value in choices.items():
            field = f"#play-{name}"
            if name in ("seed",):
                self.page.check("#play-use-seed")
                self.page.fill(field, value)
            else:
                self.page.select_option(field, value)
        self.page.click("#play-new")
        self.settle()

    def analyse(self, text: str, *, mines: str) -> None:
        """Open Analyse and load ``text`` (a position's text) with the mine total ``mines``."""
        self.page.click("#tab-analyse")
        self.page.fill("#an-mines", mines)
        self.page.fill("#an-text", text)
        self.page.click("#an-load")
        self.settle()

    def watch(self, player: str, *, seed: str) -> None:
        """Open Watch and start ``player`` on the board of ``seed``, its first step ready."""
        self.page.click("#tab-watch")
        self.page.select_option("#w-player", player)
        self.page.fill("#w-seed", seed)
        self.page.click("#w-new")
        self.page.wait_for_function("() => !document.getElementById('w-step').disabled")

    def reveal_in_order(self) -> None:
        """Reveal Play's hidden cells in row-major order until the game ends (a mine, or a
        win)."""
        cells = len(self.glyphs("play-board"))
        cols = int(self.js("window.mineshafted.playBoard.cols"))
        for index in range(cells):
            if self.page.inner_text("#play-status") != "playing":
                return
            if self.glyphs("play-board")[index] == "?":
                self.press("play-board", *divmod(index, cols))


_STATE = {"play-board": "playBoard", "an-board": "anBoard", "w-board": "wBoard"}


@pytest.fixture
def tab(browser: Browser, server: str) -> Iterator[Tab]:  # noqa: F811
    """A fresh page; afterwards, no console error and nothing asked of another server."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    opened = Tab(page, server)
    yield opened
    page.close()
    assert opened.errors == []
    assert opened.outside == []
