"""A worker: one process of the server's pool (:mod:`.workers`), seen from inside.

It boots (the jobs' imports paid once), says :data:`READY`, then computes each job that comes
down its pipe and sends the reply back: ``("ok", value)`` or ``("error", status, message)``,
one line a person can read, whatever went wrong. Only the package's own jobs run
(:data:`.jobs.JOBS`, looked up by name).
"""

from __future__ import annotations

import logging
import signal
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Final

from ..lifetime import end_with_parent
from .errors import RequestError

__all__ = ["READY", "TOO_LARGE", "Reply", "reply_to", "serve"]

log = logging.getLogger(__name__)

Reply = tuple[Any, ...]
"""What a worker sends back for one job: ``("ok", value)``, or ``("error", status,
message)``: an HTTP status and one line."""

READY: Final = "ready"
"""What a worker says once it has booted (its imports done)."""

TOO_LARGE: Final = 413
"""The status of a position too large to count within a worker's memory (by the count's
estimate, or by running out of it): 413, Content Too Large, as for a body past its cap. The
same request gets the same answer on any retry, so not 503 ("try again later"), which the
compute budget (time, and so the server's load) answers; not 422 either: the position is
well formed."""


def serve(conn: Connection, memory: int | None, parent: int) -> None:
    """A worker process's life: compute each job that comes down the pipe, until it closes.

    Ctrl-C is the server's to handle (the worker ignores SIGINT); the worker ends with the
    server (on Linux through ``PR_SET_PDEATHSIG``, everywhere when the pipe closes).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent(parent)
    if memory is not None:
        import resource

        limit = memory * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from .jobs import JOBS  # the jobs' imports (the solver and all) paid once, before any job

    conn.send(READY)
    while True:
        try:
            job, argument = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(reply_to(JOBS, job, argument, memory))


def reply_to(
    jobs: dict[str, Callable[[Any], Any]], job: str, argument: object, memory: int | None
) -> Reply:
    """The reply to one job."""
    from ..errors import MineshaftedError
    from ..solver.count import CountTooLargeError

    try:
        return ("ok", jobs[job](argument))
    except RequestError as error:
        return ("error", error.status, str(error))
    except CountTooLargeError as error:  # the position is fine, only too wide for the budget
        return (
            "error",
            TOO_LARGE,
            f"counting its placements would take more than {error.memory:g} MiB: the clues' "
            f"frontier ({error.cells} unknown cells) is too wide to count exactly; give a "
            "position with fewer unknown cells beside its clues",
        )
    except MineshaftedError as error:
        return ("error", 422, " ".join(str(error).split()))
    except MemoryError:
        return (
            "error",
            TOO_LARGE,
            f"the computation ran out of memory (each worker may use {memory} MiB): the "
            "position is too large to count",
        )
    except RecursionError:
        return ("error", 422, "the input is nested too deeply to compute with")
    except Exception as error:
        log.exception("job %s failed", job)
        return ("error", 500, f"internal error ({type(error).__name__}): see the server's log")
