"""The caps on text that came from a submission: how much of each string the report keeps.

A string is cut to its cap and its control characters made visible by :mod:`mineshafted.text`.
"""

from __future__ import annotations

__all__ = ["KIND_CAP", "MESSAGE_CAP", "REPR_CAP"]

KIND_CAP = 100
"""Characters of an exception's or a value's type name kept."""

MESSAGE_CAP = 500
"""Characters of an exception's message kept (the child cuts it there too)."""

REPR_CAP = 200
"""Characters of an unreadable value's repr kept (the child cuts it there too)."""
