"""The page to a player's standard, in headless Chromium: labels and the cells a sentence names,
nothing lost, marks and palettes, links and continuity, touch and keyboard, what the policy
knows, review and the bridges between tabs. In every test no console error and no request
outside the server (the fixture of ``test_browser``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from mineshafted.probability import view_odds
from mineshafted.web import explain

from .conftest import Tab

pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")

from mineshafted.web.survey import survey

pytestmark = pytest.mark.slow  # a real browser: run by CI, left out of `-m "not slow"`

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def _scrub(tab: Tab, step: int) -> None:
    """Move Watch's scrubber to ``step``, as a drag would."""
    tab.page.eval_on_selector(
        "#w-scrub", f"e => {{ e.value = '{step}'; e.dispatchEvent(new Event('input')); }}"
    )


def _pct(p: float) -> str:
    """A probability as the page writes it."""
    digits = 2 if 0 < p < 0.01 or 0.99 < p < 1 else 1
    return f"{100 * p:.{digits}f}%"


# -- 1. labels, and the cells a sentence names --------------------------------------------------


def test_every_board_has_row_and_column_labels(tab: Tab) -> None:
    tab.new_game(level="expert", seed="1")
    counts = (
        "(b) => [b.querySelectorAll('[role=columnheader]').length, "
        "b.querySelectorAll('[role=rowheader]').length]"
    )
    assert tab.page.eval_on_selector("#play-board", counts) == [31, 16]
    assert tab.page.inner_text("#play-board [role=columnheader] >> nth=30") == "30"
    tab.page.click("#tab-analyse")
    assert tab.page.eval_on_selector("#an-board", counts) == [10, 9]
    tab.page.click("#tab-watch")
    tab.page.fill("#w-seed", "2")
    tab.page.click("#w-new")
    tab.page.wait_for_function("() => !document.getElementById('w-step').disabled")
    assert tab.page.eval_on_selector("#w-board", counts) == [10, 9]


def test_why_marks_the_cells_its_sentence_names_and_tags_the_technique(tab: Tab) -> None:
    tab.new_game(level="expert", seed="21")
    tab.press("play-board", 0, 0)
    grid = tab.grid("play-board")
    odds = view_odds(grid, 99)
    r, c = divmod([*odds.safe, *odds.mines][0], 30)
    tab.page.click("#play-why")
    tab.press("play-board", r, c)
    why = explain(grid, 99, (r, c))
    assert tab.marked("play-board", "why-cell") == [[r, c]]
    assert sorted(tab.marked("play-board", "why-clue")) == sorted(map(list, why.clues))
    assert sorted(tab.marked("play-board", "why-named")) == sorted(map(list, why.cells))
    assert tab.page.inner_text("#play-say .tag") == why.technique.value
    assert f"Row {r + 1}, column {c + 1} is" in tab.page.inner_text("#play-say")
    tab.page.keyboard.press("Escape")
    hidden = next(i for i, g in enumerate(tab.glyphs("play-board")) if g == "?")
    tab.page.click(tab.cell("play-board", *divmod(hidden, 30)), button="right")  # the next action
    tab.settle()
    assert tab.marked("play-board", "why-clue") == [] and tab.marked("play-board", "why-cell") == []
    assert tab.marked("play-board", "why-named") == []


# -- 2 and 5. nothing lost; the keyboard alone ---------------------------------------------------


def test_a_small_no_guess_board_is_won_from_the_keyboard_alone_and_its_summary_stays(
    tab: Tab,
) -> None:
    tab.new_game(kind="no-guess", seed="8")
    for _ in range(40):  # Tab into the board: the one cell in the tab order
        tab.page.keyboard.press("Tab")
        if tab.js("document.activeElement.getAttribute('role')") == "gridcell":
            break
    assert tab.js("document.activeElement.getAttribute('aria-label')") == "row 1, column 1, hidden"
    for _ in range(81):
        tab.page.keyboard.press("h")
        tab.settle()
        [[r, c]] = tab.marked("play-board", "hint")
        here = int(tab.js("document.activeElement.i"))
        hr, hc = divmod(here, 9)
        for key, steps in (
            ("ArrowDown", r - hr),
            ("ArrowUp", hr - r),
            ("ArrowRight", c - hc),
            ("ArrowLeft", hc - c),
        ):
            for _ in range(max(0, steps)):
                tab.page.keyboard.press(key)
        assert int(tab.js("document.activeElement.i")) == r * 9 + c
        tab.page.keyboard.press("Enter")
        tab.settle()
        if tab.page.inner_text("#play-status") != "playing":
            break
    assert tab.page.inner_text("#play-status") == "won"
    assert tab.page.inner_text("#play-counter") == "0"
    glyphs = tab.glyphs("play-board")
    assert glyphs.count("F") == 10 and "*" not in glyphs and "?" not in glyphs  # flagged
    tab.page.wait_for_function(
        "() => /guess/i.test(document.getElementById('play-end-text').textContent)"
    )
    summary = tab.page.inner_text("#play-end-text")
    assert re.search(r"Won in \d+ s · 3BV \d+ · \d+ actions · efficiency \d+%", summary), summary
    assert "No guess" in summary
    tab.settle()
    assert tab.page.is_visible("#play-end") and tab.page.inner_text("#play-end-text") == summary


