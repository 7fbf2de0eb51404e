"""Our own solver as a Mine Shafted submission.

It imports the installed ``mineshafted`` package, which the grader's bubblewrap sandbox hides
from every submission (a student's file must stand alone), so grade it without the sandbox:

    mineshafted grade --sandbox none examples/mineshafted_submission.py
"""

from mineshafted import sweep_mines

__all__ = ["sweep_mines"]
