"""The web server's errors: a request refused, with the HTTP status that says why."""

from __future__ import annotations

from typing import Any

from ..errors import MineshaftedError
from ..text import visible

__all__ = ["NotDecidedError", "RequestError"]


class RequestError(MineshaftedError, ValueError):
    """A request the server refuses: ``status`` is the HTTP status, the message one line
    (whatever it quotes from the request, its control characters written as escapes by
    :func:`mineshafted.text.visible`).

    Examples
    --------
    >>> error = RequestError(422, "cell: [9, 0] is off the 9x9 board")
    >>> error.status, str(error)
    (422, 'cell: [9, 0] is off the 9x9 board')
    >>> import pickle
    >>> pickle.loads(pickle.dumps(error)).status
    422
    """

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        super().__init__(visible(" ".join(message.split())))  # one line, printable

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as ``(status, message)``, so the error crosses from a worker process."""
        return (RequestError, (self.status, str(self)))


class NotDecidedError(RequestError):
    """An explanation was asked for a cell the position does not decide (HTTP 422).

    Examples
    --------
    >>> NotDecidedError("(0, 1) is not decided").status
    422
    """

    def __init__(self, message: str) -> None:
        super().__init__(422, message)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the message alone."""
        return (NotDecidedError, (str(self),))
