"""The Learn tab: ``POST /api/learn`` answers exactly the events of ``mineshafted trace --json``
for a shipped puzzle or a position, refuses in one line what it cannot trace (no live game,
no path, nothing past its bounds); in headless Chromium the tab steps through the
assignment's sample to the fixed point and back, its tables matching ``trace --json``."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app as cli
from mineshafted.solver.trace import notation
from mineshafted.web import tracing
from mineshafted.web.errors import RequestError

from ..replay.test_browser import browser  # noqa: F401 - the shared headless Chromium

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")
with warnings.catch_warnings():  # Starlette 1.x asks for httpx2; httpx serves every version
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from fastapi.testclient import TestClient

from mineshafted.web.app import CSP
from mineshafted.web.limits import Limits
from mineshafted.web.server import in_background

from .conftest import Tab

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Request, Route

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_FILE = ROOT / "puzzles" / tracing.SAMPLE
SAMPLE_SEEN = [[0, 1, None], [0, 2, None], [0, 2, None], [0, 1, None]]
SEEN_TEXT = ".1?\n.2?\n.2?\n.1?"
"""The sample once its zeros are explored, as Analyse takes a pasted grid."""


def traced_by_the_cli(*args: str) -> list[dict[str, Any]]:
    """The events ``mineshafted trace --json ARGS`` prints."""
    result = CliRunner().invoke(cli, ["trace", "--json", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.fixture
def client(api: TestClient) -> TestClient:
    """The web tests' app (:func:`.conftest.api`)."""
    return api


def _refusal(response: Any) -> str:
    assert response.status_code == 422, (response.status_code, response.text)
    body = response.json()
    assert set(body) == {"error"} and "\n" not in body["error"], body
    return str(body["error"])


# -- the API ----------------------------------------------------------------------------------


def test_the_sample_is_answered_with_the_events_trace_json_prints(client: TestClient) -> None:
    answer = client.post("/api/learn", json={"puzzle": tracing.SAMPLE}).json()
    assert answer["name"] == "assignment sample"
    assert answer["events"] == traced_by_the_cli(str(SAMPLE_FILE))


@pytest.mark.parametrize("technique", ["count", "subset", "ac3"])
def test_a_puzzle_from_another_start_with_each_rung_is_what_the_cli_traces(
    client: TestClient, technique: str
) -> None:
    name = "no-guess/9x9-10/03.json"
    body = {"puzzle": name, "start": [8, 8], "technique": technique}
    events = client.post("/api/learn", json=body).json()["events"]
    path = str(ROOT / "puzzles" / name)
    assert events == traced_by_the_cli(path, "--start", "8,8", "--technique", technique)


def test_a_position_is_answered_with_the_events_trace_json_prints(
    client: TestClient, tmp_path: Path
) -> None:
    answer = client.post("/api/learn", json={"board": SAMPLE_SEEN, "mines": 2}).json()
    path = tmp_path / "seen.json"
    path.write_text(json.dumps({"board": SAMPLE_SEEN, "mines": 2}))
    assert answer["name"] is None
    assert answer["events"] == traced_by_the_cli(str(path))


def test_the_puzzles_listed_are_the_shipped_ones_within_the_bounds_sample_first(
    client: TestClient,
) -> None:
    listed = client.get("/api/learn/puzzles").json()
    assert listed["sample"] == tracing.SAMPLE
    assert (listed["cells"], listed["events"]) == (tracing.CELLS, tracing.EVENTS)
    names = [p["name"] for p in listed["puzzles"]]
    assert names[0] == tracing.SAMPLE
    assert listed["puzzles"][0] == {
        "name": tracing.SAMPLE,
        "title": "assignment sample",
        "rows": 4,
        "cols": 3,
        "mines": 2,
    }
    on_disk = {
        p.relative_to(ROOT / "puzzles").as_posix() for p in (ROOT / "puzzles").rglob("*.json")
    }
    assert set(names) == on_disk - {"no-guess/200x200-5000/01.json"}
    assert all(p["rows"] * p["cols"] <= tracing.CELLS for p in listed["puzzles"])


