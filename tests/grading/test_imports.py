"""--allow: the imports a submission may use (the allowed modules, the annotation modules, the
starter's imports), checked in its source (ast) and at run time."""

from __future__ import annotations

from pathlib import Path

import pytest

from mineshafted import Puzzle
from mineshafted.grading import Sandbox, SubmissionError, Verdict, grade
from mineshafted.grading.imports import (
    ANNOTATIONS,
    allowed_modules,
    blocked,
    disallowed,
    imported,
    permitted,
)

from .conftest import CORRECT, TWO, needs_bwrap, raised, submission

ITERTOOLS = frozenset({"itertools"})

STARTER_SHAPED = """
from typing import List, Tuple
import itertools


class BoardManager:  # do not modify
    def __init__(self, board: List[List[int]]) -> None:
        self.board = board
        self.size: Tuple[int, int] = (len(board), len(board[0]))

    def move(self, index: int) -> int:
        row, col = divmod(index, self.size[1])
        if self.board[row][col] == -1:
            raise RuntimeError
        return self.board[row][col]

    def get_adjacent(self, index: int) -> List[int]:
        rows, cols = self.size
        row, col = divmod(index, cols)
        return [
            r * cols + c
            for r, c in itertools.product(range(row - 1, row + 2), range(col - 1, col + 2))
            if 0 <= r < rows and 0 <= c < cols and (r, c) != (row, col)
        ]


def sweep_mines(bm: BoardManager) -> List[List[int]]:
    rows, cols = bm.size
    return [[0] * cols for _ in range(rows)]


if __name__ == "__main__":
    print(sweep_mines(BoardManager([[0, 1], [1, -1]])))
"""
"""A file shaped like the assignment's starter: typing imports, its own BoardManager."""


def found(source: str, allowed: frozenset[str] = ITERTOOLS) -> list[str]:
    return [str(finding) for finding in disallowed(source, allowed)]


def test_every_kind_of_import_statement_is_found() -> None:
    source = """
import itertools, numpy as np
import os.path
from collections import deque
from itertools import chain
from . import helper
"""
    assert found(source) == [
        "line 2: imports numpy",
        "line 3: imports os",
        "line 4: imports collections",
        "line 6: imports relatively",
    ]


def test_dunder_import_and_importlib_calls_are_found_with_a_literal_name_or_not() -> None:
    source = """
import importlib
from importlib import import_module as load
a = __import__("itertools")
b = __import__("socket")
c = importlib.import_module("json")
d = load("re")
name = "o" + "s"
e = __import__(name)
"""
    assert found(source) == [
        "line 2: imports importlib",
        "line 3: imports importlib",
        "line 5: imports socket",
        "line 6: imports json",
        "line 7: imports re",
        "line 9: imports a module whose name is computed",
    ]


def test_allowed_modules_and_future_imports_are_not_reported() -> None:
    source = "from __future__ import annotations\nimport itertools\nfrom itertools import chain\n"
    assert found(source) == []


def test_the_source_is_parsed_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    source = f"open({str(marker)!r}, 'w').write('x')\nimport numpy\n"
    assert found(source) == ["line 2: imports numpy"]
    assert not marker.exists()


def test_a_source_that_does_not_parse_raises_a_syntax_error() -> None:
    with pytest.raises(SyntaxError):
        disallowed("def f(:\n", ITERTOOLS)


def test_permitted_is_allow_and_the_annotation_modules_and_the_starter_s_imports() -> None:
    starter = """
from typing import List
import math, os.path
from collections.abc import Sequence
from . import helper
name = "js" + "on"
__import__(name)
__import__("json")
"""
    assert permitted(ITERTOOLS, None) == {"itertools", "typing", "typing_extensions", "__future__"}
    assert permitted(ITERTOOLS, starter) == ITERTOOLS | ANNOTATIONS | {
        "math",
        "os",
        "collections",
        "json",
    }
    assert permitted(frozenset(), starter.encode()) == permitted(frozenset(), starter) - ITERTOOLS


