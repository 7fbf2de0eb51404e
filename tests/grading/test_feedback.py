"""Feedback, the gradebook and similarity: what a student and an instructor read.

Feedback a student can act on: a crash names the student's own lines, a sweep that stopped
early its safe cells never moved onto, a loop its length and its cycle, an older interface the
contract; boards that failed the same way are one message; every output says the same."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted import Board, Puzzle
from mineshafted.cli import app
from mineshafted.grading import BoardResult, GradeReport, Verdict, accounts, wording
from mineshafted.grading.classrun import StudentGrade
from mineshafted.grading.errors import SubmissionError
from mineshafted.grading.feedback import blocks, html_text, markdown_text
from mineshafted.grading.grade import check_submission
from mineshafted.grading.gradebook import csv_text, json_data
from mineshafted.grading.platforms import gradescope_results, prairielearn_results
from mineshafted.grading.result import Loop
from mineshafted.grading.rubric import achievements
from mineshafted.grading.similarity import compare
from mineshafted.replay import Judgement, moves_page

from .conftest import CORRECT, SOLVE, TWO, one_board, submission

BOARD = Board.from_text(
    """
    . . 1 *
    . . 1 1
    1 1 . .
    * 1 . .
    """
)
"""A 4x4 board: mines at (0, 3) and (3, 0)."""

PUZZLES = {"b": Puzzle(BOARD)}


def graded(board: BoardResult) -> StudentGrade:
    scored = achievements([(board.mines, board.outcome is Verdict.SOLVED)])
    report = GradeReport("ann.py", [board], scored, [], "1111-2222-3333-4444")
    return StudentGrade("ann", "ann.py", report=report)


def result(outcome: Verdict, **fields: object) -> BoardResult:
    return BoardResult("b", 4, 4, 2, outcome, 3, 0.5, **fields)  # type: ignore[arg-type]


def unmarked(markdown: str) -> str:
    """Markdown with its escapes taken out: the text a student reads."""
    return re.sub(r"\\(.)", r"\1", markdown)


def test_an_explosion_shows_the_board_as_the_sweep_had_uncovered_it() -> None:
    grade = graded(result(Verdict.EXPLODED, detail="moved onto the mine", opened=(0, 1, 2, 3)))
    text = markdown_text(blocks(grade, "1111-2222-3333-4444", PUZZLES))
    assert (
        "Move 4 of your sweep (counting each cell once) was onto the mine at cell 3 (row 0, "
        "column 3)" in text
    )
    assert "```text\n0 0 1 X\n# # # #\n# # # #\n# # # #\n```" in text
    assert "1111\\-2222" not in text and "board set 1111-2222-3333-4444" in text


def test_a_wrong_board_lists_its_wrong_cells_and_a_sweep_left_short_its_safe_cells() -> None:
    wrong = graded(
        result(Verdict.WRONG, detail="x", wrong=((0, 2, "2", 1), (3, 0, "0", -1)), wrong_count=2)
    )
    text = markdown_text(blocks(wrong, "x", PUZZLES))
    assert "Your sweep moved onto every safe cell, but the board it returned is wrong." in text
    assert "Wrong at 2 cells: 2 (0, 2): you returned 2, it is 1; 12 (3, 0): you returned 0" in text
    short = graded(result(Verdict.NOT_EXPLORED, unexplored=12, opened=(0, 1)))
    text = markdown_text(blocks(short, "x", PUZZLES))
    assert "Your sweep never moved onto 12 safe cells: 2 (0, 2), 4 (1, 0), 5 (1, 1)," in text


def test_a_sweep_that_stopped_early_is_told_which_safe_cells_it_never_moved_onto() -> None:
    # It moved onto 0 and 1 and returned: 12 safe cells never moved onto, 14 cells wrong.
    wrong = tuple((r, c, "None", BOARD.values[r * 4 + c]) for r in range(4) for c in range(4))
    stopped = result(
        Verdict.WRONG, detail="x", unexplored=12, opened=(0, 1), wrong=wrong[2:4], wrong_count=14
    )
    text = unmarked(markdown_text(blocks(graded(stopped), "x", PUZZLES)))
    assert "Your sweep returned before it had moved onto every safe cell" in text
    cells = "2 (0, 2), 4 (1, 0), 5 (1, 1), 6 (1, 2), 7 (1, 3), 8 (2, 0), 9 (2, 1), 10 (2, 2)"
    assert f"Your sweep never moved onto 12 safe cells: {cells}, 11 (2, 3), 13 (3, 1)," in text
    assert "Wrong at 14 cells, the first 2: 2 (0, 2): you returned None, it is 1; 3 (0, 3)" in text
    assert "cell(s)" not in text and "(the first ones)" not in text


def test_boards_that_fail_the_same_way_are_one_message_with_the_list_of_boards() -> None:
    said = "IndexError: list index out of range (in ann.py, innermost last: line 3, in f: g[9])"
    boards = [BoardResult(f"b{i}", 4, 4, 2, Verdict.CRASHED, 3, 0.1, said) for i in range(32)]
    boards.insert(5, BoardResult("odd", 4, 4, 2, Verdict.CRASHED, 3, 0.1, "ValueError: other"))
    report = GradeReport("ann.py", boards, achievements([(2, False)] * 33), [], "x")
    text = unmarked(markdown_text(blocks(StudentGrade("ann", "ann.py", report=report), "x", {})))
    names = ", ".join(f"b{i}" for i in range(32))
    assert text.count("list index out of range") == 1
    assert f"### crashed on 32 boards: {names}\n" in text
    assert "### crashed on 1 board: odd\n" in text
    assert text.index("on 32 boards") < text.index("on 1 board: odd")  # in the boards' order


def test_boards_not_run_for_time_are_told_so_together() -> None:
    timed = BoardResult("b0", 4, 4, 2, Verdict.TIMED_OUT, 0, 30.0, "no answer within 30 s")
    boards = [timed] + [
        BoardResult(f"b{i}", 4, 4, 2, Verdict.OUT_OF_TIME, 0, 0.0, "not run") for i in (1, 2, 3)
    ]
    report = GradeReport("ann.py", boards, achievements([(2, False)] * 4), [], "x")
    text = markdown_text(blocks(StudentGrade("ann", "ann.py", report=report), "x", {}))
    assert "### out of time on 3 boards: b1, b2, b3\n" in text
    assert text.count("Not run: your sweep used up its time on earlier boards.") == 1
    assert (
        "Your sweep gave no answer in time: no answer within 30 s.\n\nIt made no move at all."
        in text
    )


def test_a_loop_is_told_with_its_length_and_the_cycle_it_repeats() -> None:
    loop = Loop(first=4, moves=71_011, cells=(1, 2), periodic=True, distinct=2)
    detail = f"no answer within 30 s; {wording.loop(loop, 4)}"
    grade = graded(result(Verdict.TIMED_OUT, detail=detail, opened=(0, 1, 2), loop=loop))
    text = unmarked(markdown_text(blocks(grade, "x", PUZZLES)))
    assert "Your sweep gave no answer in time: no answer within 30 s." in text
    assert (
        "After move 3, its last onto a new cell, moves 4-71,014 repeat cells 1 (0, 1), 2 (0, 2), "
        "1, 2, ... (the same 2 cells 35,505 times), never a new cell." in text
    )
    words = accounts.replay_words(grade.report.boards[0], PUZZLES["b"])  # type: ignore[union-attr]
    assert words.verdict == "timed out" and words.cells == (1, 2) and "71,014" in words.after


def test_a_timed_out_sweep_without_a_loop_says_what_it_did_last() -> None:
    grade = graded(result(Verdict.TIMED_OUT, detail="no answer within 30 s", opened=(0, 1, 2)))
    text = markdown_text(blocks(grade, "x", PUZZLES))
    assert "Its last move, move 3, was onto a new cell; it made no move after it" in text


def test_a_replay_never_calls_a_wrong_board_won() -> None:
    safe = tuple(i for i, v in enumerate(BOARD.values) if v >= 0)
    wrong = result(Verdict.WRONG, detail="x", opened=safe, wrong=((0, 3, "0", -1),), wrong_count=1)
    words = accounts.replay_words(wrong, PUZZLES["b"])
    assert words.verdict == "wrong board"
    assert words.text.startswith("Your sweep moved onto every safe cell, but the board it returned")
    document = moves_page(BOARD, safe, title="ann: b", judgement=Judgement(*words))
    data = json.loads(re.search(r'id="data">(.*?)</script>', document, re.S).group(1))  # type: ignore[union-attr]
    assert data["outcome"]["status"] == "won"  # the game, every safe cell revealed...
    assert data["judgement"]["verdict"] == "wrong board"  # ...is judged, and the page says so


def test_the_outputs_tell_the_same_thing() -> None:
    said = wording.crash(
        "IndexError",
        "list index out of range",
        [
            wording.Frame("ann.py", 30, "sweep_mines", "n = around(grid, r, c)"),
            wording.Frame("ann.py", 12, "around", "return grid[r][c]"),
        ],
    )
    grade = graded(result(Verdict.CRASHED, detail=said))
    assert grade.report is not None
    parts = blocks(grade, "x", PUZZLES)
    page = html.unescape(html_text(parts, "t"))
    outputs = {
        "markdown": unmarked(markdown_text(parts)),
        "html": page,
        "report json": grade.report.to_json()["boards"][0]["detail"],
        "gradebook json": json_data([grade], "x", {})["students"][0]["boards"][0]["detail"],
        "gradescope": json.dumps(gradescope_results(grade, "x")["tests"][1]["output"]),
        "prairielearn": prairielearn_results(grade, "x")["tests"][1]["output"],
    }
    for name, text in outputs.items():
        assert "line 12, in around: return grid[r][c]" in text, name
        assert "in ann.py, innermost last: line 30, in sweep_mines" in text, name


def test_the_first_failed_board_gets_a_replay_of_the_student_s_moves() -> None:
    drawn = []

    def replay(board: BoardResult, puzzle: Puzzle, title: str) -> str:
        drawn.append((board.opened, title))
        return "<!DOCTYPE html><p>moves</p>"

    grade = graded(result(Verdict.EXPLODED, opened=(0, 3)))
    parts = blocks(grade, "x", PUZZLES, replay)
    assert drawn == [((0, 3), "ann: b")]
    page = html_text(parts, "Feedback for ann")
    assert 'srcdoc="&lt;!DOCTYPE html&gt;&lt;p&gt;moves&lt;/p&gt;"' in page
    assert "in ann.html" in markdown_text(parts, replay_file="ann.html")


def test_what_a_submission_said_cannot_become_markup() -> None:
    detail = "ValueError: <script>alert(1)</script> | *bold* [x](javascript:y) \x1b[2J"
    grade = graded(result(Verdict.CRASHED, detail=detail))
    parts = blocks(grade, "x", PUZZLES)
    page = html_text(parts, "t")
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    text = markdown_text(parts)
    assert (
        "\\<script\\>" in text and "\\*bold\\*" in text and "\\[x\\]" in text and "\x1b" not in text
    )


def test_the_csv_never_holds_a_spreadsheet_formula_or_a_control_character() -> None:
    grade = StudentGrade('=HYPERLINK("x")', "-x.py", problem="@bad\x1b")
    rows = list(csv.reader(io.StringIO(csv_text([grade], "1-2"))))
    assert rows[1][0] == '\'=HYPERLINK("x")' and rows[1][1] == "'-x.py"
    assert rows[1][-1] == "'@bad\\x1b"


@pytest.mark.slow
def test_similarity_finds_a_renamed_copy_and_leaves_the_starter_out() -> None:
    original = CORRECT.encode()
    renamed = CORRECT.replace("clues", "seen").replace("mines", "bombs").encode()
    other = b"def sweep_mines(bm):\n    rows, cols = bm.size\n    return [[0] * cols] * rows\n"
    pairs, best = compare({"ann": original, "bob": renamed, "cy": other})
    assert [(p.first, p.second) for p in pairs] == [("ann", "bob")]
    assert pairs[0].share > 0.9 and best["ann"][0] == "bob" and best["bob"][0] == "ann"
    own_ann = (
        "\ndef sweep_mines(bm):\n    board = solve(bm)\n    return [list(row) for row in board]\n"
    )
    own_bob = "\ndef sweep_mines(manager):\n    print('sweeping')\n    return solve(manager)\n"
    sources = {"ann": (SOLVE + own_ann).encode(), "bob": (SOLVE + own_bob).encode()}
    (whole,) = compare(sources)[0]
    (left,) = compare(sources, starter=SOLVE.encode(), threshold=0.0)[0]
    assert whole.tokens > 400 and whole.share > 0.9
    assert left.tokens < 40  # what is left in common: the def line and a return


@pytest.mark.slow
@pytest.mark.usefixtures("small_sets")
def test_grade_class_similarity_names_each_student_s_most_similar_peer(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    wrong = "def sweep_mines(bm):\n    rows, cols = bm.size\n    return [[bm.move(0)]]\n"
    (subs / "ann.py").write_text(CORRECT)
    (subs / "bob.py").write_text(CORRECT.replace("clues", "seen"))
    (subs / "cy.py").write_text(wrong)
    result = CliRunner().invoke(
        app,
        [
            "grade",
            "--class",
            str(subs),
            "--out",
            str(tmp_path / "out"),
            "--similarity",
            "--format",
            "csv",
            "--timeout",
            "10",
        ],
    )
    assert result.exit_code == 0, result.output
    by = {row["student"]: row for row in csv.DictReader(io.StringIO(result.stdout))}
    assert (by["ann"]["most similar"], by["bob"]["most similar"]) == ("bob", "ann")
    assert float(by["ann"]["similarity"]) > 0.9


def test_a_platform_s_test_tells_boards_that_failed_the_same_way_in_one_line() -> None:
    boards = [BoardResult(f"b{i}", 4, 4, 1, Verdict.CRASHED, 0, 0.1, "E: x") for i in range(32)]
    boards.append(BoardResult("c", 4, 4, 1, Verdict.CRASHED, 0, 0.1, "E: y"))
    report = GradeReport("ann.py", boards, achievements([(1, False)] * 33), [], "x")
    grade = StudentGrade("ann", "ann.py", report=report)
    names = ", ".join(f"b{i}" for i in range(32))
    for output in (
        gradescope_results(grade, "x")["tests"][0]["output"],
        prairielearn_results(grade, "x")["tests"][0]["output"],
    ):
        assert output.splitlines() == [
            "0 of 33 boards solved",
            f"crashed on 32 boards: {names}: E: x",
            "crashed on 1 board: c: E: y",
        ]


DEEP = """
import json


