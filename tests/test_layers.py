"""Imports between the package's parts run one way: the layering table between the units, and
no circle among the modules of one folder, both checked with ast."""

from __future__ import annotations

import ast
import graphlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import mineshafted

PACKAGE = Path(mineshafted.__file__).resolve().parent
"""The ``mineshafted/`` directory under test."""

# Each unit may import only the units named on its line (and itself). The arrows run one way,
# from vocabulary up to the command line, so a part can be read, tested and replaced without
# anything above it, no import cycle can form, and only the lazy CLI sees everything.
LAYERS = """
errors:      (nothing)
text:        (nothing)
lifetime:    (nothing)
files:       errors
core:        errors
board:       errors
formats:     board, errors, files
game:        board, errors, core
solver:      board, errors, game, core
rating:      board, errors, game, solver
generate:    board, errors, formats, game, solver, rating
probability: board, errors, game, solver, core
agents:      board, errors, game, solver, probability
rules:       board, errors, formats, game, solver, agents
replay:      board, errors, formats, game
studies:     board, errors, lifetime, formats, game, solver, rating, generate, probability,
             agents
grading:     board, errors, files, formats, text, solver, generate
web:         board, errors, lifetime, formats, text, game, solver, generate, probability, agents,
             rules, replay
cli:         everything
"""

PUBLIC_FACE = "mineshafted"
"""The package root as an import target: it re-exports most units, so only ``cli`` (which may
import everything) may import it. ``mineshafted/__init__.py`` and ``__main__.py`` are the
public face themselves and are exempt."""

EXEMPT = {"__init__.py", "__main__.py"}

CIRCLES_LEFT: dict[tuple[str, str], str] = {}
"""Arrows inside a folder that close a circle and are left for now (the one beside them
runs the other way), each with why it is there: every other circle fails the check below."""

CHILD = "grading/child.py"
"""The grading child process: it runs the submission and must hold nothing of the package's,
so it imports nothing from it at all."""


def _parse_layers(table: str) -> dict[str, frozenset[str]]:
    # An indented line goes on with the line above it.
    joined = re.sub(r"\n\s+", " ", table.strip())
    lines = [line.split(":") for line in joined.splitlines()]
    units = [unit.strip() for unit, _ in lines]
    allowed: dict[str, frozenset[str]] = {}
    for unit, targets in ((u.strip(), t.strip()) for u, t in lines):
        if targets == "(nothing)":
            allowed[unit] = frozenset({unit})
        elif targets == "everything":
            allowed[unit] = frozenset([*units, PUBLIC_FACE])
        else:
            allowed[unit] = frozenset({unit, *(t.strip() for t in targets.split(","))})
    return allowed


ALLOWED = _parse_layers(LAYERS)
"""Unit -> the units it may import (itself included)."""


@dataclass(frozen=True)
class Import:
    """One import statement's target module, where it stands."""

    line: int
    target: str
    """The dotted module imported, e.g. ``mineshafted.solver.sweep`` (or a name in it)."""


def imports(source: str, module: str, is_package: bool) -> Iterator[Import]:
    """Every import of a ``mineshafted`` module in ``source``, relative ones resolved.

    Reads the whole tree: imports inside functions and under ``if TYPE_CHECKING`` count, and so
    does ``importlib.import_module`` with a literal name. ``from X import a`` yields ``X.a`` when
    ``X`` is the package root and ``a`` a unit, and ``X`` otherwise.
    """
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(package, node.level, node.module)
            if base is None:
                continue
            for alias in node.names:
                unit = base == PUBLIC_FACE and alias.name in ALLOWED
                yield Import(node.lineno, f"{base}.{alias.name}" if unit else base)
        elif isinstance(node, ast.Call) and _is_import_module(node.func):
            name = node.args[0] if node.args else None
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                dots = len(name.value) - len(name.value.lstrip("."))
                target = _resolve(package, dots, name.value.lstrip(".") or None)
                if target is not None:
                    yield Import(node.lineno, target)


