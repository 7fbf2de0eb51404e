"""Explanations in a player's words: a sentence names exactly the explanation's clues, each
with the board's value at it, the cell, and no cell but unknown ones besides (read back from
the words by a parser of their own); the tag is the first rung; each step a direct argument
takes is sound (brute force); and each kind of step reads as a player would check it."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

import pytest

from mineshafted import Board
from mineshafted.solver import Technique, plain
from mineshafted.solver.argument import Bound, Step, Total
from mineshafted.solver.clues import clues_of
from mineshafted.solver.proof import prove
from mineshafted.web import Explanation, explain
from mineshafted.web.explanation import NAMED
from mineshafted.web.hints import hint
from mineshafted.web.wording import Words

from .conftest import Brute, Cut, Tab, cuts
from .test_explanation import SAMPLES, SMALL, _every_decided, first_rung, stalls

CLUE = re.compile(r"\bthe (\d) at row (\d+), column (\d+)", re.IGNORECASE)
"""A clue named: ``the 2 at row 3, column 4``."""
CELLS = re.compile(
    r"\b(row|column) (\d+), (?:row|column)s? (\d+(?: to \d+)?(?:(?:, | and )\d+(?: to \d+)?)*)",
    re.IGNORECASE,
)
"""One line of a list of cells: ``row 3, column 4``, ``row 3, columns 4, 6 and 8 to 10``,
``column 2, rows 1 and 2``."""


def named_cells(text: str) -> set[tuple[int, int]]:
    """Every cell the words name, ``(row, column)`` from 0."""
    found = set()
    for first, index, listed in CELLS.findall(text):
        numbers: list[int] = []
        for item in re.split(r", | and ", listed):
            low, _, high = item.partition(" to ")
            numbers += range(int(low), int(high or low) + 1)
        at = int(index) - 1
        found |= {(at, n - 1) if first.lower() == "row" else (n - 1, at) for n in numbers}
    return found


def named_clues(text: str) -> set[tuple[tuple[int, int], int]]:
    """Every clue the words name, with the value they give it."""
    return {((int(r) - 1, int(c) - 1), int(v)) for v, r, c in CLUE.findall(text)}


NEEDS = re.compile(
    r"\bthe (\d) at row (\d+), column (\d+)( now)? (?:needs (\d+)(?: more)? mines? (?:among|at) "
    r"|has (\d+) mines? left to place and \d+ unknown neighbours? "
    r"|has (all) its mines: its other unknown neighbours? )"
    r"(\([^)]*\)|[^;.]*?)(?:, so|[;.:]| are| is)",
    re.IGNORECASE,
)
"""A clue's first reading in a line: ``the 3 at row 2, column 2 needs 2 more mines among
...``, ``... has 2 mines left to place and 2 unknown neighbours (...)`` or ``... has all its
mines: its other unknown neighbours (...) are safe``."""


def check_readings(grid: list[list[int | None]], text: str) -> int:
    """Each clue a line reads as it stands (not "now", after cells found above) needs its
    value less the known mines around it among exactly its unknown neighbours; how many such
    readings the text has."""
    rows, cols = len(grid), len(grid[0])
    checked = 0
    for value, r, c, now, needs, left, full, listed in NEEDS.findall(text):
        if now:
            continue
        row, col = int(r) - 1, int(c) - 1
        around = [
            (row + dr, col + dc)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= row + dr < rows and 0 <= col + dc < cols
        ]
        known = sum(grid[y][x] == -1 for y, x in around)
        unknown = {(y, x) for y, x in around if grid[y][x] is None}
        assert (0 if full else int(needs or left)) == int(value) - known, text
        assert named_cells(listed) == unknown, (listed, text)
        checked += 1
    return checked


def check_sentence(cut: Cut, cell: tuple[int, int], why: Explanation) -> None:
    """The words name the explanation's clues with the board's values, the cell, and
    otherwise only unknown cells (next to a clue named, unless the total is used): those the
    page marks beside the cell and the clues."""
    grid = cut.grid
    assert named_clues(why.text) == {(clue, grid[clue[0]][clue[1]]) for clue in why.clues}, why.text
    named = named_cells(why.text)
    assert cell in named, why.text
    others = named - set(why.clues)
    assert others - {cell} == set(why.cells) and cell not in why.cells, why.text
    assert why.to_json()["cells"] == [list(c) for c in why.cells]
    assert all(grid[r][c] is None for r, c in others), (why.text, cut)
    if not why.uses_total:
        near = {(r + dr, c + dc) for r, c in why.clues for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
        assert others <= near, (why.text, cut)
    assert why.text == " ".join((why.verdict, *why.steps))
    assert all("\n" not in line for line in why.steps)
    check_readings(grid, why.text)


# -- every sentence, on the positions the explanation tests use --------------------------------


@pytest.mark.parametrize("positions", SAMPLES)
def test_on_small_positions_every_sentence_names_the_explanations_clues_values_and_cell(
    positions: int,
) -> None:
    kinds = set()
    for cut, cell, _, why in _every_decided(positions):
        check_sentence(cut, cell, why)
        kinds |= {step.kind for step in why.argument}
    assert {"read", "count", "difference", "total"} <= kinds


@pytest.mark.slow
def test_on_hundreds_of_stalls_the_sentence_is_the_explanations_and_the_tag_the_first_rung() -> (
    None
):
    tagged: set[Technique] = set()
    kinds: set[str] = set()
    for cut in _stalls():
        clues = clues_of(cut.grid, cut.mines)
        cols = len(cut.grid[0])
        for target, mine in plain.total(clues).items():
            cell = divmod(target, cols)
            why = explain(cut.grid, cut.mines, cell)
            assert why.mine is mine
            assert why.technique is first_rung(clues, target), (cut, cell, why)
            check_sentence(cut, cell, why)
            tagged.add(why.technique)
            kinds |= {step.kind for step in why.argument}
    assert tagged == set(Technique.solving())
    assert {"read", "count", "difference", "suppose", "given", "total"} <= kinds


@pytest.mark.slow
def test_on_hundreds_of_stalls_a_chain_is_found_for_all_but_a_few_cells() -> None:
    counted = chained = 0
    for cut in _stalls():
        clues = clues_of(cut.grid, cut.mines)
        cols = len(cut.grid[0])
        for target in plain.total(clues):
            why = explain(cut.grid, cut.mines, divmod(target, cols))
            counted += 1
            chained += why.argument[-1].kind != "placements"
            if why.technique <= Technique.AC3:  # within the search's rules: always a chain
                assert why.argument[-1].kind != "placements", why
    assert chained >= 0.99 * counted


@pytest.mark.parametrize(
    "technique",
    [
        # complete first decides few cells: finding them scans every position (about 1 s);
        # its sentences are read in the inner loop on fixed positions (below)
        pytest.param(t, marks=pytest.mark.slow) if t is Technique.COMPLETE else t
        for t in Technique.solving()
    ],
    ids=lambda t: t.value,
)
def test_for_each_technique_the_sentence_names_the_explanations_cells_and_clue_values(
    technique: Technique,
) -> None:
    found = readings = 0
    for cut in _seeded():
        clues = clues_of(cut.grid, cut.mines)
        cols = len(cut.grid[0])
        for target in plain.total(clues):
            if first_rung(clues, target) is not technique:
                continue
            cell = divmod(target, cols)
            why = explain(cut.grid, cut.mines, cell)
            assert why.technique is technique
            check_sentence(cut, cell, why)
            readings += check_readings(cut.grid, why.text)
            found += 1
            if found >= 12:
                break
        if found >= 12:
            break
    assert found >= 3, f"only {found} cells {technique.value} decides first in the positions"
    assert readings, "some line reads a clue as it stands, checked against the board"


def test_a_clue_read_with_a_wrong_value_or_cells_is_caught() -> None:
    grid: list[list[int | None]] = [[None, None, None], [1, 1, -1]]
    good = "The 1 at row 2, column 1 needs 1 mine among row 1, columns 1 and 2."
    assert check_readings(grid, good) == 1
    with pytest.raises(AssertionError):  # the 1 at row 2, column 2 has its mine beside it
        check_readings(grid, "The 1 at row 2, column 2 needs 1 mine among row 1, columns 1 to 3.")
    with pytest.raises(AssertionError):  # it sees three unknown cells, not two
        check_readings(
            grid, "The 1 at row 2, column 2 needs 0 more mines among row 1, columns 1 and 2."
        )
    with pytest.raises(AssertionError):  # it has no mine around it yet
        check_readings(
            [*grid[:1], [1, 1, None]],
            "The 1 at row 2, column 2 has all its mines: "
            "its other unknown neighbours (row 1, columns 1 to 3) are safe.",
        )
    assert named_clues(good) == {((1, 0), 1)}


@pytest.mark.slow  # over a second
def test_every_cell_a_direct_argument_decides_is_forced_by_the_clues_it_names() -> None:
    checked = 0
    for cut, _, _, why in _every_decided(len(SMALL)):
        if any(step.kind == "suppose" for step in why.argument):
            continue
        brute = Brute(cut)
        cols = len(cut.grid[0])
        clues = [tuple(c) for c in why.clues]
        for step in why.argument:
            for found, mine in step.found.items():
                cell = divmod(found, cols)
                assert brute.forced(clues, cell, mine=mine, total=why.uses_total), (why, step)
                checked += 1
    assert checked >= 300


# -- each kind of step, on positions a player would meet -----------------------------------------


@pytest.mark.parametrize(
    ("grid", "mines", "cell", "technique", "lines"),
    [
        (
            [[1, None], [1, 1]],
            1,
            (0, 1),
            Technique.COUNT,
            [
                "The 1 at row 1, column 1 has 1 mine left to place and 1 unknown neighbour "
                "(row 1, column 2): it is a mine."
            ],
        ),
        (
            [[1, None, None], [1, 1, None]],
            1,
            (0, 2),
            Technique.COUNT,
            [
                "The 1 at row 1, column 1 has 1 mine left to place and 1 unknown neighbour "
                "(row 1, column 2): it is a mine.",
                "The 1 at row 2, column 2 now has all its mines: its other unknown neighbours "
                "(column 3, rows 1 and 2) are safe.",
            ],
        ),
        (
            [[None, None, None], [1, 1, 1]],
            1,
            (0, 2),
            Technique.SUBSET,
            [
                "The 1 at row 2, column 1 needs 1 mine among row 1, columns 1 and 2.",
                "The 1 at row 2, column 2 needs 1 mine among row 1, columns 1 to 3, so row 1, "
                "column 3 is safe.",
            ],
        ),
        (
            [[None, None, 1, 0], [None, 3, 1, 0], [None, 2, 1, 1], [None, None, -1, None]],
            4,
            (0, 0),
            Technique.AC3,
            [
                "The 2 at row 3, column 2 needs 1 more mine among (column 1, rows 2 to 4; "
                "column 2, row 4), so at most 1 mine lies among column 1, rows 2 and 3.",
                "The 3 at row 2, column 2 needs 3 mines among (column 1, rows 1 to 3; column 2, "
                "row 1), so row 1, columns 1 and 2 are mines.",
            ],
        ),
        (
            [[0, 1, -1, None]],
            2,
            (0, 3),
            Technique.TOTAL,
            ["No clue touches the 1 unknown cell left, and 1 mine is left: it is a mine."],
        ),
        (
            [[0, 1, -1, None]],
            1,
            (0, 3),
            Technique.TOTAL,
            ["No mines are left, so every unknown cell is safe."],
        ),
    ],
)
def test_each_technique_reads_as_its_steps(
    grid: list[list[int | None]],
    mines: int,
    cell: tuple[int, int],
    technique: Technique,
    lines: list[str],
) -> None:
    why = explain(grid, mines, cell)
    assert why.technique is technique
    assert list(why.steps) == lines
    assert why.to_json()["steps"] == lines
    assert why.to_json()["text"] == " ".join((why.verdict, *lines))


@pytest.mark.slow  # 400 positions searched for the cells complete decides first: about 1 s
def test_a_cell_complete_decides_is_argued_from_the_cell_supposed_the_other_way() -> None:
    grid = [[None, None, None, None], [None, 3, 2, 1], [2, -1, None, None], [None, 3, None, 2]]
    found = []
    for cut in (Cut(grid, 4), *cuts(400, seed=77, rows=6, cols=7, density=0.22)):
        clues = clues_of(cut.grid, cut.mines)
        cols = len(cut.grid[0])
        for target in plain.complete(clues):
            cell = divmod(target, cols)
            if first_rung(clues, target) is Technique.COMPLETE:
                found.append((cut, cell, explain(cut.grid, cut.mines, cell)))
    supposed = [why for _, _, why in found if why.argument[0].kind == "suppose"]
    assert len(supposed) >= 0.8 * len(found) and supposed
    for why in supposed:
        row, col = why.cell
        other = "safe" if why.mine else "a mine"
        assert why.steps[0] == f"Suppose row {row + 1}, column {col + 1} were {other}."
        assert why.steps[-1].endswith(f"impossible, so {why.verdict[0].lower()}{why.verdict[1:]}")
    for cut, cell, why in found:
        check_sentence(cut, cell, why)


def test_when_no_chain_is_found_the_sentence_counts_the_placements() -> None:
    grid = [[None, None, None, None], [None, 3, 2, 1], [2, -1, None, None], [None, 3, None, 2]]
    why = explain(grid, 4, (0, 0))  # an odd cycle of three clues: no chain of bounds
    assert why.technique is Technique.COMPLETE
    assert why.steps == (
        "Together the 3 at row 2, column 2, the 2 at row 2, column 3, the 2 at row 3, column 1, "
        "the 3 at row 4, column 2 and the 2 at row 4, column 4 can place their mines in only 1 "
        "way (mines at column 1, row 2; column 3, rows 3 and 4), and it leaves row 1, column 1 "
        "safe.",
    )


def test_a_total_argument_over_many_clues_speaks_of_the_border_and_rings_none() -> None:
    # Ten mines on the top row under a row of 1s, and a 3x3 pocket no clue sees: the border
    # needs every mine left, which takes more than NAMED clues to show.
    rows, cols = 6, 30
    values = list(Board.from_mines(rows, cols, list(range(0, 30, 3))).values)
    grid: list[list[int | None]] = [values[r * cols : (r + 1) * cols] for r in range(rows)]
    grid[0] = [None] * cols
    for r in range(3, 6):
        grid[r][27:30] = [None] * 3
    why = explain(grid, 10, (4, 28))
    assert why.technique is Technique.TOTAL and why.border and why.clues == ()
    assert why.steps == (
        "The border needs at least 10 of the 10 mines left, so every cell away from it is safe.",
    )
    proof = prove(clues_of(grid, 10), 4 * cols + 28)
    assert len(proof.clues) > NAMED


def test_a_total_argument_names_the_groups_of_clues_and_counts_them_against_the_mines_left() -> (
    None
):
    # Two mines on the top row, each the only one its clues can have, and a 3x3 pocket no clue
    # sees the middle of: the two clues need both mines left.
    rows, cols = 5, 10
    values = list(Board.from_mines(rows, cols, [0, 4]).values)
    grid: list[list[int | None]] = [values[r * cols : (r + 1) * cols] for r in range(rows)]
    for c in (0, 1, 4, 5):
        grid[0][c] = None
    for r in range(2, 5):
        grid[r][7:10] = [None] * 3
    why = explain(grid, 2, (3, 8))
    assert why.technique is Technique.TOTAL and not why.border
    assert why.steps == (
        "The 1 at row 1, column 4 needs 1 mine at row 1, column 5.",
        "The 1 at row 2, column 1 needs 1 mine among row 1, columns 1 and 2.",
        "That is at least 2 of the 2 mines left, so every other unknown cell is safe.",
    )
    assert why.clues == ((0, 3), (1, 0))


def test_the_hint_of_a_safe_cell_says_what_why_says() -> None:
    for cut, _, _, _ in _every_decided(50)[:200]:  # the cells of the inner loop's sample
        try:
            found = hint(cut.grid, cut.mines)
        except ValueError:
            continue
        if found.explanation is not None:
            assert found.text == found.explanation.text


def test_a_bound_found_above_counted_says_what_the_cells_known_since_hold() -> None:
    words = Words([None] * 9, cols=3)
    was = Bound((0, 1, 2), 2, 2)  # found by a line above; row 1, columns 2 and 3 since known
    line = words.line(Step("count", Bound((0,), 0, 0), given=was))
    assert line == (
        "Exactly 2 mines lie among row 1, columns 1 to 3; row 1, columns 2 and 3 are mines, "
        "as found above, so row 1, column 1 is safe."
    )
    assert words.line(Step("count", was, given=was)) == (
        "Exactly 2 mines lie among row 1, columns 1 to 3, so row 1, columns 1 to 3 are mines."
    )


def test_the_placements_counted_with_the_total_name_the_clues_and_count_the_cells_away() -> None:
    words = Words([1, 2, None, None, None, None], cols=3)
    total = Total(left=3, least=0, most=0, away=4, others=0)
    many = Step("placements", Bound((3,), 0, 0), clues=(0, 1), total=total, placements=15)
    assert words.line(many) == (
        "With 3 mines left, 15 placements of them fit the 1 at row 1, column 1 and the 2 at "
        "row 1, column 2 (with the 4 unknown cells no clue of theirs touches), and every one "
        "leaves row 2, column 1 safe."
    )
    one = replace(many, bound=Bound((3,), 1, 1), total=replace(total, away=0), placements=1)
    assert words.line(one) == (
        "With 3 mines left, 1 placement of them fits the 1 at row 1, column 1 and the 2 at "
        "row 1, column 2, and it puts a mine at row 2, column 1."
    )


@pytest.mark.parametrize(
    ("cells", "words"),
    [
        ([7], "row 2, column 3"),
        ([0, 1], "row 1, columns 1 and 2"),
        ([0, 1, 2, 4], "row 1, columns 1 to 3 and 5"),
        ([0, 5, 10], "column 1, rows 1 to 3"),
        ([0, 1, 5], "(row 1, columns 1 and 2; row 2, column 1)"),
        ([0, 2, 4], "row 1, columns 1, 3 and 5"),
    ],
)
def test_cells_are_listed_by_rows_or_columns_counting_from_1(cells: list[int], words: str) -> None:
    assert Words([None] * 25, cols=5).cells(cells) == words
    assert named_cells(words) == {divmod(cell, 5) for cell in cells}


# -- in the browser ------------------------------------------------------------------------------


@pytest.mark.slow
def test_why_on_a_subset_argument_shows_its_two_steps_one_a_line_naming_the_clues(
    tab: Tab,
) -> None:
    tab.analyse("???\n111\n", mines="1")
    tab.page.click("#an-why")
    tab.press("an-board", 0, 2)
    said = tab.js("document.getElementById('an-say').firstChild.textContent")
    lines = said.split("\n")
    assert lines == [
        "Row 1, column 3 is safe.",
        "The 1 at row 2, column 1 needs 1 mine among row 1, columns 1 and 2.",
        "The 1 at row 2, column 2 needs 1 mine among row 1, columns 1 to 3, so row 1, column 3 "
        "is safe.",
    ]
    why = explain([[None, None, None], [1, 1, 1]], 1, (0, 2))
    assert lines[1:] == list(why.steps)
    assert tab.page.inner_text("#an-say .tag") == "subset"
    assert sorted(tab.marked("an-board", "why-clue")) == [[1, 0], [1, 1]]
    assert tab.marked("an-board", "why-cell") == [[0, 2]]
    assert sorted(tab.marked("an-board", "why-named")) == [[0, 0], [0, 1]]
    tab.page.click(tab.cell("an-board", 0, 1))  # another: its words and marks replace these
    tab.settle()
    assert tab.marked("an-board", "why-cell") == [[0, 1]]
    assert sorted(tab.marked("an-board", "why-named")) == [[0, 0], [0, 2]]
    tab.page.click("#an-why")  # Why? off: a click edits the position, and the words go
    tab.press("an-board", 0, 0)
    assert tab.js("document.getElementById('an-say').textContent") == ""
    assert tab.marked("an-board", "why-named") == [] and tab.marked("an-board", "why-clue") == []


@cache
@cache  # read by each technique's case
def _seeded() -> list[Cut]:
    """A few stalls (where stronger rungs decide cells) and small positions, for each rung."""
    return stalls(40, seed=29) + list(cuts(400, seed=77, rows=6, cols=7, density=0.22))


@cache
def _stalls() -> list[Cut]:
    """The explanation test's stalls and 6x7 cuts."""
    return stalls(300, seed=29) + list(cuts(300, seed=31, rows=6, cols=7, density=0.2))