def parse(text):
    return json.loads(text)


def f6(text):
    return parse(text)


def f5(text):
    return f6(text)


def f4(text):
    return f5(text)


def read_clue(bm, cell):
    return f4(str(bm.move(cell)) + "}")


def sweep_mines(bm):
    return [[read_clue(bm, 0)]]
"""
"""A crash deep in a helper, raised inside the standard library (json) from the student's line."""


@pytest.mark.slow
def test_a_crash_deep_in_a_helper_names_the_student_s_own_lines_innermost_last(
    tmp_path: Path,
) -> None:
    result = one_board(submission(tmp_path, DEEP, "ann.py"))
    assert result.outcome is Verdict.CRASHED
    assert result.detail == (
        "JSONDecodeError: Extra data: line 1 column 2 (char 1) (in ann.py, innermost last, 2 "
        "calls before left out: line 18, in f4: return f5(text); line 14, in f5: return "
        "f6(text); line 10, in f6: return parse(text); line 6, in parse: return json.loads(text))"
    )
    assert "read_clue" not in result.detail  # the 2 frames before the last 4 are left out
    assert "decoder.py" not in result.detail and "child.py" not in result.detail


STOPS_EARLY = """
def sweep_mines(bm):
    rows, cols = bm.size
    first = bm.move(0)
    return [[first] + [None] * (cols - 1)] + [[None] * cols for _ in range(rows - 1)]
"""


