"""The rubric's tiers and the pinned JSON shape of a grade report."""

from __future__ import annotations

import contextlib
import io
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted.cli.grade import _print_grade
from mineshafted.grading import RUBRIC, BoardResult, GradeReport, Verdict
from mineshafted.grading.rubric import achievements


@pytest.mark.parametrize("mines", [5, 6, 7, 99])
def test_five_or_more_mines_count_toward_the_top_tier_only(mines: int) -> None:
    scored = achievements([(mines, True), (mines, False)])
    assert {a.name: (a.graded, a.solved) for a in scored if a.graded} == {"Sweeps 5+ Mines": (2, 1)}


@given(st.integers(min_value=1, max_value=10_000))
def test_every_number_of_mines_is_in_exactly_one_tier(mines: int) -> None:
    assert sum(tier.covers(mines) for tier in RUBRIC) == 1


def test_a_board_without_mines_counts_toward_no_tier() -> None:
    assert not any(tier.covers(0) for tier in RUBRIC)


def test_the_weights_add_up_to_a_hundred() -> None:
    assert sum(tier.weight for tier in RUBRIC) == 100


def test_an_achievement_is_earned_when_every_graded_board_is_solved() -> None:
    scored = {a.name: a for a in achievements([(1, True), (1, True), (2, True), (2, False)])}
    assert scored["Sweeps 1 Mine"].earned and not scored["Sweeps 2 Mines"].earned
    assert not scored["Sweeps 3 Mines"].earned  # none graded


BOARD_KEYS = {
    "puzzle": str,
    "rows": int,
    "cols": int,
    "mines": int,
    "outcome": str,
    "moves": int,
    "seconds": float,
    "detail": str,
    "output_bytes": int,
    "unexplored": int,
}
ACHIEVEMENT_KEYS = {"name": str, "weight": int, "graded": int, "solved": int, "earned": bool}
TOP_KEYS = {
    "submission": str,
    "board_set": type(None),
    "score": int,
    "achievements": list,
    "boards": list,
    "warnings": list,
}


def test_the_json_report_has_exactly_its_keys_and_types() -> None:
    boards = [
        BoardResult("a.json", 4, 4, 1, Verdict.SOLVED, 15, 0.0012345678, output="hi\n"),
        BoardResult("b.json", 4, 5, 6, Verdict.EXPLODED, 3, 0.5, "moved onto the mine at (1, 3)"),
    ]
    report = GradeReport("sub.py", boards, achievements([(1, True), (6, False)]))
    obj = json.loads(json.dumps(report.to_json()))
    assert {key: type(value) for key, value in obj.items()} == TOP_KEYS
    assert len(obj["achievements"]) == len(RUBRIC)
    for achievement in obj["achievements"]:
        assert {key: type(value) for key, value in achievement.items()} == ACHIEVEMENT_KEYS
    for board in obj["boards"]:
        assert {key: type(value) for key, value in board.items()} == BOARD_KEYS
    assert obj["score"] == 10
    assert obj["boards"][0]["seconds"] == 0.001235
    assert [b["outcome"] for b in obj["boards"]] == ["solved", "exploded"]
    assert "output" not in obj["boards"][0]


TROUBLE = "\x1b\x9b\u202e\u2028\udc1b\udcc2\udc9b\udce2\udc80\udcae"
"""Characters that break a terminal or an encoder, drawn often: an unbiased draw seldom meets
a surrogate."""

ANY_TEXT = st.text(
    st.one_of(st.characters(exclude_categories=()), st.sampled_from(TROUBLE)), max_size=40
)
"""Any str at all: controls, bidirectional marks, unassigned code points and lone surrogates
(which hypothesis leaves out unless asked)."""

DRIVING = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
"""What may not reach a terminal: every control character but the newline, and every mark or
separator that breaks a line or reorders text."""


@settings(max_examples=40, deadline=None)
@given(submission=ANY_TEXT, labels=st.lists(ANY_TEXT, min_size=1, max_size=3), said=ANY_TEXT)
def test_every_report_prints_in_full_as_utf8_whatever_its_strings_hold(
    submission: str, labels: list[str], said: str
) -> None:
    boards = [BoardResult(label, 4, 5, 2, Verdict.CRASHED, 0, 0.1, said) for label in labels]
    report = GradeReport(submission, boards, achievements([(2, False)]), [said], "0123-4567-89ab")
    written = io.BytesIO()
    stream = io.TextIOWrapper(written, encoding="utf-8", errors="strict")
    with contextlib.redirect_stdout(stream):
        _print_grade(report, f"from the key in {said}")
    stream.flush()
    text = written.getvalue().decode("utf-8")
    assert "score: 0% (0 of 5 achievements)" in text and "boards: set 0123-4567-89ab" in text
    assert not DRIVING.search(text)
    as_json = json.dumps(report.to_json(), ensure_ascii=False)
    assert not DRIVING.search(as_json.encode("utf-8").decode("utf-8"))
