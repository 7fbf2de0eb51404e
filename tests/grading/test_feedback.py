"""Feedback, the gradebook and similarity: what a student and an instructor read."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted import Board, Puzzle
from mineshafted.cli import app
from mineshafted.grading import BoardResult, GradeReport, Verdict
from mineshafted.grading.classrun import StudentGrade
from mineshafted.grading.feedback import blocks, html_text, markdown_text
from mineshafted.grading.gradebook import csv_text
from mineshafted.grading.rubric import achievements
from mineshafted.grading.similarity import compare

from .conftest import CORRECT, SOLVE

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


def test_an_explosion_shows_the_board_as_the_sweep_had_uncovered_it() -> None:
    grade = graded(
        result(Verdict.EXPLODED, detail="moved onto the mine at (0, 3)", opened=(0, 1, 2, 3))
    )
    text = markdown_text(blocks(grade, "1111-2222-3333-4444", PUZZLES))
    assert "Move 4 of your sweep (counting each cell once) was onto the mine at (0, 3)" in text
    assert "```text\n0 0 1 X\n# # # #\n# # # #\n# # # #\n```" in text
    assert "1111\\-2222" not in text and "board set 1111-2222-3333-4444" in text


def test_a_wrong_board_lists_its_wrong_cells_and_a_sweep_left_short_its_safe_cells() -> None:
    wrong = graded(
        result(Verdict.WRONG, detail="(0, 2) is 2, not 1", wrong=((0, 2, "2", 1), (3, 0, "0", -1)))
    )
    text = markdown_text(blocks(wrong, "x", PUZZLES))
    assert (
        "wrong at 2 cell(s): (0, 2): you returned 2, it is 1; (3, 0): you returned 0, it is -1"
        in text
    )
    short = graded(result(Verdict.NOT_EXPLORED, unexplored=12, opened=(0, 1)))
    text = markdown_text(blocks(short, "x", PUZZLES))
    assert "never moved onto 12 safe cell(s): (0, 2), (1, 0), (1, 1)" in text


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
