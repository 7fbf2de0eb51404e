"""Imports: the assignment's rule for imports, and the imports a submission makes outside it.

The rule (:func:`permitted`): a submission may import the modules ``--allow`` names; the
annotation modules (:data:`ANNOTATIONS`: ``typing``, ``typing_extensions``, ``__future__``),
which every file may use to write its types; and every module the starter file imports
(``--starter``), since the course gave that code to every student. The real starter begins
``from typing import ...``: without the last two, every file shaped like it was refused.

The imports outside the rule are found twice. Here, statically, on the syntax tree
(:mod:`ast`: the source is parsed, never run): every ``import`` and ``from ... import``
statement, every call of ``__import__``, ``importlib.import_module`` or ``importlib.__import__``
(a name computed at run time is reported as such), and relative imports. And at run time in
the child (``child.py --allow``, given the permitted modules): an import the submission makes
of a module not permitted raises ``ImportError``, whose message begins with
:data:`NOT_ALLOWED`, so a board it ends says so.

Neither is a security boundary (the sandbox is): code determined to reach a module can find
one already loaded; the check is of the assignment's rule, for honest and careless code.

Examples
--------
>>> [str(f) for f in disallowed("import itertools, numpy\\nfrom os import path\\n",
...                             frozenset({"itertools"}))]
['line 1: imports numpy', 'line 2: imports os']
>>> sorted(permitted(frozenset({"itertools"}), "from typing import List\\nimport math\\n"))
['__future__', 'itertools', 'math', 'typing', 'typing_extensions']
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

__all__ = [
    "ALWAYS_ALLOWED",
    "ANNOTATIONS",
    "NOT_ALLOWED",
    "Finding",
    "allowed_modules",
    "blocked",
    "disallowed",
    "imported",
    "permitted",
]

NOT_ALLOWED = "import not allowed"
"""How the run-time ``ImportError`` of an import not allowed begins (``child.py`` writes it)."""

ALWAYS_ALLOWED = frozenset({"__future__"})
"""Modules every submission may import whatever modules it is given: compiler directives, not
modules it uses (the child holds the same set)."""

ANNOTATIONS = frozenset({"typing", "typing_extensions", "__future__"})
"""Modules :func:`permitted` always adds: what a file imports to write its types, not to do
its work. ``collections.abc``, ``abc`` and ``dataclasses`` are not among them: each does work
at run time (abstract classes, generated methods), and the rule is judged by the top-level
module, so allowing ``collections.abc`` would allow ``collections`` (``deque``, ``Counter``);
a course that wants them names them in ``--allow`` or imports them in its starter."""

_IMPORTERS = {("importlib", "import_module"), ("importlib", "__import__")}


@dataclass(frozen=True)
class Finding:
    """One import in a source, where the source makes it."""

    line: int
    module: str
    """The top-level module imported, or ``""`` for an import whose name is computed."""
    how: str = "imports"
    """``"imports"`` (by name), ``"imports relatively"`` or ``"imports a module whose name
    is computed"``."""

    def __str__(self) -> str:
        what = f" {self.module}" if self.module else ""
        return f"line {self.line}: {self.how}{what}"


def allowed_modules(text: str) -> frozenset[str]:
    """The modules ``--allow`` names, comma-separated (``""``: none at all).

    Examples
    --------
    >>> sorted(allowed_modules("itertools, collections"))
    ['collections', 'itertools']
    """
    return frozenset(name.strip() for name in text.split(",") if name.strip())


def permitted(allow: frozenset[str], starter: str | bytes | None) -> frozenset[str]:
    """The modules a submission may import: ``allow`` (what ``--allow`` names), the
    annotation modules (:data:`ANNOTATIONS`), and every module the starter file imports.

    Parameters
    ----------
    allow:
        The modules the assignment allows.
    starter:
        The starter file's source (``--starter``), parsed, never run; ``None``: no starter.

    Raises
    ------
    SyntaxError, ValueError, RecursionError, MemoryError
        The starter does not parse.

    Examples
    --------
    >>> starter = "from typing import List\\nimport itertools as it\\nclass BoardManager: ..."
    >>> sorted(permitted(frozenset(), starter))
    ['__future__', 'itertools', 'typing', 'typing_extensions']

    Notes
    -----
    O(size of the starter): one walk of its syntax tree.
    """
    return allow | ANNOTATIONS | (imported(starter) if starter is not None else frozenset())


def imported(source: str | bytes) -> frozenset[str]:
    """The top-level modules ``source`` imports by name: its ``import`` and ``from ...
    import`` statements, and its ``__import__`` and importlib calls with a literal name
    (relative imports and computed names left out).

    Raises
    ------
    SyntaxError, ValueError, RecursionError, MemoryError
        The source does not parse.

    Examples
    --------
    >>> sorted(imported("import os.path\\nfrom . import x\\n__import__('json')\\n"))
    ['json', 'os']
    """
    return frozenset(f.module for f in _imports(source) if f.how == "imports")


def disallowed(source: str | bytes, allowed: frozenset[str]) -> list[Finding]:
    """Every import in ``source`` of a module outside ``allowed`` (and ``__future__``), in
    source order: by name, relative, or with a name computed at run time.

    Raises
    ------
    SyntaxError, ValueError, RecursionError, MemoryError
        The source does not parse (a null byte, nesting too deep for the parser, ...).

    Notes
    -----
    O(size of the source): one walk of its tree.
    """
    given = allowed | ALWAYS_ALLOWED
    return [f for f in _imports(source) if f.how != "imports" or f.module not in given]


def blocked(detail: str) -> bool:
    """Whether a board's detail is a run-time import the assignment does not allow.

    Examples
    --------
    >>> blocked("cannot be imported: ImportError: import not allowed: 'numpy' (allowed: x)")
    True
    """
    return f"ImportError: {NOT_ALLOWED}" in detail


def _imports(source: str | bytes) -> list[Finding]:
    """Every import ``source`` makes, sorted by line and module."""
    tree = ast.parse(source)
    imported_names: dict[str, tuple[str, str]] = {}  # local name -> (module, attribute)
    found: list[Finding] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(Finding(node.lineno, _top(alias.name)) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                found.append(Finding(node.lineno, node.module or "", "imports relatively"))
            elif node.module is not None:
                found.append(Finding(node.lineno, _top(node.module)))
                for alias in node.names:
                    imported_names[alias.asname or alias.name] = (node.module, alias.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_importer(node.func, imported_names):
            name = node.args[0] if node.args else None
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                found.append(Finding(node.lineno, _top(name.value)))
            else:
                found.append(Finding(node.lineno, "", "imports a module whose name is computed"))
    return sorted(found, key=lambda finding: (finding.line, finding.module))


def _top(name: str) -> str:
    """The top-level module of a dotted name."""
    return name.partition(".")[0]


def _is_importer(func: ast.expr, imported: dict[str, tuple[str, str]]) -> bool:
    """Whether a call's function is ``__import__`` or one of importlib's importers."""
    if isinstance(func, ast.Name):
        return func.id == "__import__" or imported.get(func.id) in _IMPORTERS
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return (func.value.id, func.attr) in _IMPORTERS
    return False