def unit_of(target: str) -> str | None:
    """The unit a dotted module belongs to; ``None`` outside the package.

    >>> unit_of("mineshafted.solver.sweep"), unit_of("mineshafted.board"), unit_of("networkx")
    ('solver', 'board', None)
    """
    parts = target.split(".")
    if parts[0] != PUBLIC_FACE:
        return None
    return parts[1] if len(parts) > 1 else PUBLIC_FACE


def check_module(relative: str, source: str) -> list[str]:
    """Every forbidden arrow out of one module, as ``path:line: from -> to`` messages.

    ``relative`` is the module's path under ``mineshafted/``, with ``/`` separators.
    """
    parts = relative.removesuffix(".py").split("/")
    is_package = parts[-1] == "__init__"
    module = ".".join([PUBLIC_FACE, *(parts[:-1] if is_package else parts)])
    where = f"mineshafted/{relative}"
    if relative in EXEMPT:
        return []
    unit = parts[0]
    if unit not in ALLOWED:
        return [f"{where}: unit {unit!r} is not in the layering table (tests/test_layers.py)"]
    problems = []
    for found in imports(source, module, is_package):
        target = unit_of(found.target)
        if target is None:
            continue
        if relative == CHILD:
            problems.append(
                f"{where}:{found.line}: the grading child imports {found.target}; "
                "it must import nothing from the package"
            )
        elif target not in ALLOWED[unit]:
            may = ", ".join(sorted(ALLOWED[unit] - {unit})) or "nothing"
            problems.append(
                f"{where}:{found.line}: {unit} -> {target} is not allowed "
                f"(imports {found.target}; {unit} may import {may})"
            )
    return problems


def violations(root: Path) -> list[str]:
    """Every forbidden arrow in the package tree at ``root`` (the ``mineshafted/`` directory)."""
    problems = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        problems += check_module(relative, path.read_text(encoding="utf-8"))
    return problems


