"""MkDocs hooks: the generated command reference (scripts/cli_reference.py), and the docstrings'
Sphinx roles shown as plain code in the API reference."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from cli_reference import pages


def on_files(files: Files, config: Any) -> Files:
    """Add one page per command, made from the app's ``--help`` at this build."""
    for where, text in pages().items():
        files.append(File.generated(config, where, content=text))
    return files


_ROLE = re.compile(r":(?:mod|class|func|meth|attr|data|exc|obj):<code>(~?)([^<]*)</code>")
"""A Sphinx role as Markdown renders it: ``:class:`~a.b.C``` comes out as
``:class:<code>~a.b.C</code>``."""


def on_page_content(html: str, **_: Any) -> str:
    """Show ``:class:`~a.b.C``` as ``C``, ``:func:`a.f``` as ``a.f``, in code, as Sphinx would."""
    return _ROLE.sub(_code, html)


def _code(match: re.Match[str]) -> str:
    """The role's target as code: the last part only after a ``~``."""
    short, target = match.groups()
    return f"<code>{target.rsplit('.', 1)[-1] if short else target}</code>"
