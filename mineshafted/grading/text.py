"""The caps on text that came from a submission: how much of each string the report keeps.

A string is cut to its cap and its control characters made visible by :mod:`mineshafted.text`.
"""

from __future__ import annotations

__all__ = ["FRAMES_KEPT", "KIND_CAP", "LINE_CAP", "MESSAGE_CAP", "REPR_CAP"]

KIND_CAP = 100
"""Characters of an exception's or a value's type name kept."""

MESSAGE_CAP = 500
"""Characters of an exception's message kept (the child cuts it there too)."""

REPR_CAP = 200
"""Characters of an unreadable value's repr kept (the child cuts it there too)."""

FRAMES_KEPT = 4
"""Frames of the submission's own code kept from the traceback of an exception it raised: the
innermost ones (a run of calls from one line counts once; the child keeps as many)."""

LINE_CAP = 120
"""Characters of a line of the submission's code kept in a frame (the child cuts it there
too); a file's and a function's name are cut at :data:`KIND_CAP`."""