@pytest.mark.slow
def test_a_sweep_that_stops_early_is_told_the_safe_cells_it_never_moved_onto(
    tmp_path: Path,
) -> None:
    result = one_board(submission(tmp_path, STOPS_EARLY, "ann.py"))
    assert (result.outcome, result.unexplored, result.wrong_count) == (Verdict.WRONG, 17, 19)
    assert result.detail == (
        "cell 1 (row 0, column 1) is None, not 0, and 18 other cells are wrong; your sweep "
        "never moved onto 17 safe cells"
    )
    report = GradeReport("ann.py", [result], achievements([(2, False)]), [], "x")
    text = unmarked(
        markdown_text(
            blocks(StudentGrade("ann", "ann.py", report=report), "x", {"board": Puzzle(TWO)})
        )
    )
    assert (
        "Your sweep never moved onto 17 safe cells: 1 (0, 1), 2 (0, 2), 3 (0, 3), 4 (0, 4)," in text
    )


@pytest.mark.slow
def test_a_loop_is_told_with_its_length_and_its_cycle(tmp_path: Path) -> None:
    code = "def sweep_mines(bm):\n    for c in (0, 1, 2):\n        bm.move(c)\n    while True:\n"
    code += "        bm.move(1)\n        bm.move(2)\n"
    result = one_board(submission(tmp_path, code, "ann.py"), timeout=1.0)
    loop = result.loop
    assert result.outcome is Verdict.TIMED_OUT and loop is not None
    assert (loop.first, loop.cells, loop.periodic, loop.distinct) == (4, (1, 2), True, 2)
    assert loop.last == result.moves > 100
    assert result.detail == (
        f"no answer within 1 s; moves 4-{loop.last:,} repeat cells 1 (0, 1), 2 (0, 2), 1, 2, ... "
        f"(the same 2 cells {loop.moves // 2:,} times), never a new cell"
    )