def test_analyses_notes_stay_until_the_next_user_action(tab: Tab) -> None:
    tab.analyse(". 1 ? ?\n. 1 F ?\n", mines="9")
    note = tab.page.inner_text("#an-say")
    assert "Loaded a text grid" in note and "is now 3, the nearest they allow" in note
    assert tab.page.input_value("#an-mines") == "3"
    assert "placements" in tab.page.inner_text("#an-summary")  # the analysis came, the note stayed
    tab.page.click(tab.cell("an-board", 0, 3), button="right")  # an edit: it stays unknown
    tab.settle()
    assert tab.page.inner_text("#an-say") == ""


# -- 3. marks and palettes ---------------------------------------------------------------------


def test_the_palette_and_show_safe_cells_and_mines(tab: Tab) -> None:
    tab.new_game(level="intermediate", seed="5", first="opening")
    tab.press("play-board", 8, 8)
    tab.page.check("#play-show")
    tab.settle()
    odds = view_odds(tab.grid("play-board"), 40)
    assert sorted(tab.marked("play-board", "safe-cell")) == sorted(
        [list(divmod(c, 16)) for c in odds.safe]
    )
    assert sorted(tab.marked("play-board", "mine-cell")) == sorted(
        [list(divmod(c, 16)) for c in odds.mines]
    )
    tab.page.check("#play-heat")
    tab.settle()
    assert odds.safe, "the opening decides some cell safe"
    colour = f"#play-board .c >> nth={odds.safe[0]}"
    viridis = tab.page.eval_on_selector(colour, "e => e.style.getPropertyValue('--p')")
    tab.page.select_option("#palette", "conventional")
    conventional = tab.page.eval_on_selector(colour, "e => e.style.getPropertyValue('--p')")
    assert viridis == "rgb(68,1,84)" and conventional == "rgb(26,152,80)"  # safe is green
    tab.page.reload()
    tab.page.wait_for_selector("body[data-ready='1']")
    tab.settle()
    assert tab.page.input_value("#palette") == "conventional"  # kept by the browser
    assert tab.page.is_checked("#play-show")


# -- 4. links and continuity -----------------------------------------------------------------


def test_a_link_opens_the_same_board_and_a_reload_resumes_the_game(tab: Tab) -> None:
    tab.new_game(level="intermediate", seed="77")
    tab.press("play-board", 3, 4)
    seen = tab.glyphs("play-board")
    link = tab.page.url
    assert "seed=77" in link and "start=3%2C4" in link
    key = tab.js("window.mineshafted.play.id")
    tab.page.reload()
    tab.page.wait_for_selector("body[data-ready='1']")
    tab.settle()
    assert tab.js("window.mineshafted.play.id") == key and tab.glyphs("play-board") == seen
    assert tab.page.context.browser is not None
    other = tab.page.context.browser.new_page()  # a fresh tab of its own
    other.goto(link)
    other.wait_for_selector("body[data-ready='1']")
    other.wait_for_function("() => window.mineshafted.idle()")
    shown = other.evaluate(
        "Array.from(document.querySelectorAll('#play-board .c'), e => e.dataset.s)"
    )
    assert shown == seen and other.evaluate("window.mineshafted.play.id") != key
    other.close()


