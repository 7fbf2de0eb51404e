"""Leftovers: what graders that are no longer running left behind, found by the pid in a name.

A grader names its temporary folders and its boards' control groups ``PREFIX<pid>-...``; one
killed with ``SIGKILL`` cannot remove them, so the next grader does.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["left_by_gone_graders"]


def left_by_gone_graders(folder: Path, prefix: str) -> list[Path]:
    """The entries of ``folder`` named ``prefix<pid>-...`` whose process ``pid`` is gone.

    An unreadable ``folder`` has none. A pid that exists but belongs to another user counts
    as running.

    Examples
    --------
    >>> left_by_gone_graders(Path("/nonexistent"), "mineshafted-grade-")
    []
    """
    try:
        entries = list(folder.glob(f"{prefix}*-*"))
    except OSError:
        return []
    gone = []
    for entry in entries:
        owner = entry.name[len(prefix) :].split("-", 1)[0]
        if owner.isdigit() and not _running(int(owner)):
            gone.append(entry)
    return gone


def _running(pid: int) -> bool:
    """Whether a process ``pid`` exists (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
