"""The ``results.json`` of the course platforms: Gradescope's and PrairieLearn's, from a grade.

Gradescope (its autograder specification): an object with ``score`` (points), optional
``execution_time`` (seconds), ``output`` and its ``output_format``, ``visibility``,
``stdout_visibility``, ``extra_data``, and ``tests``: one per achievement here, each with
``name``, ``score``, ``max_score``, ``status`` (``passed`` or ``failed``), ``output`` and
``visibility`` (``visible``, ``hidden``, ``after_due_date`` or ``after_published``).

PrairieLearn (its external grading results): an object with ``gradable`` (false when the
submission cannot be imported, with a ``message``), ``score`` in [0, 1], ``message``,
``output``, and ``tests``: each with ``name``, ``points``, ``max_points``, ``message`` and
``output``.

Both carry the feedback a student reads (:mod:`.feedback`, as Markdown, no replay) and the
board set's name; neither carries anything that rebuilds the boards.
"""

from __future__ import annotations

from typing import Any

from ..text import visible
from .accounts import lines
from .feedback import blocks, markdown_text
from .student import StudentGrade

__all__ = ["VISIBILITIES", "gradescope_results", "prairielearn_results"]

VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
"""Gradescope's visibility settings, for the results and each test."""


def gradescope_results(
    grade: StudentGrade, board_set: str, *, visibility: str = "visible"
) -> dict[str, Any]:
    """Gradescope's ``results.json`` for one graded submission (or one that could not be).

    Examples
    --------
    >>> results = gradescope_results(StudentGrade("s", "s.py", problem="no file"), "0-0-0-0")
    >>> results["score"], [t["status"] for t in results["tests"]][:2]
    (0.0, ['failed', 'failed'])
    """
    tests = []
    for number, (name, weight, earned, text) in enumerate(_tests(grade), 1):
        tests.append(
            {
                "name": name,
                "number": str(number),
                "score": float(weight if earned else 0),
                "max_score": float(weight),
                "status": "passed" if earned else "failed",
                "output": text,
                "visibility": visibility,
            }
        )
    return {
        "score": float(grade.score),
        "execution_time": round(grade.seconds, 3),
        "output": markdown_text(blocks(grade, board_set, {})),
        "output_format": "md",
        "visibility": visibility,
        "stdout_visibility": "hidden",
        "extra_data": {"board_set": board_set},
        "tests": tests,
    }


def prairielearn_results(grade: StudentGrade, board_set: str) -> dict[str, Any]:
    """PrairieLearn's ``results.json`` for one graded submission (or one that could not be).

    Examples
    --------
    >>> results = prairielearn_results(StudentGrade("s", "s.py", problem="no file"), "0-0")
    >>> results["gradable"], results["message"]
    (False, 'Your submission could not be graded: no file')
    """
    if grade.report is None:
        return {
            "gradable": False,
            "score": 0.0,
            "message": f"Your submission could not be graded: {visible(grade.problem)}",
            "output": markdown_text(blocks(grade, board_set, {})),
        }
    tests = [
        {
            "name": name,
            "points": weight if earned else 0,
            "max_points": weight,
            "message": "earned" if earned else "not earned",
            "output": text,
        }
        for name, weight, earned, text in _tests(grade)
    ]
    return {
        "gradable": True,
        "score": grade.score / 100,
        "message": f"Score: {grade.score}% on board set {board_set}.",
        "output": markdown_text(blocks(grade, board_set, {})),
        "tests": tests,
    }


def _tests(grade: StudentGrade) -> list[tuple[str, int, bool, str]]:
    """Each achievement: its name, weight, whether earned, and its boards not solved in a few
    words (those that failed the same way in one line: :func:`~.accounts.lines`)."""
    from .rubric import RUBRIC

    if grade.report is None:
        why = f"not graded: {visible(grade.problem)}"
        return [(tier.name, tier.weight, False, why) for tier in RUBRIC]
    found = []
    for achievement in grade.report.achievements:
        tier = achievement.tier
        told = [f"{achievement.solved} of {achievement.graded} boards solved"]
        told += lines(b for b in grade.report.boards if tier.covers(b.mines))
        found.append((achievement.name, achievement.weight, achievement.earned, "\n".join(told)))
    return found