def test_what_cannot_be_traced_is_refused_in_one_line(client: TestClient) -> None:
    def refused(body: object) -> str:
        return _refusal(client.post("/api/learn", json=body))

    sample = tracing.SAMPLE
    assert refused({}) == "puzzle, board: give one: a shipped puzzle's name or a position"
    assert refused({"puzzle": sample, "board": SAMPLE_SEEN}).startswith("puzzle, board: give one")
    assert refused({"puzzle": "../../../etc/passwd"}) == (
        'puzzle: "../../../etc/passwd" is not a shipped puzzle of 3,600 cells or fewer'
    )
    assert "is not a shipped puzzle" in refused({"puzzle": "no-guess/200x200-5000/01.json"})
    assert refused({"puzzle": sample, "start": [1, 2]}) == "start: [1, 2] is a mine"
    assert refused({"puzzle": sample, "start": [4, 0]}).startswith("start: [4, 0] is off")
    assert refused({"puzzle": sample, "mines": 2}) == "mines: only for a position"
    assert refused({"board": SAMPLE_SEEN, "start": [0, 0]}).startswith("start: a position")
    assert refused({"puzzle": sample, "technique": "complete"}) == (
        'technique: "complete" is not one of count, subset, ac3'
    )
    assert refused({"board": [[None] * 61] * 60}) == "board: 60x61 is more than 3,600 cells"
    assert "9 is not a clue" in refused({"board": [[9, None]]})
    assert refused({"board": [[1, -1], [-1, None]]}) == (
        "board: row 0, column 0: clue 1 but 2 known mines around it"
    )
    assert refused({"board": [[1, None, 1, None, 1]], "mines": 2}) == (
        "board: the clues contradict each other around cells [1, 3]"
    )
    assert refused({"board": [[1, None, 1, None, 1]]}) == (
        "board: the clues contradict each other around cells [1, 3]"
    )
    assert refused({"board": [[None, None], [None, None]], "mines": 100}) == (
        "board: 100 mine(s) left, but at most 4 fit in the unknown cells"
    )
    assert refused({"board": SAMPLE_SEEN, "mines": -1}) == "mines: -1 is not an integer 0 or more"
    assert refused({"board": SAMPLE_SEEN, "game": "x"}).startswith("game: unknown field")


def test_no_live_game_can_be_traced(client: TestClient) -> None:
    game = client.post("/api/games", json={"rows": 9, "cols": 9, "mines": 10}).json()
    client.post(f"/api/games/{game['id']}/reveal", json={"cell": [4, 4]})
    assert "is not a shipped puzzle" in _refusal(
        client.post("/api/learn", json={"puzzle": game["id"]})
    )
    assert _refusal(client.post("/api/learn", json={"game": game["id"]})).startswith(
        "game: unknown field"
    )


def test_a_trace_past_the_event_bound_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tracing, "EVENTS", 10)
    with pytest.raises(RequestError) as refused:
        tracing.traced(json.dumps({"puzzle": tracing.SAMPLE}).encode())
    assert refused.value.status == 422
    assert str(refused.value) == (
        "the trace has more than 10 events: too long to step through here; "
        "mineshafted trace --steps round shows it"
    )


def test_the_tabs_files_are_served_with_the_security_policy(client: TestClient) -> None:
    for path, kind in (("/learn.js", "text/javascript"), ("/learn.css", "text/css")):
        response = client.get(path)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith(kind)
        assert response.headers["content-security-policy"] == CSP
    page = client.get("/").text
    assert 'data-tab="learn"' in page and 'id="learn"' in page


# -- in the browser ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app on a free port of this machine, with a generous budget."""
    with in_background(Limits(seconds=30.0, workers=1)) as url:
        yield url


class Learn(Tab):
    """The page with the Learn tab open, watching for console errors and requests elsewhere
    (a ``blob:`` one included: the Learn tab makes none)."""

    def __init__(self, page: Page, url: str) -> None:
        super().__init__(page, url)
        page.click("[data-tab=learn]")
        self.ready()

    def _route(self, route: Route, request: Request) -> None:
        if request.url.startswith(self.origin + "/"):
            route.continue_()
        else:
            self.outside.append(request.url)
            route.abort()

    def ready(self) -> None:
        self.page.wait_for_selector("#learn[data-ready='1']")

    def press(self, name: str, times: int = 1) -> None:
        for _ in range(times):
            self.page.click(f"#learn-{name}")

    @property
    def at(self) -> int:
        return int(self.js("window.mineshaftedLearn.trace.at"))

    def events(self) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = self.js("window.mineshaftedLearn.trace.events")
        return events

    def kept(self) -> dict[int, list[str]]:
        """The domain table: each variable's values not struck through, as written."""
        rows = self.js(
            "Array.from(document.querySelectorAll('#learn-domains tr[data-variable]'),"
            " r => [Number(r.dataset.variable), JSON.parse(r.dataset.kept)])"
        )
        return {variable: kept for variable, kept in rows}

    def struck(self) -> list[str]:
        return list(
            self.js(
                "Array.from(document.querySelectorAll('#learn-domains s.gone'),"
                " s => s.textContent + ' by ' + s.nextSibling.textContent)"
            )
        )

    def arcs(self) -> dict[str, str]:
        return dict(
            self.js(
                "Array.from(document.querySelectorAll('#learn-arcs .arc'),"
                " a => [a.dataset.arc, a.title])"
            )
        )

    def cell_class(self, cell: int) -> str:
        return str(self.js(f"document.querySelectorAll('#learn-board .lc')[{cell}].className"))

    def say(self) -> str:
        return str(self.page.inner_text("#learn-say"))

    def clean(self) -> None:
        assert self.errors == [] and self.outside == [], (self.errors, self.outside)


@pytest.fixture
def learn(browser: Browser, server: str) -> Iterator[Learn]:  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield Learn(page, server)
    context.close()


def written(values: list[list[int]], cells: list[int]) -> list[str]:
    """Values as the tab writes them."""
    shown = []
    for value in values:
        signed = notation(value, cells)
        parts = [str(n) if n or 0 in value else "-0" for n in signed]
        shown.append("(" + ", ".join(parts) + ")")
    return shown


