"""The live page in headless Chromium: a no-guess game won on hints alone, the heat map's exact
odds, Why? highlighting the proving clues, the editor's paste and export round trip, Watch
stepping; in every test no console error and no request outside the server.

Driven as the replay page's browser tests are (Debian's ``chromium`` through Playwright; they
skip, saying why, without one, and fail instead when ``MINESHAFTED_REQUIRE_BROWSER`` is set).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app as cli
from mineshafted.probability import view_odds
from mineshafted.web import explain

from .conftest import Tab

pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")


pytestmark = pytest.mark.slow  # a real browser: run by CI, left out of `-m "not slow"`


def test_a_no_guess_game_is_won_using_only_hints(tab: Tab) -> None:
    tab.new_game(kind="no-guess", seed="8")
    for _ in range(81):
        tab.page.click("#play-hint")
        hinted = tab.page.wait_for_selector("#play-board   .c.hint")
        assert hinted is not None
        assert "is safe" in tab.page.inner_text("#play-say") or "Start at" in tab.page.inner_text(
            "#play-say"
        )
        hinted.click()
        tab.settle()
        if tab.page.inner_text("#play-status") != "playing":
            break
    assert tab.page.inner_text("#play-status") == "won"
    glyphs = tab.glyphs("play-board")
    assert glyphs.count("*") + glyphs.count("F") == 10 and "?" not in glyphs


def test_the_heat_map_shows_each_unknown_cells_exact_odds(tab: Tab) -> None:
    tab.new_game(level="intermediate", seed="5")
    tab.press("play-board", 8, 8)
    tab.page.keyboard.press("m")
    tab.page.wait_for_selector("#play-board   .c[data-p]")
    tab.settle()
    shown = tab.js(
        "Object.fromEntries(Array.from(document.querySelectorAll('#play-board   .c'))"
        ".map((e, i) => [i, e.dataset.p]).filter(([i, p]) => p !== undefined)"
        ".map(([i, p]) => [String(i), Number(p)]))"
    )
    odds = view_odds(tab.grid("play-board"), 40).floats()
    assert shown == {str(cell): p for cell, p in odds.items()}
    assert any(0 < p < 1 for p in shown.values())
    tab.page.keyboard.press("m")
    assert tab.js("document.querySelectorAll('#play-board   .c[data-p]').length") == 0


def test_why_highlights_the_clues_that_prove_a_cell(tab: Tab) -> None:
    tab.new_game(level="expert", seed="21")
    tab.press("play-board", 0, 0)
    grid = tab.grid("play-board")
    odds = view_odds(grid, 99)
    cols = 30
    decided = [*odds.safe, *odds.mines]
    open_cell = next(c for c, n in odds.mined.items() if 0 < n < odds.placements)
    assert decided, "the opening decides some cell"
    tab.page.click("#play-why")
    for cell in decided[:3]:
        r, c = divmod(cell, cols)
        tab.press("play-board", r, c)
        why = explain(grid, 99, (r, c))
        assert tab.marked("play-board", "why-cell") == [[r, c]]
        assert sorted(tab.marked("play-board", "why-clue")) == sorted(map(list, why.clues))
        assert sorted(tab.marked("play-board", "why-named")) == sorted(map(list, why.cells))
        said = tab.js("document.getElementById('play-say').firstChild.textContent")
        assert said.split("\n") == [why.verdict, *why.steps]  # one step a line, before the tag
    r, c = divmod(open_cell, cols)
    tab.press("play-board", r, c)
    assert f"Row {r + 1}, column {c + 1} is not decided" in tab.page.inner_text("#play-say")
    assert tab.marked("play-board", "why-clue") == []
    assert tab.marked("play-board", "why-named") == []
    tab.page.keyboard.press("Escape")
    assert tab.page.get_attribute("#play-why", "aria-pressed") == "false"


def test_the_editor_pastes_edits_and_exports_a_position_the_command_reads(
    tab: Tab, tmp_path: Path
) -> None:
    tab.analyse(". 1 ? ?\n. 2 ? ?\n. 2 ? ?\n. 1 ? ?\n", mines="4")
    assert tab.glyphs("an-board") == list(".1??.2??.2??.1??")
    tab.page.click("#an-palette button[data-v='-1']")  # paint a known mine at (0, 3)
    tab.press("an-board", 0, 3)
    tab.page.click("#an-export")
    exported = json.loads(tab.page.input_value("#an-json"))
    assert exported == {
        "board": [
            [0, 1, None, -1],
            [0, 2, None, None],
            [0, 2, None, None],
            [0, 1, None, None],
        ],
        "mines": 4,
    }
    path = tmp_path / "position.json"
    path.write_text(json.dumps(exported))
    printed = CliRunner().invoke(cli, ["probabilities", str(path), "--json"])
    assert printed.exit_code == 0, printed.output
    command = json.loads(printed.stdout)["probabilities"]
    shown = tab.js(
        "Array.from(document.querySelectorAll('#an-board   .c'), e => e.dataset.p === undefined"
        " ? null : Number(e.dataset.p))"
    )
    unknown = [
        p if v is None else None
        for row, ps in zip(exported["board"], command, strict=True)
        for v, p in zip(row, ps, strict=True)
    ]
    assert shown == unknown
    summary = tab.page.inner_text("#an-summary")
    assert "best move" in summary and "placements" in summary


def test_watch_steps_through_a_game_and_plays_it_to_the_end(tab: Tab) -> None:
    tab.watch("policy:best", seed="2")
    total = int(tab.page.inner_text("#w-count").split("/")[1])
    tab.page.click("#w-step")
    tab.page.wait_for_function(
        "() => document.getElementById('w-count').textContent.startsWith('1 /')"
    )
    assert "Why: start" in tab.page.inner_text("#w-say")
    assert tab.marked("w-board", "now")
    tab.page.click("#w-step")
    tab.page.wait_for_function(
        "() => document.getElementById('w-count').textContent.startsWith('2 /')"
    )
    tab.page.select_option("#w-speed", "100")
    tab.page.click("#w-play")
    tab.page.wait_for_function(
        f"() => document.getElementById('w-count').textContent === '{total} / {total}'",
        timeout=60_000,
    )
    tab.settle()
    assert tab.page.inner_text("#w-status") in ("won", "lost")
    assert tab.page.inner_text("#w-play") == "\u25b6 Play"
    assert "?" not in tab.glyphs("w-board") or tab.page.inner_text("#w-status") == "lost"


def test_a_random_games_seed_is_shown_once_it_is_over(tab: Tab) -> None:
    tab.new_game(level="beginner")
    assert tab.page.inner_text("#play-shown-seed") == "shown at the end"
    tab.reveal_in_order()
    assert tab.page.inner_text("#play-status") in ("won", "lost")
    assert tab.page.inner_text("#play-shown-seed").isdigit()
