"""The gradebook of a class run: one row per student, as CSV and as JSON.

Every string that came from a student (their name as the folder spells it, an exception's
message, a file name) passes through :func:`mineshafted.text.visible` (no control character,
no lone surrogate); a CSV cell that would begin with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return is prefixed with ``'`` so that no spreadsheet reads it as a formula.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from ..text import visible
from .result import Verdict
from .rubric import RUBRIC
from .similarity import Pair
from .student import StudentGrade

__all__ = ["FORMAT", "csv_text", "json_data"]

FORMAT = "mineshafted-grades"
"""The ``format`` field of ``grades.json``."""

_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def columns() -> list[str]:
    """The CSV's header, in order."""
    tiers = [tier.name for tier in RUBRIC]
    solved = [f"solved: {tier.name.removeprefix('Sweeps ')}" for tier in RUBRIC]
    outcomes = [outcome.value for outcome in Verdict]
    return [
        "student",
        "submission",
        "score",
        *tiers,
        *solved,
        *outcomes,
        "seconds",
        "most similar",
        "similarity",
        "board set",
        "notes",
    ]


def csv_text(grades: Sequence[StudentGrade], board_set: str) -> str:
    """The gradebook as CSV: a header, then one row per student.

    Examples
    --------
    >>> print(csv_text([StudentGrade("ann", "ann.py", problem="ann.py is not ...")],
    ...                "0000-0000-0000-0000").splitlines()[1])  # doctest: +ELLIPSIS
    ann,ann.py,0,,,,,,,,,,,0,0,0,0,0,0,0,0.0,,,0000-0000-0000-0000,ann.py is not ...
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns())
    for grade in grades:
        report = grade.report
        earned = [""] * len(RUBRIC)
        solved = [""] * len(RUBRIC)
        counts = dict.fromkeys(Verdict, 0)
        if report is not None:
            earned = ["yes" if a.earned else "no" for a in report.achievements]
            solved = [f"{a.solved}/{a.graded}" for a in report.achievements]
            for board in report.boards:
                counts[board.outcome] += 1
        peer, share = grade.similar if grade.similar is not None else ("", None)
        row: list[Any] = [
            grade.name,
            grade.source,
            grade.score,
            *earned,
            *solved,
            *(counts[outcome] for outcome in Verdict),
            round(grade.seconds, 1),
            peer,
            f"{share:.2f}" if share is not None else "",
            board_set,
            "; ".join(grade.notes()),
        ]
        writer.writerow([_cell(value) for value in row])
    return out.getvalue()


def json_data(
    grades: Sequence[StudentGrade],
    board_set: str,
    options: dict[str, Any],
    pairs: Sequence[Pair] | None = None,
) -> dict[str, Any]:
    """The gradebook as one JSON object: the board set, the options, each student's grade
    (score, achievements, each board's outcome), and the similar pairs if they were found."""
    students = []
    for grade in grades:
        report = grade.report
        students.append(
            {
                "student": visible(grade.name),
                "submission": visible(grade.source),
                "score": grade.score,
                "graded": report is not None,
                "achievements": [
                    {
                        "name": a.name,
                        "weight": a.weight,
                        "solved": a.solved,
                        "graded": a.graded,
                        "earned": a.earned,
                    }
                    for a in (report.achievements if report else [])
                ],
                "boards": [
                    {
                        "puzzle": visible(b.puzzle),
                        "outcome": b.outcome.value,
                        "moves": b.moves,
                        "seconds": round(b.seconds, 6),
                        "detail": visible(b.detail),
                    }
                    for b in (report.boards if report else [])
                ],
                "seconds": round(grade.seconds, 3),
                "imports": [visible(i) for i in grade.imports],
                "notes": [visible(n) for n in grade.notes()],
                "most_similar": None
                if grade.similar is None
                else {
                    "student": visible(grade.similar[0]),
                    "similarity": round(grade.similar[1], 4),
                },
            }
        )
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": 1,
        "board_set": board_set,
        "options": options,
        "students": students,
    }
    if pairs is not None:
        data["similar_pairs"] = [
            {
                "students": [visible(pair.first), visible(pair.second)],
                "similarity": [round(pair.first_share, 4), round(pair.second_share, 4)],
                "tokens": pair.tokens,
            }
            for pair in pairs
        ]
    return data


def _cell(value: Any) -> Any:
    """A CSV cell: visible text, never a spreadsheet formula."""
    if not isinstance(value, str):
        return value
    text = visible(value)
    return f"'{text}" if text.startswith(_FORMULA) else text
