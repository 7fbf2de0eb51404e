"""The command line: one module per command, imported lazily."""

from __future__ import annotations

from .app import app, main

__all__ = ["app", "main"]