def test_a_typed_seed_is_used_only_while_ticked(tab: Tab) -> None:
    tab.new_game(seed="5")
    assert tab.page.inner_text("#play-shown-seed") == "5"
    tab.page.uncheck("#play-use-seed")
    tab.page.click("#play-new")
    tab.settle()
    assert tab.page.inner_text("#play-shown-seed") == "shown at the end"


def test_plain_words_when_the_server_is_gone_or_no_board_was_made(tab: Tab) -> None:
    tab.new_game(kind="no-guess", seed="1")
    tab.page.route(
        "**/api/games/*/reveal",
        lambda route: route.fulfill(
            status=503,
            content_type="application/json",
            body=json.dumps({"error": "the job did not finish within 5 s"}),
        ),
    )
    tab.press("play-board", 4, 4)
    said = tab.page.inner_text("#play-say")
    assert said.startswith("No board was made") and "fewer mines" in said
    assert tab.page.inner_text("#play-status") == "no board"
    tab.page.unroute("**/api/games/*/reveal")
    tab.page.route("**/api/**", lambda route: route.abort())
    tab.page.click("#play-new")
    tab.settle()
    assert "The server is not answering" in tab.page.inner_text("#play-say")
    tab.page.unroute("**/api/**")
    # The browser logs the refused and failed requests themselves: expected here, and only here.
    assert all("Failed to load resource" in error for error in tab.errors)
    tab.errors.clear()


# -- 5. touch and the screen reader ----------------------------------------------------------


