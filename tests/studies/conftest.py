"""Shared by the studies tests: boards files written as another program's harness would; a
study run with every game kept."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import pytest

from mineshafted.studies import Finished, Kind, Line, run_study

L = TypeVar("L", bound=Line)


@dataclass(frozen=True)
class Ran(Generic[L]):
    """A study run by :func:`run_lines`: how it ended, and every game it was given."""

    finished: Finished
    lines: list[L]
    """Every game given to the fold (resumed or played), by index."""

    @property
    def interrupted(self) -> bool:
        return self.finished.interrupted

    @property
    def resumed(self) -> int:
        return self.finished.resumed


def run_lines(study: Kind[L], **options: Any) -> Ran[L]:
    """``run_study(study, **options)`` with a fold that keeps every game: for a test's few."""
    lines: list[L] = []
    finished = run_study(study, fold=lines.append, **options)
    return Ran(finished, sorted(lines, key=lambda line: line.index))


BoardsFile = Callable[..., Path]
"""Writes a boards file and returns its path: see :func:`boards_file`."""


def mine_list(rows: int, cols: int, mines: int, seed: int, first: tuple[int, int] = (0, 0)) -> str:
    """One line of a boards file: ``mines`` mines drawn from ``seed`` away from ``first``."""
    cells = [c for c in range(rows * cols) if c != first[0] * cols + first[1]]
    drawn = sorted(random.Random(seed).sample(cells, mines))
    return json.dumps(
        {"rows": rows, "cols": cols, "mines": [divmod(c, cols) for c in drawn], "first": first}
    )


@pytest.fixture
def boards_file(tmp_path: Path) -> BoardsFile:
    """A writer of boards files: ``boards_file(count, rows, cols, mines)`` draws ``count``
    boards (board ``i`` from seed ``i``); ``boards_file(lines=[...])`` writes the lines given."""

    def write(
        count: int = 0,
        rows: int = 9,
        cols: int = 9,
        mines: int = 10,
        *,
        lines: list[str] | None = None,
        name: str = "boards.jsonl",
    ) -> Path:
        path = tmp_path / name
        made = (
            lines if lines is not None else [mine_list(rows, cols, mines, i) for i in range(count)]
        )
        path.write_text("".join(line + "\n" for line in made), encoding="utf-8")
        return path

    return write
