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


_BOARD = re.compile(r"^```board\n(.*?)^```\n", re.MULTILINE | re.DOTALL)
"""A fenced block of a board: rows of cells separated by spaces."""

_COLOURS = {1: "#1f4fd1", 2: "#1b7a1b", 3: "#c62020", 4: "#14147a", 5: "#7a1414", 6: "#13807a"}


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Draw each ```` ```board ```` block as an SVG picture of the board.

    A cell is a clue ``1``-``8``, ``.`` for a 0, ``*`` for a mine or ``?`` for a cell not yet
    known; a trailing ``!`` marks a cell the text talks about (drawn on yellow).
    """
    return _BOARD.sub(lambda match: f"\n<div>{_svg(match.group(1))}</div>\n\n", markdown)


def _svg(text: str) -> str:
    """The SVG of one board block."""
    size = 28
    rows = [line.split() for line in text.strip().splitlines()]
    width, height = max(map(len, rows)) * size, len(rows) * size
    parts = [
        f'<svg class="board" xmlns="http://www.w3.org/2000/svg" width="{width + 2}" '
        f'height="{height + 2}" viewBox="-1 -1 {width + 2} {height + 2}" role="img" '
        f'aria-label="a board">'
    ]
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            x, y = c * size, r * size
            marked = cell.endswith("!")
            value = cell.rstrip("!")
            fill = "#ffe680" if marked else ("#bdbdbd" if value == "?" else "#eeeeee")
            parts.append(
                f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill}" '
                'stroke="#888" stroke-width="1"/>'
            )
            middle_x, middle_y = x + size / 2, y + size / 2
            if value == "*":
                parts.append(f'<circle cx="{middle_x}" cy="{middle_y}" r="7" fill="#222"/>')
            elif value.isdigit() and value != "0":
                colour = _COLOURS.get(int(value), "#333")
                parts.append(
                    f'<text x="{middle_x}" y="{middle_y + 6}" text-anchor="middle" '
                    f'font-family="sans-serif" font-weight="bold" font-size="17" '
                    f'fill="{colour}">{value}</text>'
                )
    parts.append("</svg>")
    return "".join(parts)
