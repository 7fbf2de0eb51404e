"""Board sizes on the benchmark scripts' command lines: ``ROWSxCOLSxMINES``."""

from __future__ import annotations

import argparse


def parse_size(text: str) -> tuple[int, int, int]:
    """``"30x16x99"`` -> ``(30, 16, 99)``; an argparse error otherwise."""
    try:
        rows, cols, mines = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not ROWSxCOLSxMINES") from None
    return rows, cols, mines
