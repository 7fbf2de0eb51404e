"""Imports: which modules a submission imports that the assignment does not allow.

Checked twice. Here, statically, on the syntax tree (:mod:`ast`: the source is parsed, never
run): every ``import`` and ``from ... import`` statement, every call of ``__import__``,
``importlib.import_module`` or ``importlib.__import__`` (a name computed at run time is
reported as such), and relative imports. And at run time in the child (``child.py --allow``):
an import the submission makes of a module not allowed raises ``ImportError``, whose message
begins with :data:`NOT_ALLOWED`, so a board it ends says so.

Neither is a security boundary (the sandbox is): code determined to reach a module can find
one already loaded; the check is of the assignment's rule, for honest and careless code.

Examples
--------
>>> [str(f) for f in disallowed("import itertools, numpy\\nfrom os import path\\n",
...                             frozenset({"itertools"}))]
['line 1: imports numpy', 'line 2: imports os']
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

__all__ = ["ALWAYS_ALLOWED", "NOT_ALLOWED", "Finding", "allowed_modules", "blocked", "disallowed"]

NOT_ALLOWED = "import not allowed"
"""How the run-time ``ImportError`` of an import not allowed begins (``child.py`` writes it)."""

ALWAYS_ALLOWED = frozenset({"__future__"})
"""Modules every submission may import: compiler directives, not modules it uses."""

_IMPORTERS = {("importlib", "import_module"), ("importlib", "__import__")}


@dataclass(frozen=True)
class Finding:
    """One import the assignment does not allow, where the source makes it."""

    line: int
    module: str
    """The top-level module imported, or ``""`` for an import whose name is computed."""
    how: str = "imports"

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


def disallowed(source: str | bytes, allowed: frozenset[str]) -> list[Finding]:
    """Every import in ``source`` of a module outside ``allowed``, in source order.

    Raises
    ------
    SyntaxError, ValueError, RecursionError, MemoryError
        The source does not parse (a null byte, nesting too deep for the parser, ...).

    Notes
    -----
    O(size of the source): one walk of its tree.
    """
    permitted = allowed | ALWAYS_ALLOWED
    tree = ast.parse(source)
    imported_names: dict[str, tuple[str, str]] = {}  # local name -> (module, attribute)
    found: list[Finding] = []

    def top(name: str) -> str:
        return name.partition(".")[0]

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if top(alias.name) not in permitted:
                    found.append(Finding(node.lineno, top(alias.name)))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                found.append(Finding(node.lineno, node.module or "", "imports relatively"))
            elif node.module is not None:
                if top(node.module) not in permitted:
                    found.append(Finding(node.lineno, top(node.module)))
                for alias in node.names:
                    imported_names[alias.asname or alias.name] = (node.module, alias.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_importer(node.func, imported_names):
            name = node.args[0] if node.args else None
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                if top(name.value) not in permitted:
                    found.append(Finding(node.lineno, top(name.value)))
            else:
                found.append(Finding(node.lineno, "", "imports a module whose name is computed"))
    return sorted(found, key=lambda finding: (finding.line, finding.module))


def blocked(detail: str) -> bool:
    """Whether a board's detail is a run-time import the assignment does not allow.

    Examples
    --------
    >>> blocked("cannot be imported: ImportError: import not allowed: 'numpy' (allowed: x)")
    True
    """
    return f"ImportError: {NOT_ALLOWED}" in detail


def _is_importer(func: ast.expr, imported: dict[str, tuple[str, str]]) -> bool:
    """Whether a call's function is ``__import__`` or one of importlib's importers."""
    if isinstance(func, ast.Name):
        return func.id == "__import__" or imported.get(func.id) in _IMPORTERS
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return (func.value.id, func.attr) in _IMPORTERS
    return False
