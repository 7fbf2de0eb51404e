"""Logging for one invocation: what ``-v`` shows, attached at its start and removed at its end."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["PACKAGE_LOGGER", "level_for", "verbose_logging"]

PACKAGE_LOGGER = "mineshafted"
"""The logger every module of the package logs under."""

_FORMAT = "%(levelname)s %(name)s: %(message)s"


def level_for(verbosity: int) -> int:
    """The logging level ``verbosity`` times ``-v`` asks for.

    Parameters
    ----------
    verbosity : int
        How many ``-v`` were given.

    Returns
    -------
    int
        ``logging.WARNING`` for none, ``logging.INFO`` for one, ``logging.DEBUG`` for more.

    Examples
    --------
    >>> [logging.getLevelName(level_for(n)) for n in range(4)]
    ['WARNING', 'INFO', 'DEBUG', 'DEBUG']
    """
    if verbosity <= 0:
        return logging.WARNING
    return logging.INFO if verbosity == 1 else logging.DEBUG


@contextmanager
def verbose_logging(verbosity: int) -> Iterator[None]:
    """Show the package's log records on stderr for the length of the block, and only then.

    Parameters
    ----------
    verbosity : int
        How many ``-v`` were given. With none nothing is attached or changed: the package's
        records go wherever the host's logging configuration sends them.

    Yields
    ------
    None
        Control, while the handler is attached.

    Examples
    --------
    >>> logger = logging.getLogger(PACKAGE_LOGGER)
    >>> before = (logger.level, logger.propagate, list(logger.handlers))
    >>> with verbose_logging(2):
    ...     (logging.getLevelName(logger.level), logger.propagate, len(logger.handlers))
    ('DEBUG', False, 1)
    >>> (logger.level, logger.propagate, list(logger.handlers)) == before
    True

    Notes
    -----
    The handler writes to the ``sys.stderr`` of the moment the block starts, and the package
    logger stops propagating while it is attached, so a host's root handler does not print each
    record a second time. At the end, whatever happened, the handler is removed and closed and
    the logger's level and ``propagate`` are put back: nothing is left bound to a stream that
    may since have been closed (a test runner's capture), and ``caplog`` or a host application
    see the package's records again. Cost: O(1).
    """
    if verbosity <= 0:
        yield
        return
    logger = logging.getLogger(PACKAGE_LOGGER)
    level, propagate = logger.level, logger.propagate
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_VisibleFormatter(_FORMAT))
    logger.addHandler(handler)
    logger.setLevel(level_for(verbosity))
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        handler.close()
        logger.setLevel(level)
        logger.propagate = propagate


class _VisibleFormatter(logging.Formatter):
    """Each record as one line with no control character: a rule's or a file's name in a
    message may hold a newline or an escape sequence, so every control character is written
    as an escape (:func:`mineshafted.text.visible`)."""

    def format(self, record: logging.LogRecord) -> str:
        from ..text import visible

        return visible(super().format(record))
