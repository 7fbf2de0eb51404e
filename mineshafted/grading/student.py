"""A student's grade: one row of the gradebook, kept in a class run as ``results/NAME.json``.

The same row serves a class run, an autograder's one submission and the feedback of either.
Its JSON form (:meth:`StudentGrade.to_json`) keeps everything the feedback needs (each board's
moves included); reading it back (:meth:`StudentGrade.from_json`) checks every field, so a
damaged file is told apart from a grade (and graded again) instead of ending the run.

Glossary
--------
student's grade
    The row: the submission graded, its report, or why it has none; the imports flagged.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from .imports import blocked
from .referee import LOOP_KEPT
from .result import BoardResult, GradeReport, Loop, Verdict
from .rubric import achievements

__all__ = ["StudentGrade"]

_FORMAT = "mineshafted-student"
_VERSION = 1
_MAX_CELLS = 1_000_000
"""The most cells a kept board may have (far more than any board a class is graded on)."""
_MAX_BOARDS = 10_000
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass
class StudentGrade:
    """One student's row: their grade, or why they have none."""

    name: str
    source: str
    sha256: str | None = None
    problem: str = ""
    """Why there is no grade (``""``: graded). A submission that cannot be imported is graded
    (0 %), with ``not gradable: ...`` here."""
    report: GradeReport | None = None
    imports: list[str] = field(default_factory=list)
    """The imports ``--allow`` does not permit, found statically (``line 3: imports numpy``)."""
    seconds: float = 0.0
    """Wall-clock time the student took to grade."""
    stored: bool = False
    """Whether this grade is kept in the run's folder (a grader's failure is not)."""
    similar: tuple[str, float] | None = None
    """The most similar peer and the share of this student's code found in theirs."""

    @property
    def score(self) -> int:
        """Percent (0 without a report)."""
        return self.report.score if self.report is not None else 0

    @property
    def blocked_at_run_time(self) -> int:
        """Boards that ended on an import the assignment does not allow, at run time."""
        boards = self.report.boards if self.report is not None else []
        return sum(blocked(b.detail) for b in boards)

    @property
    def out_of_time(self) -> int:
        """Boards not run because the submission's time budget was spent."""
        boards = self.report.boards if self.report is not None else []
        return sum(b.outcome is Verdict.OUT_OF_TIME for b in boards)

    def notes(self) -> list[str]:
        """What the gradebook says of this student beyond the numbers, one phrase each."""
        found = [self.problem] if self.problem else []
        if self.imports:
            found.append("imports not allowed: " + "; ".join(self.imports))
        if self.blocked_at_run_time:
            count = self.blocked_at_run_time
            found.append(f"an import not allowed was refused at run time on {count} board(s)")
        if self.out_of_time:
            assert self.report is not None
            timed_out = sum(b.outcome is Verdict.TIMED_OUT for b in self.report.boards)
            found.append(
                f"out of time: {self.out_of_time} board(s) not run after {timed_out} timed out"
            )
        if self.report is not None:
            found += self.report.warnings
        return found

    def to_json(self) -> dict[str, Any]:
        """Everything kept of the student (their boards' moves included, for feedback)."""
        report = self.report
        return {
            "format": _FORMAT,
            "version": _VERSION,
            "name": self.name,
            "source": self.source,
            "sha256": self.sha256,
            "problem": self.problem,
            "imports": self.imports,
            "seconds": round(self.seconds, 3),
            "report": None
            if report is None
            else {
                "board_set": report.board_set,
                "warnings": report.warnings,
                "boards": [_board_json(b) for b in report.boards],
            },
        }

    @classmethod
    def from_json(cls, data: object) -> StudentGrade:
        """A grade written by :meth:`to_json`, every field checked.

        Raises
        ------
        ValueError
            It is not one, with where and why (``boards[3]: "moves" is not a count``).
        """
        data = _object(data, "the grade")
        if data.get("format") != _FORMAT or data.get("version") != _VERSION:
            raise ValueError("not a student's grade (no format or version of one)")
        report = None
        raw = data.get("report")
        if raw is not None:
            raw = _object(raw, '"report"')
            boards = [
                _board_from_json(board, f"boards[{n}]")
                for n, board in enumerate(_list(raw.get("boards"), '"boards"', _MAX_BOARDS))
            ]
            scored = achievements((b.mines, b.outcome is Verdict.SOLVED) for b in boards)
            board_set = raw.get("board_set")
            if board_set is not None:
                board_set = _text(board_set, '"board_set"')
            report = GradeReport(
                _text(data.get("source"), '"source"'),
                boards,
                scored,
                _texts(raw.get("warnings"), '"warnings"'),
                board_set,
            )
        sha256 = data.get("sha256")
        if sha256 is not None and not (isinstance(sha256, str) and _SHA256.fullmatch(sha256)):
            raise ValueError('"sha256" is not a SHA-256 in hex')
        return cls(
            name=_text(data.get("name"), '"name"'),
            source=_text(data.get("source"), '"source"'),
            sha256=sha256,
            problem=_text(data.get("problem"), '"problem"'),
            report=report,
            imports=_texts(data.get("imports"), '"imports"'),
            seconds=_seconds(data.get("seconds"), '"seconds"'),
            stored=True,
        )