def test_a_starter_shaped_file_has_nothing_disallowed_once_its_imports_are_permitted() -> None:
    source = STARTER_SHAPED + "from collections import deque\n"
    assert found(source) == ["line 2: imports typing", "line 34: imports collections"]
    assert found(source, permitted(ITERTOOLS, STARTER_SHAPED)) == ["line 34: imports collections"]


def test_the_starter_is_parsed_never_run_and_must_parse(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    starter = f"import math\nopen({str(marker)!r}, 'w').write('x')\n"
    assert imported(starter) == {"math"}
    assert not marker.exists()
    with pytest.raises(SyntaxError):
        permitted(ITERTOOLS, "from typing import (\n")


def test_allow_reads_a_comma_separated_list() -> None:
    assert allowed_modules("itertools, collections,,") == {"itertools", "collections"}
    assert allowed_modules("") == frozenset()


@pytest.mark.slow
@pytest.mark.parametrize(
    "sandbox",
    [
        pytest.param(Sandbox.BWRAP, marks=needs_bwrap, id="bwrap"),
        pytest.param(Sandbox.NONE, id="none"),
    ],
)
def test_at_run_time_an_import_not_allowed_is_refused_and_says_so(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    code = """
        import itertools

        def sweep_mines(bm):
            name = "js" + "on"
            module = __import__(name)
            return None
        """
    report = grade(
        submission(tmp_path, code),
        [("two", Puzzle(TWO))],
        sandbox=sandbox,
        allow=ITERTOOLS,
        zygote=True,
        timeout=10,
    )
    (board,) = report.boards
    assert board.outcome is Verdict.CRASHED
    assert raised(board.detail) == (
        "ImportError: import not allowed: 'json' "
        "(allowed: __future__, itertools, typing, typing_extensions)"
    )
    assert blocked(board.detail)


@pytest.mark.slow
def test_an_import_not_allowed_at_the_top_makes_the_submission_not_gradable(
    tmp_path: Path,
) -> None:
    path = submission(tmp_path, "import collections\n" + CORRECT)
    with pytest.raises(SubmissionError, match="import not allowed: 'collections'"):
        grade(path, [("two", Puzzle(TWO))], allow=ITERTOOLS, zygote=True, timeout=10)


@pytest.mark.slow
def test_an_allowed_module_imports_what_it_needs_but_importlib_cannot_import_for_the_submission(
    tmp_path: Path,
) -> None:
    code = """
        import collections  # which imports modules of its own: not refused
        import importlib

        def sweep_mines(bm):
            importlib.import_module("fractions")  # loaded for the first time: the audit hook
            return None
        """
    report = grade(
        submission(tmp_path, code),
        [("two", Puzzle(TWO))],
        allow=frozenset({"collections", "importlib"}),
        zygote=True,
        timeout=10,
    )
    assert raised(report.boards[0].detail) == (
        "ImportError: import not allowed: 'fractions' "
        "(allowed: __future__, collections, importlib, typing, typing_extensions)"
    )


@pytest.mark.slow
def test_without_allow_nothing_is_checked(tmp_path: Path) -> None:
    code = "import json\n" + CORRECT
    report = grade(submission(tmp_path, code), [("two", Puzzle(TWO))], zygote=True, timeout=10)
    assert report.boards[0].outcome is Verdict.SOLVED


@pytest.mark.slow
def test_at_run_time_typing_is_imported_once_permitted_and_what_it_imports_is_not_refused(
    tmp_path: Path,
) -> None:
    code = STARTER_SHAPED.replace("def sweep_mines", "def empty_sweep") + CORRECT.replace(
        "def solve(bm):",
        "def solve(bm: BoardManager) -> List[List[int]]:\n"
        "    import typing_extensions  # first loaded here: it imports modules of its own\n"
        "    typing.get_type_hints(solve)",
    ).replace("\nsweep_mines = solve", "\nimport typing\nsweep_mines = solve")
    path = submission(tmp_path, code)
    report = grade(
        path,
        [("two", Puzzle(TWO))],
        allow=permitted(ITERTOOLS, STARTER_SHAPED),
        zygote=True,
        timeout=10,
    )
    assert [(b.outcome, b.detail) for b in report.boards] == [(Verdict.SOLVED, "")]
