"""Stopping: how a study ends early on Ctrl-C or SIGTERM without losing count.

A stop may arrive at any moment, but a finished game is written to the results file and
counted in the fold as one step: were a stop to land between the two (after the line reached
the file's buffer, before the fold saw it), the study would report one game fewer than its
file holds. :class:`Stopping` makes the step whole: inside :meth:`Stopping.step` a stop is
held and raised as the step ends; elsewhere it is raised at once, as Python's own handler
would.

Examples
--------
>>> with Stopping() as stopping:
...     with stopping.step():
...         pass
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType
from typing import Any

__all__ = ["Stopping", "Terminated"]


class Terminated(KeyboardInterrupt):
    """Raised in the main thread by SIGTERM while a study runs: it stops the study as Ctrl-C
    does."""


Handler = Callable[[int, FrameType | None], Any] | int | None


class Stopping:
    """While entered (in the main thread), Ctrl-C raises ``KeyboardInterrupt`` and SIGTERM
    raises :class:`Terminated`, each held back while a :meth:`step` runs.

    A handler is set only over Python's default one (a host application's own handler, or a
    signal ignored from the start, is left alone) and put back on exit; a second SIGTERM ends
    the process at once, as usual. In another thread nothing is set and a step holds nothing.
    """

    def __init__(self) -> None:
        self._in_step = False
        self._held: int | None = None
        self._before: dict[int, Handler] = {}

    def __enter__(self) -> Stopping:
        if threading.current_thread() is not threading.main_thread():
            return self
        defaults = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}
        for signum, default in defaults.items():
            if signal.getsignal(signum) is default:
                self._before[signum] = signal.signal(signum, self._stop)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        for signum, before in self._before.items():
            signal.signal(signum, before)
        self._before.clear()

    @contextmanager
    def step(self) -> Iterator[None]:
        """Run the block whole: a stop arriving in it is raised as it ends."""
        self._in_step = True
        try:
            yield
        finally:
            self._in_step = False
        held, self._held = self._held, None
        if held is not None:
            raise _interruption(held)

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        if signum == signal.SIGTERM:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second one ends the process
            self._before.pop(signal.SIGTERM, None)
        if self._in_step:
            self._held = signum
            return
        raise _interruption(signum)


def _interruption(signum: int) -> KeyboardInterrupt:
    """The exception that stops a study for ``signum``."""
    return Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()
