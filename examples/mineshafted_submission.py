"""Our own solver as a Mine Shafted submission.

mineshafted grade examples/mineshafted_submission.py
"""

from mineshafted import sweep_mines

__all__ = ["sweep_mines"]