OLD_APIS = {
    "generator": ("def sweep_mines(board):\n    yield board\n", "sweep_mines is a generator"),
    "missing": (
        "def solve(board):\n    return board\n",
        "the file defines no function sweep_mines",
    ),
    "two": ("def sweep_mines(bm, depth):\n    return []\n", "sweep_mines(bm, depth) cannot be"),
    "none": ("def sweep_mines():\n    return []\n", "sweep_mines() takes no argument"),
    "class": (
        "class sweep_mines:\n    def __init__(self, bm):\n        pass\n",
        "sweep_mines is a class",
    ),
    "async": ("async def sweep_mines(bm):\n    return []\n", "sweep_mines is async"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(OLD_APIS))
def test_an_older_api_is_told_the_contract_in_one_sentence(tmp_path: Path, name: str) -> None:
    code, begins = OLD_APIS[name]
    with pytest.raises(SubmissionError) as raised:
        check_submission(submission(tmp_path, code))
    assert raised.value.reason.startswith(begins)
    assert raised.value.reason.endswith(f": {wording.CONTRACT}")


@pytest.mark.slow
def test_a_generator_returned_is_told_the_contract(tmp_path: Path) -> None:
    code = "def sweep_mines(bm):\n    return (bm.move(i) for i in range(3))\n"
    result = one_board(submission(tmp_path, code))
    assert (result.outcome, result.detail) == (
        Verdict.WRONG,
        f"returned a generator, not the board: {wording.CONTRACT}",
    )


@pytest.mark.slow
@pytest.mark.usefixtures("small_sets")
def test_a_class_run_s_feedback_points_at_each_student_s_code(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "ann.py").write_text(DEEP)
    (subs / "bob.py").write_text(OLD_APIS["generator"][0])
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["grade", "--class", str(subs), "--out", str(out), "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    by = {row["student"]: row for row in csv.DictReader(io.StringIO(result.stdout))}
    generator = "sweep_mines is a generator (it yields), not a function that returns the board"
    assert by["bob"]["notes"] == f"not gradable: {generator}: {wording.CONTRACT}"
    feedback = unmarked((out / "feedback" / "ann.md").read_text())
    boards = json.loads((out / "grades.json").read_text())["students"][0]["boards"]
    assert len(boards) > 1 and {b["outcome"] for b in boards} == {"crashed"}
    names = ", ".join(b["puzzle"] for b in boards)
    assert f"### crashed on {len(boards)} boards: {names}\n" in feedback
    assert feedback.count("line 6, in parse: return json.loads(text)") == 1
    assert "could not be graded: not gradable: sweep_mines is a generator" in (
        unmarked((out / "feedback" / "bob.md").read_text())
    )