def _board_json(b: BoardResult) -> dict[str, Any]:
    return {
        **b.summary(),
        "opened": list(b.opened),
        "wrong": [list(cell) for cell in b.wrong],
        "wrong_count": b.wrong_count,
        "loop": None if b.loop is None else _loop_json(b.loop),
    }


def _loop_json(loop: Loop) -> dict[str, Any]:
    return {
        "first": loop.first,
        "moves": loop.moves,
        "cells": list(loop.cells),
        "periodic": loop.periodic,
        "distinct": loop.distinct,
    }


def _loop_from_json(data: object, where: str, cells: int) -> Loop | None:
    """A board's loop as kept, or ``None`` (a grade kept before loops were: the key missing)."""
    if data is None:
        return None
    loop = _object(data, where)
    periodic = loop.get("periodic")
    if not isinstance(periodic, bool):
        raise ValueError(f'{where}: "periodic" is not true or false')
    kept = _list(loop.get("cells"), f'{where}: "cells"', LOOP_KEPT)
    return Loop(
        first=_count(loop.get("first"), f'{where}: "first"', 1),
        moves=_count(loop.get("moves"), f'{where}: "moves"', 1),
        cells=tuple(_cell(c, cells, f'{where}: "cells"') for c in kept),
        periodic=periodic,
        distinct=_count(loop.get("distinct"), f'{where}: "distinct"', 1, cells),
    )


def _board_from_json(data: object, where: str) -> BoardResult:
    board = _object(data, where)
    rows = _count(board.get("rows"), f'{where}: "rows"', 1)
    cols = _count(board.get("cols"), f'{where}: "cols"', 1)
    cells = rows * cols
    if cells > _MAX_CELLS:
        raise ValueError(f"{where}: a board of {rows}x{cols} is larger than any graded")
    outcome = board.get("outcome")
    if outcome not in {v.value for v in Verdict}:
        raise ValueError(f'{where}: "outcome" is not an outcome')
    opened = tuple(
        _cell(c, cells, f'{where}: "opened"') for c in _list(board.get("opened"), where, cells)
    )
    wrong = tuple(_wrong(w, f'{where}: "wrong"') for w in _list(board.get("wrong"), where, cells))
    return BoardResult(
        puzzle=_text(board.get("puzzle"), f'{where}: "puzzle"'),
        rows=rows,
        cols=cols,
        mines=_count(board.get("mines"), f'{where}: "mines"', 0, cells),
        outcome=Verdict(outcome),
        moves=_count(board.get("moves"), f'{where}: "moves"'),
        seconds=_seconds(board.get("seconds"), f'{where}: "seconds"'),
        detail=_text(board.get("detail"), f'{where}: "detail"'),
        output_bytes=_count(board.get("output_bytes"), f'{where}: "output_bytes"'),
        unexplored=_count(board.get("unexplored"), f'{where}: "unexplored"', 0, cells),
        opened=opened,
        wrong=wrong,
        wrong_count=_count(
            board.get("wrong_count", len(wrong)), f'{where}: "wrong_count"', 0, cells
        ),
        loop=_loop_from_json(board.get("loop"), f'{where}: "loop"', cells),
    )


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{where} is not a JSON object")
    return value


def _list(value: object, where: str, most: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > most:
        raise ValueError(f"{where} is not a list of at most {most}")
    return value


def _text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{where} is not text")
    return value


def _texts(value: object, where: str) -> list[str]:
    return [_text(item, where) for item in _list(value, where, _MAX_BOARDS)]


def _count(value: object, where: str, least: int = 0, most: int | None = None) -> int:
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and value >= least
        and (most is None or value <= most)
    ):
        return value
    raise ValueError(f"{where} is not a count")


def _seconds(value: object, where: str) -> float:
    if (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    ):
        return float(value)
    raise ValueError(f"{where} is not a number of seconds")


def _cell(value: object, cells: int, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < cells:
        return value
    raise ValueError(f"{where} holds a cell that is not on the board")


def _wrong(value: object, where: str) -> tuple[int, int, str, int]:
    if isinstance(value, list) and len(value) == 4:
        row, col, got, want = value
        if isinstance(got, str) and all(
            isinstance(n, int) and not isinstance(n, bool) for n in (row, col, want)
        ):
            return row, col, got, want
    raise ValueError(f"{where} holds a cell that is not (row, col, returned, is)")