@pytest.mark.slow  # a real browser
def test_the_tab_steps_through_the_sample_to_the_fixed_point_and_back(learn: Learn) -> None:
    expected = traced_by_the_cli(str(SAMPLE_FILE))
    assert learn.events() == expected
    assert learn.at == 0 and learn.kept() == {}
    first = next(e for e in expected if e["event"] == "variables")
    k = expected.index(first)
    learn.press("fine", k)
    assert learn.at == k
    cells = {v["variable"]: v["cells"] for v in first["variables"]}
    assert learn.kept() == {
        v["variable"]: written(v["domain"], v["cells"]) for v in first["variables"]
    }
    assert learn.kept()[4] == ["(2, 5, -8)", "(2, -5, 8)", "(-2, 5, 8)"]
    assert set(learn.arcs().values()) == {"todo"}
    learn.press("step")  # the arc (1, 4): taken and revised, nothing removed
    assert expected[learn.at]["event"] == "revise" and expected[learn.at]["arc"] == [1, 4]
    assert learn.arcs()["1,4"] == "revising" and learn.arcs()["4,1"] == "todo"
    learn.press("step")  # the arc (4, 1): (2, 5, -8) removed; (1, 4) put back, the assignment's
    assert expected[learn.at]["event"] == "requeue"  # rule ((7, 4) and (10, 4) still wait)
    assert expected[learn.at]["arcs"] == [[1, 4]]
    assert learn.struck() == ["(2, 5, -8) by (4, 1)"]
    assert learn.arcs()["1,4"] == "todo" and learn.arcs()["4,1"] == "revising"
    assert "remove (2, 5, -8) from 4: 1 allows only (2, -5) (-2, 5)" in learn.say()
    assert "Requeue (1, 4): 4 shrank" in learn.say()
    learn.press("run")  # to the fixed point
    decided = next(e for e in expected if e["event"] == "decided")
    assert learn.at == expected.index(decided)
    assert learn.kept() == {
        d["variable"]: written(d["domain"], cells[d["variable"]]) for d in decided["domains"]
    }
    assert "(-5, 8, 11) by (7, 10)" in learn.struck()
    assert set(learn.arcs().values()) == {"consistent"}
    for cell, kind in (
        (2, "decided-safe"),
        (11, "decided-safe"),
        (5, "decided-mine"),
        (8, "decided-mine"),
    ):
        assert kind in learn.cell_class(cell), cell
    title = learn.js("document.querySelectorAll('#learn-board .lc')[2].title")
    assert title == "cell 2 (row 1, column 3): unknown; safe, decided by ac3 from 1, 4"
    labels = learn.js("[...document.querySelectorAll('#learn-board .ll')].map(l => l.textContent)")
    assert labels == ["", "1", "2", "3", "1", "2", "3", "4"]  # the 4x3 sample, from 1
    learn.press("back")  # back where the last step left
    assert expected[learn.at]["event"] == "requeue" and learn.struck() == ["(2, 5, -8) by (4, 1)"]
    learn.press("back", 2)
    assert learn.at == k
    learn.press("reset")
    assert learn.at == 0 and learn.kept() == {}
    learn.press("round")  # round 1, to its end
    assert learn.at == expected.index(decided)
    learn.press("round")
    assert learn.at == len(expected) - 1
    assert learn.say() == "Solved in 2 round(s)."
    assert learn.js("document.getElementById('learn-fine').disabled") is True
    learn.clean()


@pytest.mark.slow  # a real browser
def test_the_tab_traces_a_pasted_position_and_another_rung(learn: Learn, tmp_path: Path) -> None:
    learn.page.click("#learn-own summary")
    learn.page.fill("#learn-text", SEEN_TEXT)
    learn.press("position")
    learn.page.wait_for_function("() => window.mineshaftedLearn.trace.name === 'your position'")
    learn.ready()
    path = tmp_path / "seen.json"
    mines = learn.events()[0]["mines"]  # what Analyse's loader counts for a pasted grid
    path.write_text(json.dumps({"board": SAMPLE_SEEN, "mines": mines}))
    assert learn.events() == traced_by_the_cli(str(path))
    learn.press("run")
    assert "Explored next" not in learn.say() and "2 safe (by 1, 4)" in learn.say()
    learn.press("analyse")  # the Analyse tab's board (an empty 9x9 when the page opens)
    learn.page.wait_for_function("() => window.mineshaftedLearn.trace.name === 'the Analyse board'")
    learn.ready()
    assert learn.events()[0]["grid"] == [[None] * 9] * 9
    learn.page.select_option("#learn-technique", "subset")
    learn.press("sample")
    learn.page.wait_for_function(
        "() => window.mineshaftedLearn.trace.events[0].technique === 'subset'"
    )
    learn.ready()
    assert learn.events() == traced_by_the_cli(str(SAMPLE_FILE), "--technique", "subset")
    learn.press("run")
    shown = str(learn.page.inner_text("#learn-derived"))
    assert "{2, 5} = 1 (from 1) lies within {2, 5, 8} = 2 (from 4), so {8} = 1 (from 1, 4)" in shown
    learn.clean()
