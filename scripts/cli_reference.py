"""The command reference: one Markdown page per command, its ``--help`` exactly as typer prints it.

The documentation site is built with these pages (``docs/hooks.py`` calls :func:`pages` during
``mkdocs build``), so the reference cannot drift from the code: a command added to the app gets
its page at the next build, and ``tests/test_docs.py`` fails while the site's navigation lacks it.

    python scripts/cli_reference.py            # list the pages
    python scripts/cli_reference.py --out DIR  # write them into DIR (to read them without mkdocs)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

import typer.main
from typer.testing import CliRunner

from mineshafted.cli import app

__all__ = ["WIDTH", "commands", "help_text", "page", "pages", "uri"]

WIDTH = 80
"""The terminal width the help is rendered at: a common terminal's, which the page's code
blocks show without scrolling."""

FOLDER = "reference/cli"
"""Where the pages live in the site."""


def commands() -> Iterator[tuple[str, ...]]:
    """Every command's path of names below ``mineshafted``, groups before their commands.

    >>> ("rules", "eval") in list(commands())
    True
    """
    yield from _walk(typer.main.get_command(app), ())


def help_text(path: tuple[str, ...]) -> str:
    """``mineshafted PATH --help`` as a terminal :data:`WIDTH` columns wide shows it, no colour."""
    result = CliRunner().invoke(
        app, [*path, "--help"], terminal_width=WIDTH, env={"COLUMNS": str(WIDTH), "NO_COLOR": "1"}
    )
    if result.exit_code != 0:
        raise RuntimeError(f"mineshafted {' '.join(path)} --help failed: {result.output}")
    return "\n".join(line.rstrip() for line in result.output.strip("\n").splitlines())


def uri(path: tuple[str, ...]) -> str:
    """The page of ``path`` in the site: ``reference/cli/rules-eval.md``; the app's own is
    ``reference/cli/index.md``."""
    return f"{FOLDER}/{'-'.join(path) or 'index'}.md"


def page(path: tuple[str, ...]) -> str:
    """The Markdown page of the command at ``path``."""
    name = " ".join(("mineshafted", *path))
    intro = (
        "Every command and its options, exactly as `--help` prints them (generated from the "
        "command line itself at each build of this site)."
        if not path
        else f"Generated from `{name} --help` at each build of this site."
    )
    text = f"# `{name}`\n\n{intro}\n\n```text\n{help_text(path)}\n```\n"
    if not path:
        text += "\n## Commands\n\n" + "".join(
            f"- [`mineshafted {' '.join(p)}`]({uri(p).rsplit('/', 1)[1]})\n" for p in commands()
        )
    return text


def pages() -> dict[str, str]:
    """Every page by its place in the site: the app's index, then one per command."""
    return {uri(path): page(path) for path in ((), *commands())}


def _walk(command: object, path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """``command``'s own path (unless it is the root) and, for a group, its commands' paths.

    Typer's commands and groups are its own (it carries a copy of its parser), so a group is told
    by its ``commands`` mapping rather than by class.
    """
    if path:
        yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from _walk(sub, (*path, name))


def main(argv: list[str] | None = None) -> int:
    """List the pages, or write them into ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, help="write the pages into this folder")
    args = parser.parse_args(argv)
    for where, text in pages().items():
        if args.out is None:
            print(where)
            continue
        target = args.out / where
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