@pytest.fixture
def phone(browser: Browser, server: str) -> Iterator[Tab]:
    """The page on a 390 px touch screen, its clock under the test's control."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.clock.install()
    opened = Tab(page, server)
    yield opened
    context.close()
    assert opened.errors == []
    assert opened.outside == []


def test_touch_taps_reveal_holding_or_flag_mode_flags_and_the_board_scrolls(phone: Tab) -> None:
    phone.new_game(level="expert", seed="4")
    size = phone.page.eval_on_selector("#play-board .c", "e => e.getBoundingClientRect().width")
    assert size >= 24
    assert phone.page.eval_on_selector(".wrap", "e => e.scrollWidth > e.clientWidth")
    select = phone.page.eval_on_selector("#w-player", "e => e.getBoundingClientRect().right")
    assert select <= 390
    phone.page.tap(phone.cell("play-board", 0, 0))
    phone.settle()
    glyphs = phone.glyphs("play-board")
    assert glyphs[0] != "?"
    hidden = [i for i, g in enumerate(glyphs) if g == "?"]
    held = phone.cell("play-board", *divmod(hidden[-1], 30))
    phone.page.dispatch_event(held, "pointerdown", {"pointerType": "touch", "isPrimary": True})
    phone.page.clock.run_for(600)
    phone.page.dispatch_event(held, "pointerup", {"pointerType": "touch", "isPrimary": True})
    phone.settle()
    assert phone.glyphs("play-board")[hidden[-1]] == "F"
    phone.page.tap("#play-flag-mode")
    phone.page.tap(phone.cell("play-board", *divmod(hidden[-2], 30)))
    phone.settle()
    assert phone.glyphs("play-board")[hidden[-2]] == "F"
    phone.page.tap("#play-heat")
    phone.settle()
    shown = phone.js(
        "Array.from(document.querySelectorAll('#play-board .c[data-p]:not(.f)'))"
        ".every(e => e.dataset.t.length > 0)"
    )
    assert shown  # the heat numbers are written in every cell, even on a phone


def test_the_tabs_and_the_grid_speak_aria(tab: Tab) -> None:
    tab.new_game(level="beginner", seed="3")
    tabs = tab.js(
        "Array.from(document.querySelectorAll('[role=tab]'), t => [t.id, "
        "t.getAttribute('aria-controls'), t.getAttribute('aria-selected'), t.tabIndex])"
    )
    assert tabs == [
        ["tab-play", "play", "true", 0],
        ["tab-analyse", "analyse", "false", -1],
        ["tab-watch", "watch", "false", -1],
        ["tab-learn", "learn", "false", -1],
    ]
    for panel in ("play", "analyse", "watch", "learn"):
        assert tab.page.get_attribute(f"#{panel}", "aria-labelledby") == f"tab-{panel}"
    tab.page.focus("#tab-play")
    tab.page.keyboard.press("ArrowRight")
    assert tab.js("document.activeElement.id") == "tab-analyse"
    assert tab.page.is_visible("#analyse") and not tab.page.is_visible("#play")
    tab.page.keyboard.press("ArrowLeft")
    assert tab.page.is_visible("#play")
    assert tab.page.get_attribute("#play-board", "role") == "grid"
    rows = tab.js("document.querySelectorAll('#play-board [role=row]').length")
    cells = tab.js("document.querySelectorAll('#play-board [role=row] > [role=gridcell]').length")
    assert (rows, cells) == (10, 81)
    assert tab.js("document.querySelectorAll('#play-board [tabindex=\"0\"]').length") == 1
    tab.press("play-board", 4, 4)
    tab.page.keyboard.press("m")
    tab.settle()
    labels = tab.js(
        "Array.from(document.querySelectorAll('#play-board .c'), e => e.getAttribute('aria-label'))"
    )
    grid = tab.grid("play-board")
    odds = view_odds(grid, 10).floats()
    for i, label in enumerate(labels):
        r, c = divmod(i, 9)
        value = grid[r][c]
        if value is None:
            assert label == f"row {r + 1}, column {c + 1}, hidden, {_pct(odds[i])} mine" or (
                label.startswith(f"row {r + 1}, column {c + 1}, hidden, {_pct(odds[i])} mine, ")
            )
        else:
            assert label == f"row {r + 1}, column {c + 1}, " + (
                f"clue {value}" if value else "empty"
            )
    unnamed = tab.js(
        "Array.from(document.querySelectorAll('input, select, textarea, button'))"
        ".filter(e => !e.closest('[hidden]') && !(e.labels && e.labels.length) && "
        "!e.getAttribute('aria-label') && !e.textContent.trim()).map(e => e.id)"
    )
    assert unnamed == []


# -- 6. what the policy knows --------------------------------------------------------------------


def test_what_the_policy_knows_is_shown_as_the_library_says(tab: Tab) -> None:
    grid = [[1, -1, None, None, None]]
    tab.analyse("1*???\n", mines="2")
    tab.page.wait_for_function("() => window.mineshafted.an.known !== null")
    known = survey(grid, 2, view_odds(grid, 2))
    assert tab.js("window.mineshafted.an.known") == known
    assert "Best play wins 66.7% from here (2 of 3 placements)." in tab.page.inner_text("#an-info")
    tab.page.hover(tab.cell("an-board", 0, 3))
    line = tab.page.inner_text("#an-info")
    middle = next(cell for cell in known["cells"] if cell["cell"] == [0, 3])
    assert line.startswith("Row 1, column 4: mine " + _pct(middle["mine"]))
    assert f"(secondary safety) {_pct(middle['secondary'])}" in line
    assert f"progress {_pct(middle['progress'])}" in line
    assert ("dead" in line) == middle["dead"]
    assert sorted(tab.marked("an-board", "dead")) == sorted(
        cell["cell"] for cell in known["cells"] if cell["dead"]
    )


def test_a_fifty_fifty_is_marked(tab: Tab) -> None:
    tab.analyse("??*\n13*\n", mines="3")
    tab.page.wait_for_function("() => window.mineshafted.an.known !== null")
    assert sorted(tab.marked("an-board", "fifty")) == [[0, 0], [0, 1]]


# -- 7. review and the bridges -------------------------------------------------------------------


def test_the_review_of_a_lost_game_and_analyse_this_position(tab: Tab) -> None:
    tab.new_game(level="beginner", seed="6")
    tab.reveal_in_order()
    if tab.page.inner_text("#play-status") == "won":
        pytest.skip("this seed's game was won in order: nothing lost to review")
    tab.page.wait_for_function("() => window.mineshafted.play.review !== null")
    tab.page.click("#play-review")
    moves = tab.js("window.mineshafted.play.review.moves")
    items = tab.page.locator("#play-moves li")
    assert items.count() == len(moves)
    assert moves[-1]["verdict"] in ("best", "guess", "avoidable")
    items.nth(len(moves) - 1).click()
    tab.settle()
    assert tab.marked("play-board", "now") == [moves[-1]["cell"]]
    assert "*" not in tab.glyphs("play-board")  # the board as it was before the losing reveal
    position = tab.grid("play-board")
    tab.page.click("#play-analyse")
    tab.settle()
    assert tab.page.is_visible("#analyse") and tab.grid("an-board") == position
    assert "From Play" in tab.page.inner_text("#an-say")


def test_watch_steps_back_scrubs_rings_its_proof_and_can_be_taken_over(tab: Tab) -> None:
    tab.watch("policy:best", seed="2")
    total = int(tab.page.inner_text("#w-count").split("/")[1])
    for _ in range(3):
        tab.page.click("#w-step")
        tab.settle()
    after3 = tab.glyphs("w-board")
    tab.page.click("#w-step")
    tab.settle()
    tab.page.click("#w-back")
    tab.settle()
    assert tab.page.inner_text("#w-count") == f"3 / {total}" and tab.glyphs("w-board") == after3
    steps = tab.js("window.mineshafted.w.steps")
    k = next(j for j, s in enumerate(steps) if s["reason"] in ("count", "subset", "ac3"))
    tab.page.eval_on_selector(
        "#w-scrub", f"e => {{ e.value = '{k + 1}'; e.dispatchEvent(new Event('input')); }}"
    )
    tab.settle()
    assert tab.page.inner_text("#w-count") == f"{k + 1} / {total}"
    assert tab.marked("w-board", "why-clue"), "the clues that prove the step are ringed"
    assert tab.page.inner_text("#w-say .tag")
    tab.page.eval_on_selector(
        "#w-scrub", "e => { e.value = '12'; e.dispatchEvent(new Event('input')); }"
    )
    tab.settle()
    position = tab.grid("w-board")
    tab.page.click("#w-takeover")
    tab.settle()
    assert tab.page.is_visible("#play") and tab.grid("play-board") == position
    assert tab.page.inner_text("#play-shown-seed") == "a watched board"
    assert "Taken over from Watch" in tab.page.inner_text("#play-say")


def test_axe_finds_no_serious_accessibility_violation(tab: Tab) -> None:
    # axe-core (the npm package) when it is at hand: MINESHAFTED_AXE names its axe.min.js,
    # injected into the page from that file (nothing fetched). The roles and labels are
    # tested directly above whether it is or not.
    import os
    from pathlib import Path

    source = os.environ.get("MINESHAFTED_AXE")
    if not source or not Path(source).is_file():
        pytest.skip("axe-core is not at hand: set MINESHAFTED_AXE to its axe.min.js")
    script = Path(source).read_text()
    tab.new_game(level="beginner", seed="3")
    tab.press("play-board", 4, 4)
    tab.page.check("#play-heat")
    tab.settle()
    found = []
    for panel in ("play", "analyse", "watch"):
        tab.page.click(f"#tab-{panel}")
        tab.settle()
        if not tab.js("typeof axe !== 'undefined'"):
            tab.js(script)
        result = tab.js("axe.run(document, {resultTypes: ['violations']})")
        found += [
            (panel, v["id"], v["impact"])
            for v in result["violations"]
            if v["impact"] in ("serious", "critical")
        ]
    assert found == []


def test_analyses_position_is_in_its_address_and_play_again_replays_the_board(tab: Tab) -> None:
    tab.analyse(". 1 ?\n. 1 ?\n", mines="1")
    link = tab.page.url
    assert "tab=analyse" in link and "mines=1" in link
    assert tab.page.context.browser is not None
    other = tab.page.context.browser.new_page()
    other.goto(link)
    other.wait_for_selector("body[data-ready='1']")
    other.wait_for_function("() => window.mineshafted.idle()")
    assert other.is_visible("#analyse")
    shown = other.evaluate(
        "Array.from(document.querySelectorAll('#an-board .c'), e => e.dataset.s)"
    )
    assert shown == list(".1?.1?") and other.input_value("#an-mines") == "1"
    other.close()
    tab.page.click("#tab-play")
    tab.new_game(level="beginner", seed="6")
    tab.reveal_in_order()
    tab.page.wait_for_function("() => window.mineshafted.play.review !== null")
    opening = tab.js("window.mineshafted.play.review.moves[0].revealed")
    tab.page.uncheck("#play-use-seed")  # "again" is this board whatever the seed field says
    tab.page.click("#play-again")
    tab.settle()
    assert tab.page.inner_text("#play-status") in ("playing", "won")
    again = tab.grid("play-board")
    shown = sorted(
        [r, c, v] for r, row in enumerate(again) for c, v in enumerate(row) if v is not None
    )
    assert shown == sorted(opening)  # the same board, opened by the same first reveal
