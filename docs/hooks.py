"""MkDocs hook: add the generated command reference (scripts/cli_reference.py) to the site."""

from __future__ import annotations

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