def module_graph(root: Path) -> dict[str, set[str]]:
    """Every module of the tree at ``root`` (as its path under it: ``solver/sweep.py``, a
    package as its ``__init__.py``) -> the modules of the tree it imports.

    ``from X import a`` is an import of the module ``X.a`` when there is one (``from . import
    plain``), else of ``X``; imports inside functions and under ``if TYPE_CHECKING`` count.
    """
    paths = {p.relative_to(root).as_posix() for p in root.rglob("*.py")}
    modules = {_dotted(path): path for path in paths}
    graph: dict[str, set[str]] = {}
    for path in sorted(paths):
        module = _dotted(path)
        is_package = path.endswith("__init__.py")
        package = module if is_package else module.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse((root / path).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(package, node.level, node.module)
                for alias in node.names if base is not None else ():
                    dotted = f"{base}.{alias.name}"
                    found.add(dotted if dotted in modules else str(base))
        graph[path] = {modules[m] for m in found if m in modules} - {path}
    return graph


@cache
def package_graph() -> dict[str, set[str]]:
    """:func:`module_graph` of the package as it stands, read once."""
    return module_graph(PACKAGE)


def circles(root: Path, left: dict[tuple[str, str], str] = CIRCLES_LEFT) -> list[str]:
    """A circle of imports among the modules of each folder that has one (the arrows ``left``
    aside), as ``folder: a.py -> b.py -> a.py``; found with graphlib."""
    graph = package_graph() if root == PACKAGE else module_graph(root)
    problems = []
    for folder in sorted({path.rpartition("/")[0] for path in graph}):
        inside = sorted(path for path in graph if path.rpartition("/")[0] == folder)
        arrows = {  # sorted: the circle named does not hang on the order of a set
            path: sorted(t for t in graph[path] & set(inside) if (path, t) not in left)
            for path in inside
        }
        try:
            graphlib.TopologicalSorter(arrows).prepare()
        except graphlib.CycleError as error:
            names = [path.rpartition("/")[2] for path in reversed(error.args[1])]
            problems.append(f"mineshafted/{folder or '.'}: {' -> '.join(names)}")
    return problems


def _dotted(path: str) -> str:
    """``solver/sweep.py`` -> ``mineshafted.solver.sweep``; a package's ``__init__.py`` ->
    the package."""
    parts = path.removesuffix(".py").split("/")
    return ".".join([PUBLIC_FACE, *(parts[:-1] if parts[-1] == "__init__" else parts)])


# The package as it stands.


def test_every_import_in_the_package_runs_down_the_layers() -> None:
    problems = violations(PACKAGE)
    assert not problems, "forbidden imports:\n" + "\n".join(problems)


@pytest.mark.slow  # over 0.5 s on a quiet machine: CI runs it
def test_no_folder_has_a_circle_of_imports_among_its_modules() -> None:
    problems = circles(PACKAGE)
    assert not problems, "circles of imports:\n" + "\n".join(problems)


def test_the_solvers_modules_import_one_way_plain_below_ladder_below_sweep() -> None:
    graph = package_graph()
    assert "solver/manager.py" in graph["solver/plain.py"]  # the Manager type, below the sweep
    assert "solver/plain.py" in graph["solver/ladder.py"]
    assert "solver/ladder.py" in graph["solver/sweep.py"]
    assert "solver/sweep.py" not in graph["solver/plain.py"] | graph["solver/ladder.py"]


def test_the_checker_sees_the_imports_the_package_has() -> None:
    # Guards the test above against passing because it read nothing: the sweep's real arrows.
    source = (PACKAGE / "solver" / "sweep.py").read_text(encoding="utf-8")
    targets = {unit_of(i.target) for i in imports(source, "mineshafted.solver.sweep", False)}
    assert {"board", "errors", "solver"} <= targets


# The table itself.


def test_the_table_names_only_its_own_units() -> None:
    units = set(ALLOWED)
    for unit, targets in ALLOWED.items():
        assert targets - {PUBLIC_FACE} <= units, f"{unit} names an unknown unit"


def test_the_table_has_no_cycle() -> None:
    graph = {unit: targets - {unit, PUBLIC_FACE} for unit, targets in ALLOWED.items()}
    order = list(graphlib.TopologicalSorter(graph).static_order())  # CycleError on a cycle
    assert order[0] == "errors"
    assert order[-1] == "cli"


def test_nothing_may_import_the_cli() -> None:
    assert [unit for unit, targets in ALLOWED.items() if "cli" in targets] == ["cli"]


def test_only_the_cli_may_import_the_public_face() -> None:
    assert [unit for unit, targets in ALLOWED.items() if PUBLIC_FACE in targets] == ["cli"]


# The checker catches wrong arrows in every form an import can take.


@pytest.mark.parametrize(
    ("relative", "source", "line", "arrow"),
    [
        ("solver/sweep.py", "from ..cli import app\n", 1, "solver -> cli"),
        ("board.py", "import mineshafted.solver.sweep\n", 1, "board -> solver"),
        ("board.py", "import mineshafted.solver as s\n", 1, "board -> solver"),
        ("errors.py", "from .board import MINE\n", 1, "errors -> board"),
        ("formats.py", "from . import solver\n", 1, "formats -> solver"),
        ("grading/grade.py", "from mineshafted import studies\n", 1, "grading -> studies"),
        ("grading/grade.py", "from mineshafted import Board\n", 1, "grading -> mineshafted"),
        ("game/manager.py", "import mineshafted\n", 1, "game -> mineshafted"),
        ("game/manager.py", "from .. import __version__\n", 1, "game -> mineshafted"),
        ("replay/html.py", "from ..solver import Sweep\n", 1, "replay -> solver"),
        ("probability/exact.py", "from ..extras import x\n", 1, "probability -> extras"),
        (
            "game/manager.py",
            "def later() -> None:\n    from mineshafted.generate import generate\n",
            2,
            "game -> generate",
        ),
        (
            "grading/grade.py",
            "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
            "    from ..probability.exact import P\n",
            4,
            "grading -> probability",
        ),
        (
            "solver/__init__.py",
            "import importlib\n\nimportlib.import_module('mineshafted.agents')\n",
            3,
            "solver -> agents",
        ),
        (
            "rules/parse.py",
            "from importlib import import_module\n\nimport_module('..studies', __package__)\n",
            3,
            "rules -> studies",
        ),
    ],
)
def test_a_wrong_arrow_is_named_with_file_and_line(
    relative: str, source: str, line: int, arrow: str
) -> None:
    (problem,) = check_module(relative, source)
    assert problem.startswith(f"mineshafted/{relative}:{line}: {arrow} is not allowed")


@pytest.mark.parametrize(
    ("relative", "source"),
    [
        ("solver/sweep.py", "from ..board import Cell\nfrom .csp import ClueCSP\n"),
        ("solver/__init__.py", "from .csp import ClueCSP\nfrom . import search\n"),
        ("generate.py", "from .solver import Sweep\nfrom .formats import Puzzle\n"),
        ("studies/run.py", "from mineshafted.agents import Agent\n"),
        ("cli/app.py", "from .. import __version__, grading\nfrom ..generate import generate\n"),
        ("__init__.py", "from .cli import main\n"),
        ("__main__.py", "from .cli import main\n"),
        ("grading/child.py", "import json\nimport importlib.util\n"),
    ],
)
def test_an_allowed_arrow_passes(relative: str, source: str) -> None:
    assert check_module(relative, source) == []


def test_the_grading_child_may_import_nothing_from_the_package() -> None:
    (problem,) = check_module("grading/child.py", "import json\nfrom ..errors import X\n")
    assert problem.startswith("mineshafted/grading/child.py:2: the grading child imports")


def test_a_tree_with_a_wrong_arrow_and_an_unknown_unit_fails(tmp_path: Path) -> None:
    root = tmp_path / "mineshafted"
    (root / "solver").mkdir(parents=True)
    (root / "__init__.py").write_text("from .cli import main\n")
    (root / "board.py").write_text("from .errors import InvalidBoardError\n")
    (root / "solver" / "__init__.py").write_text('"""Deduction."""\n')
    (root / "solver" / "sweep.py").write_text("import logging\n\nfrom ..generate import g\n")
    (root / "extras.py").write_text("from .board import Board\n")
    assert violations(root) == [
        "mineshafted/extras.py: unit 'extras' is not in the layering table (tests/test_layers.py)",
        "mineshafted/solver/sweep.py:3: solver -> generate is not allowed "
        "(imports mineshafted.generate; solver may import board, core, errors, game)",
    ]


def test_a_circle_inside_a_folder_is_named_even_through_a_later_or_typing_import(
    tmp_path: Path,
) -> None:
    root = tmp_path / "mineshafted"
    (root / "solver").mkdir(parents=True)
    (root / "solver" / "__init__.py").write_text("from .ladder import Rung\n")
    (root / "solver" / "ladder.py").write_text("from . import plain\n")
    (root / "solver" / "plain.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .sweep import M\n"
    )
    (root / "solver" / "sweep.py").write_text("def f() -> None:\n    from .ladder import R\n")
    (root / "board.py").write_text("from .solver import sweep\n")  # another folder: no circle
    circle = "mineshafted/solver: ladder.py -> plain.py -> sweep.py -> ladder.py"
    assert circles(root, {}) == [circle]
    assert circles(root, {("solver/sweep.py", "solver/ladder.py"): "left"}) == []
    (root / "solver" / "sweep.py").write_text("import logging\n")
    assert circles(root, {}) == []


def _resolve(package: str, level: int, name: str | None) -> str | None:
    """The absolute module of ``from <level dots><name> import ...`` inside ``package``."""
    if level == 0:
        return name
    parts = package.split(".")
    if level - 1 >= len(parts):
        return None
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, name] if name else base)


def _is_import_module(func: ast.expr) -> bool:
    return (isinstance(func, ast.Name) and func.id == "import_module") or (
        isinstance(func, ast.Attribute) and func.attr == "import_module"
    )
