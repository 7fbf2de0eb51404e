"""Lifetime: a worker process that ends when the process that started it ends.

Workers (a study's processes, the live environment's computations) must not outlive their
parent, however it ends: ``kill -9`` included.
"""

from __future__ import annotations

import os
import signal
import sys

__all__ = ["end_with_parent"]

_PR_SET_PDEATHSIG = 1
"""prctl's option: the signal this process gets when the thread that started it ends."""


def end_with_parent(parent: int) -> None:
    """End this process when ``parent`` (the pid that started it) ends.

    On Linux the kernel is asked to send ``SIGKILL`` on the parent's death
    (``PR_SET_PDEATHSIG``). A parent already gone before that was asked (this process has been
    re-parented) ends this process at once. Elsewhere the caller needs its own watch (a pipe
    that closes, a thread that polls the parent's pid).
    """
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the caller's watch
            pass
    if os.getppid() != parent:  # pragma: no cover - the parent died before we asked
        os._exit(1)
