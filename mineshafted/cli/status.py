"""Exit statuses of the command line, and the one place library errors are mapped to them."""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING, Final

from ..errors import MineshaftedError, NeedsGuess

if TYPE_CHECKING:
    from ..studies import Finished

__all__ = [
    "EXIT_CLOSED_PIPE",
    "EXIT_INTERRUPTED",
    "EXIT_INVALID",
    "EXIT_NEEDS_GUESS",
    "EXIT_SOLVED",
    "EXIT_TERMINATED",
    "exit_status",
    "stopped",
]

EXIT_SOLVED: Final = 0
"""Every board solved, or the command did what was asked."""

EXIT_NEEDS_GUESS: Final = 1
"""Some board cannot be finished without a guess."""

EXIT_INVALID: Final = 2
"""Unusable input or arguments: one line on stderr names the problem."""

EXIT_INTERRUPTED: Final = 130
"""Stopped by Ctrl-C after printing the summary of the games done (128 + SIGINT)."""

EXIT_TERMINATED: Final = 143
"""Stopped by SIGTERM (``kill PID``) after printing the summary of the games done (128 +
SIGTERM)."""

EXIT_CLOSED_PIPE: Final = 141
"""The status when the reader of standard output closed it early (``... | head``): 128 plus
SIGPIPE's number, what the shell reports for any Unix tool that dies of SIGPIPE, so a
pipeline under ``set -o pipefail`` sees this command as it sees ``yes``. Nothing is printed."""


def exit_status(error: MineshaftedError | OSError) -> int:
    """The exit status a command ends with when the library raises ``error``.

    Parameters
    ----------
    error : MineshaftedError or OSError
        What the library (or the file system under it) raised.

    Returns
    -------
    int
        ``EXIT_NEEDS_GUESS`` for ``NeedsGuess``; ``EXIT_INVALID`` for any other error.

    Examples
    --------
    >>> from mineshafted.errors import PuzzleFormatError
    >>> exit_status(PuzzleFormatError("<stdin>: not valid JSON"))
    2
    """
    if isinstance(error, NeedsGuess):
        return EXIT_NEEDS_GUESS
    return EXIT_INVALID


def stopped(finished: Finished) -> tuple[str, int]:
    """How a study that stopped early is reported: ``interrupted`` with
    :data:`EXIT_INTERRUPTED` (Ctrl-C), or ``terminated`` with :data:`EXIT_TERMINATED`
    (SIGTERM).

    Examples
    --------
    >>> from mineshafted.studies import Finished
    >>> stopped(Finished(3, True, 0, signal.SIGTERM))
    ('terminated', 143)
    >>> stopped(Finished(3, True, 0))
    ('interrupted', 130)
    """
    if finished.stopped_by is signal.SIGTERM:
        return "terminated", EXIT_TERMINATED
    return "interrupted", EXIT_INTERRUPTED
